// The public declarations written in Sources/ that have no doc comment, from the symbol graphs
// of `swift package dump-symbol-graph`. Run by scripts/docs:
//   swift scripts/lib/doc-coverage.swift GRAPH.symbols.json...
// Prints "MODULE documented TOTAL" per module, then every undocumented declaration as
// "path:line: kind name". Declarations the compiler made (synthesized conformances) and those
// outside Sources/ are not counted.
import Foundation

var totals: [String: (documented: Int, total: Int)] = [:]
var missing: [String] = []
for path in CommandLine.arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path),
          let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let module = (graph["module"] as? [String: Any])?["name"] as? String,
          let symbols = graph["symbols"] as? [[String: Any]] else {
        FileHandle.standardError.write(Data("doc-coverage: cannot read \(path)\n".utf8))
        exit(1)
    }
    for symbol in symbols {
        guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
              let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
              let range = uri.range(of: "/Sources/") else { continue }
        var entry = totals[module] ?? (0, 0)
        entry.total += 1
        if symbol["docComment"] != nil {
            entry.documented += 1
        } else {
            let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
            let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "").replacingOccurrences(of: "swift.", with: "")
            let name = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            missing.append("Sources/\(uri[range.upperBound...]):\(line): \(kind) \(name)")
        }
        totals[module] = entry
    }
}
for (module, entry) in totals.sorted(by: { $0.key < $1.key }) { print("\(module) \(entry.documented) \(entry.total)") }
for line in missing.sorted() { print(line) }
