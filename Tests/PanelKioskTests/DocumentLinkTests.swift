import Foundation
import Testing
import PanelTestSupport

/// Every link between the repository's documents leads somewhere: the file exists, and a
/// `#section` is one of its headings (docs/configuration.md linked a pictures.md that never was).
@Suite("Links between the documents")
struct DocumentLinkTests {
    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        var out = ""
        for character in heading.lowercased() {
            if character == " " { out.append("-") }
            else if character.isLetter || character.isNumber || character == "-" || character == "_" { out.append(character) }
        }
        return out
    }

    /// The anchors of the headings of the Markdown file at `path`.
    static func anchors(_ path: String) throws -> Set<String> {
        var found = Set<String>()
        var fenced = false
        for line in try fileText(path).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            found.insert(anchor(String(line.drop { $0 == "#" }.drop { $0 == " " })))
        }
        return found
    }

    /// The relative link targets in `text`: what `](` opens, up to its `)`, not a URL.
    static func links(_ text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close])
            if !target.contains("://"), !target.hasPrefix("mailto:"), !target.contains(" ") { found.append(target) }
        }
        return found
    }

    @Test("every relative link in README.md and docs/ names a file that exists, and a heading in it")
    func linksResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repository + "/docs").filter { $0.hasSuffix(".md") }
        let files = ["README.md"] + docs.map { "docs/" + $0 }
        var checked = 0
        for file in files {
            let folder = (file as NSString).deletingLastPathComponent
            for link in Self.links(try fileText(repository + "/" + file)) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? file : (folder.isEmpty ? parts[0] : folder + "/" + parts[0])
                let path = (repository + "/" + target as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: path), "\(file) links \(link): no \(target)")
                if parts.count == 2, path.hasSuffix(".md"), FileManager.default.fileExists(atPath: path) {
                    #expect(try Self.anchors(path).contains(parts[1]), "\(file) links \(link): \(target) has no such heading")
                }
                checked += 1
            }
        }
        #expect(checked > 50)
    }
}
