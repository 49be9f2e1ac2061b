// The public declarations written in Sources/ that have no doc comment, from the symbol graphs
// of `swift package dump-symbol-graph`. Run by scripts/docs:
//   swift scripts/lib/doc-coverage.swift GRAPH.symbols.json...
// Prints "MODULE documented TOTAL" per module, then every undocumented declaration as
// "path:line: kind name". Declarations the compiler made (synthesized conformances) and those
// outside Sources/ are not counted; a comment inherited from a protocol or a superclass does not
// document a declaration.
import Foundation

/// Whether `comment` ends within a few lines above the declaration at `location` (attributes
/// may stand between them), rather than being another declaration's comment in the same file.
func ownComment(_ comment: [String: Any], above location: [String: Any]) -> Bool {
    guard let lines = comment["lines"] as? [[String: Any]], let last = lines.last,
          let end = ((last["range"] as? [String: Any])?["end"] as? [String: Any])?["line"] as? Int,
          let line = (location["position"] as? [String: Any])?["line"] as? Int else { return false }
    return end < line && line - end <= 4
}

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
        // A comment the compiler copied from a protocol requirement or an overridden member
        // (its uri is the other file, or other lines) does not count: the declaration itself
        // must carry one.
        let comment = symbol["docComment"] as? [String: Any]
        if let comment, comment["uri"] as? String == uri, ownComment(comment, above: location) {
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
