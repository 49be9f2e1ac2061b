import PanelHost

/// Items from JSON: an array of objects, or one object per line (JSON lines), each with a
/// string `title` and optional `subtitle` and `id` (string or number; without it, the title is
/// the item's id).
public enum ItemParser {
    /// Output larger than this is refused (a kiosk list, not a database dump): 4 MiB.
    public static let maxBytes = 4 << 20

    /// Which fields of an item hold what a row shows (`[rows]` in the configuration).
    public struct Fields: Sendable, Equatable {
        /// The item field shown as the title.
        public var title = "title"
        /// The item field shown as the subtitle.
        public var subtitle = "subtitle"
        /// The field holding the picture's path or URL.
        public var image = "image"
        /// The field shown at the row's trailing edge.
        public var detail = "detail"
        /// The field shown in the badge.
        public var badge = "badge"
        /// The field the detail page shows as its text.
        public var body = "body"
        /// The field holding the item's stable id (a string or a number): what keeps the
        /// reader's place across refreshes. An item without it is known by its title.
        public var id = "id"
        /// The field holding the language of the item's texts (a BCP 47 tag).
        public var language = "lang"
        /// Fields named `title` and `subtitle` (and `image`, `detail`, `badge`, `body`).
        public init(title: String = "title", subtitle: String = "subtitle") { (self.title, self.subtitle) = (title, subtitle) }
    }

    /// Characters of an image path or URL kept: 2,048 (longer is no picture; browsers'
    /// practical URL limit is about this).
    public static let maxImageReference = 2048
    /// Characters of a detail page's body kept: 20,000 (a few screens of text).
    public static let maxBodyScalars = 20_000

    /// Characters of a title or subtitle kept: 1,000. A row shows one or two lines of each;
    /// the rest would only cost time on the run loop (every comparison, every layout), so it is
    /// cut here, off the loop, where the answer is parsed.
    public static let maxTextScalars = 1000

    /// The items of a data source's answer. An answer with nothing in it (no bytes, or only
    /// white space: HTTP 204, an empty 200, a command that printed nothing) is malformed, not
    /// an empty list: it used to replace the list on screen with nothing. `[]` is an empty list.
    public static func parse<Bytes: Collection<UInt8>>(_ data: Bytes, source: String, fields: Fields = Fields()) throws -> [Item] {
        guard data.count <= maxBytes else { throw DataSourceError.tooLarge(source: source, limit: maxBytes) }
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) else {
            throw DataSourceError.malformed(source: source, reason: "the answer is empty (an empty list is [])")
        }
        let objects: [JSONValue]
        let bytes = Array(data)
        if case .array(let array)? = try? JSONValue.parse(bytes) {
            objects = array
        } else {
            var lines: [JSONValue] = []
            for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
                let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }
                if trimmed.isEmpty { continue }
                guard let object = try? JSONValue.parse(Array(trimmed)) else {
                    throw DataSourceError.malformed(source: source, reason: "line \(number + 1) is not JSON")
                }
                lines.append(object)
            }
            guard !lines.isEmpty else {
                throw DataSourceError.malformed(source: source, reason: "not a JSON array or JSON lines")
            }
            objects = lines
        }
        let names = fields
        return try objects.enumerated().map { index, value in
            guard case .object(let object) = value else {
                throw DataSourceError.malformed(source: source, reason: "item \(index + 1) is not an object")
            }
            guard let title = object[names.title]?.string else {
                throw DataSourceError.malformed(source: source, reason: "item \(index + 1) has no string \"\(names.title)\"")
            }
            // The title stands for a missing id: a list of names or departures is known by
            // them, and the place a refresh keeps follows it (its position would not).
            let id: String
            switch object[names.id] {
            case .string(let s)?: id = bounded(s)
            case .integer(let n)?: id = String(n)
            case .number(let d)?: id = "\(d)"
            default: id = bounded(title)
            }
            func text(_ field: String) -> String { bounded(object[field]?.string ?? "") }
            // A number is a detail or badge as well ("price": 12.5, "unread": 3).
            func shown(_ field: String) -> String {
                switch object[field] {
                case .integer(let n)?: return String(n)
                case .number(let d)?: return "\(d)"
                default: return text(field)
                }
            }
            let image = object[names.image]?.string ?? ""
            var item = Item(id: id, title: bounded(title), subtitle: text(names.subtitle),
                            image: image.utf8.count <= maxImageReference ? image : "",
                            detail: shown(names.detail), badge: shown(names.badge),
                            body: bounded(object[names.body]?.string ?? "", limit: maxBodyScalars))
            if let tag = object[names.language]?.string, Item.isLanguageTag(tag) { item.language = tag }
            item.object = value
            return item
        }
    }

    /// `text` cut to `limit` Unicode scalars (whole scalars; a cut inside a long run of
    /// combining marks drops the rest of them).
    public static func bounded(_ text: String, limit: Int = maxTextScalars) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[..<end])
        return String(kept)
    }

    /// The `page`-th slice of a whole document's items.
    static func page(_ items: [Item], page: Int, size: Int) -> [Item] {
        let start = page * size
        guard start < items.count else { return [] }
        return Array(items[start..<min(items.count, start + size)])
    }
}
