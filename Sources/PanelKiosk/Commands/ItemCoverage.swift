import PanelHost

/// `panel-refresh check --items FILE`: the items whose texts have characters no installed face
/// draws (they would show as the missing-glyph box), each with the script and the Debian
/// package that would draw it.
public enum ItemCoverage {
    /// One item's text that the panel cannot draw whole.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        /// The item's id.
        public var item: String
        /// The field ("title", "subtitle", "detail", "badge", "body").
        public var field: String
        /// The characters no face draws, each once.
        public var scalars: [UInt32]
        /// Their scripts, each once ("Bengali").
        public var scripts: [String]
        /// What to install (`WritingSystem.advice`), each once.
        public var advice: [String]

        /// One line for the operator: the item, the field, the characters and what draws them.
        public var description: String {
            let shown = scalars.prefix(8).map(WritingSystem.codePoint)
                .joined(separator: " ") + (scalars.count > 8 ? " and \(scalars.count - 8) more" : "")
            return "item \"\(item)\": its \(field) has \(shown) (\(scripts.joined(separator: ", "))), which no installed face draws:"
                + " install \(advice.joined(separator: " or "))"
        }
    }

    /// What of `items` the faces `fonts` finds cannot draw, item by item, field by field.
    @MainActor
    public static func findings(_ items: [Item], fonts: FontLibrary) -> [Finding] {
        var found: [Finding] = []
        for item in items {
            let font = Font(size: 17, language: item.fontLanguage)
            for (field, text) in [("title", item.title), ("subtitle", item.subtitle), ("detail", item.detail),
                                  ("badge", item.badge), ("body", item.body)] where !text.isEmpty {
                let missing = fonts.uncovered(in: text, font: font)
                guard !missing.isEmpty else { continue }
                var scripts: [String] = [], advice: [String] = []
                for scalar in missing {
                    let script = WritingSystem.name(of: scalar.value), package = WritingSystem.advice(for: scalar.value)
                    if !scripts.contains(script) { scripts.append(script) }
                    if !advice.contains(package) { advice.append(package) }
                }
                found.append(Finding(item: item.id, field: field, scalars: missing.map(\.value), scripts: scripts, advice: advice))
            }
        }
        return found
    }

    /// The items of the file at `path` (a JSON array or JSON lines, as the file source reads
    /// it, with `fields`) checked against the installed faces.
    @MainActor
    public static func check(path: String, fields: ItemParser.Fields = ItemParser.Fields(), fonts: FontLibrary) throws -> [Finding] {
        let bytes = try BoundedFile.read(path, limit: ItemParser.maxBytes + 1)
        return findings(try ItemParser.parse(bytes, source: path, fields: fields), fonts: fonts)
    }
}
