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
        /// Where the list is in an answer that wraps it in an object (`data.list`): member
        /// names from the outside in (`["data", "departures"]`). Empty: the answer is the list,
        /// or an object without a title whose one member that is an array is the list (most
        /// feeds wrap theirs: `{"station": …, "departures": [ … ]}`).
        public var list: [String] = []
        /// The field holding when an item stops being shown (a departure's time: `rows.expires`);
        /// empty: items stay until the source drops them.
        public var expires = ""
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

    /// Items a document may give: 10,000 (a list a person scrolls; the rows of a page are
    /// slices of it). Those after them are left out while parsing, not parsed, and the journal
    /// says how many. A valid 3.9 MB list of 280,000 items kept 264 MB resident.
    public static let maxItems = 10_000

    /// The items of a data source's answer. An answer with nothing in it (no bytes, or only
    /// white space: HTTP 204, an empty 200, a command that printed nothing) is malformed, not
    /// an empty list: it used to replace the list on screen with nothing. `[]` is an empty list.
    ///
    /// The memory a parse takes grows with the text by a stated factor, whatever its shape: a
    /// JSON array is parsed one item at a time (each item's tree is made, read and freed before
    /// the next; one item may take at most 16 times its text and 1 MiB), and an item keeps
    /// its object as compact JSON bytes, not as a tree. 3 MB of `[{}, {}, …]` peaked at 818 MB
    /// as one json-c tree (docs/reliability.md, "Memory of a parse").
    public static func parse<Bytes: Collection<UInt8>>(_ data: Bytes, source: String, fields: Fields = Fields()) throws -> [Item] {
        guard data.count <= maxBytes else { throw DataSourceError.tooLarge(source: source, limit: maxBytes) }
        guard !data.allSatisfy(isBlank) else {
            throw DataSourceError.malformed(source: source, reason: "the answer is empty (an empty list is [])")
        }
        let bytes = Array(data)
        var items: [Item] = []
        var leftOut = 0
        // Made once per document, not per item (the keys were checked when the configuration was read).
        let templates = Templates(fields)
        // Each value of the document in turn: an item while there is room, counted after.
        func take(_ value: () throws -> JSONValue, _ number: Int) throws {
            guard items.count < maxItems else {
                leftOut += 1
                return
            }
            items.append(try item(try value(), number: number, source: source, fields: fields, templates: templates))
        }
        let first = bytes.firstIndex { !isBlank($0) } ?? bytes.endIndex
        if bytes[first] == UInt8(ascii: "[") {
            guard fields.list.isEmpty else {
                throw DataSourceError.malformed(source: source, reason: "the answer is a list, not an object with \"\(fields.list.joined(separator: "."))\" (data.list)")
            }
            try eachElement(of: bytes[...], from: first, source: source, take)
        } else if bytes[first] == UInt8(ascii: "{"), let list = try wrappedList(bytes[...], from: first, source: source, fields: fields) {
            try eachElement(of: bytes[list], from: list.lowerBound, source: source, take)
        } else {
            var number = 0
            for (line, text) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
                let trimmed = text.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }
                if trimmed.isEmpty { continue }
                number += 1
                try take({
                    do throws(JSONValue.ParseError) { return try JSONValue.parse(trimmed) } catch {
                        throw DataSourceError.malformed(source: source, reason: "line \(line + 1) is not JSON (\(error.reason))")
                    }
                }, number)
            }
            guard number > 0 else { throw DataSourceError.malformed(source: source, reason: "not a JSON array or JSON lines") }
        }
        // A large document's transient trees are freed, but glibc keeps their pages for the
        // next malloc: 45 MB stayed resident after a 4 MB document of 220,000 strings.
        if bytes.count >= 1 << 20 { FreedMemory.giveBack() }
        if leftOut > 0 {
            Log.warning("\(source): the answer has \(items.count + leftOut) items; a list holds \(maxItems), "
                        + "the \(leftOut) after them are left out")
        }
        return items
    }

    /// The bytes of the list an object wraps (`Fields.list`, or its one array member when the
    /// object is the whole answer and has no title); nil when the answer is JSON lines (the
    /// object is an item). Only the path's members are read: the list is parsed an item at a
    /// time as a bare one is.
    private static func wrappedList(_ bytes: ArraySlice<UInt8>, from start: Int, source: String, fields: Fields) throws -> Range<Int>? {
        func malformed(_ reason: String) -> DataSourceError { .malformed(source: source, reason: reason) }
        /// The members of the object at `at` (a `{`): each name and its value's bytes; nil when
        /// it is not one well-formed object.
        func members(at: Int) -> (list: [(name: String, value: Range<Int>)], end: Int)? {
            var list: [(name: String, value: Range<Int>)] = []
            var at = Self.blanksSkipped(bytes, at + 1)
            if at < bytes.endIndex, bytes[at] == UInt8(ascii: "}") { return (list, at + 1) }
            while at < bytes.endIndex {
                var shape = JSONShape()
                guard bytes[at] == UInt8(ascii: "\""), let nameEnd = shape.valueEnd(in: bytes, from: at),
                      case .string(let name)? = try? JSONValue.parse(bytes[at..<nameEnd]) else { return nil }
                at = Self.blanksSkipped(bytes, nameEnd)
                guard at < bytes.endIndex, bytes[at] == UInt8(ascii: ":") else { return nil }
                at = Self.blanksSkipped(bytes, at + 1)
                guard at < bytes.endIndex, let valueEnd = shape.valueEnd(in: bytes, from: at) else { return nil }
                list.append((name, at..<valueEnd))
                at = Self.blanksSkipped(bytes, valueEnd)
                guard at < bytes.endIndex else { return nil }
                if bytes[at] == UInt8(ascii: "}") { return (list, at + 1) }
                guard bytes[at] == UInt8(ascii: ",") else { return nil }
                at = Self.blanksSkipped(bytes, at + 1)
            }
            return nil
        }
        func isArray(_ range: Range<Int>) -> Bool { bytes[range.lowerBound] == UInt8(ascii: "[") }
        if fields.list.isEmpty {
            // JSON lines start with an object too: only a whole answer that is one object
            // without a title is a wrapper.
            guard let object = members(at: start), bytes[object.end...].allSatisfy(isBlank),
                  !object.list.contains(where: { $0.name == fields.title }) else { return nil }
            let arrays = object.list.filter { isArray($0.value) }
            guard arrays.count == 1 else {
                let names = arrays.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw malformed("the answer is an object, not a list of items: "
                                + (arrays.isEmpty ? "none of its members is a list" : "set data.list to the member that holds the list (\(names))"))
            }
            return arrays[0].value
        }
        var at = start
        for (depth, name) in fields.list.enumerated() {
            let path = fields.list[...depth].joined(separator: ".")
            guard bytes[at] == UInt8(ascii: "{") else { throw malformed("\"\(path)\" (data.list) is inside something that is not an object") }
            guard let object = members(at: at) else { throw malformed("not a JSON object where data.list looks for \"\(path)\"") }
            if depth == 0, !bytes[object.end...].allSatisfy(isBlank) { throw malformed("more after the object") }
            guard let member = object.list.last(where: { $0.name == name }) else {
                throw malformed("the answer has no \"\(path)\" (data.list); its members: \(object.list.map(\.name).joined(separator: ", "))")
            }
            at = member.value.lowerBound
            if depth == fields.list.count - 1 {
                guard isArray(member.value) else { throw malformed("\"\(path)\" (data.list) is not a list") }
                return member.value
            }
        }
        return nil
    }

    /// Calls `take` with each element of the JSON array at `start` (a parse of it, and its
    /// number from 1), in order; the array's frame is checked as json-c would (commas, the
    /// closing bracket, nothing but blanks after it).
    private static func eachElement(of bytes: ArraySlice<UInt8>, from start: Int, source: String,
                                    _ take: (() throws -> JSONValue, Int) throws -> Void) throws {
        func notArray(_ why: String, at offset: Int) -> DataSourceError {
            .malformed(source: source, reason: "not a JSON array: \(why) at byte \(offset)")
        }
        var at = Self.blanksSkipped(bytes, start + 1)
        var number = 0
        if at < bytes.endIndex, bytes[at] == UInt8(ascii: "]") {
            at += 1
        } else {
            while true {
                var shape = JSONShape()
                guard at < bytes.endIndex, bytes[at] != UInt8(ascii: "]") else {
                    throw notArray(at < bytes.endIndex ? "a value expected" : "the text ends inside it", at: at)
                }
                guard let end = shape.valueEnd(in: bytes, from: at) else { throw notArray("the text ends inside it", at: at) }
                number += 1
                let value = bytes[at..<end], index = number
                try take({
                    do throws(JSONValue.ParseError) { return try JSONValue.parse(value) } catch {
                        throw DataSourceError.malformed(source: source, reason: "item \(index) is not JSON (\(error.reason))")
                    }
                }, number)
                at = Self.blanksSkipped(bytes, end)
                guard at < bytes.endIndex else { throw notArray("the text ends inside it", at: at) }
                if bytes[at] == UInt8(ascii: ",") {
                    at = Self.blanksSkipped(bytes, at + 1)
                    continue
                }
                guard bytes[at] == UInt8(ascii: "]") else { throw notArray("a comma or ] expected", at: at) }
                at += 1
                break
            }
        }
        guard bytes[at...].allSatisfy(isBlank) else { throw notArray("more after the array", at: Self.blanksSkipped(bytes, at)) }
    }

    /// The item of `value`, the `number`-th of the document.
    private static func item(_ value: JSONValue, number: Int, source: String, fields names: Fields, templates: Templates) throws -> Item {
        guard case .object(let object) = value else {
            throw DataSourceError.malformed(source: source, reason: "item \(number) is not an object")
        }
        guard let title = object[names.title]?.string else {
            throw DataSourceError.malformed(source: source, reason: "item \(number) has no string \"\(names.title)\"")
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
        func shown(_ field: String) -> String { bounded(Self.shown(object[field])) }
        let image = object[names.image]?.string ?? ""
        var item = Item(id: id, title: bounded(title), subtitle: text(names.subtitle),
                        image: image.utf8.count <= maxImageReference ? image : "",
                        detail: shown(names.detail), badge: shown(names.badge),
                        body: bounded(object[names.body]?.string ?? "", limit: maxBodyScalars))
        if let tag = object[names.language]?.string, Item.isLanguageTag(tag) { item.language = tag }
        // Composed lines and times: made now, the times shown when drawn.
        for (slot, template) in templates.slots {
            let text = template.filled(from: object)
            let plain = bounded(text.stableText)
            switch slot {
            case .subtitle: item.subtitle = plain
            case .detail: item.detail = plain
            case .badge: item.badge = plain
            }
            if text.hasTimes { item.timed[slot] = text }
        }
        if !names.expires.isEmpty { item.expires = object[names.expires].flatMap(TimeValue.init) }
        // Its bytes, not its tree: a tree of small values takes many times their text.
        item.sourceJSON = value.encoded
        return item
    }

    /// A value as a row shows it: a string, or a number as well ("price": 12.5, "unread": 3), a
    /// whole one without its ".0" (a feed's `"platform": 2.0` reads "2"); anything else shows
    /// nothing. A plain field and a template's field show it alike.
    static func shown(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case .integer(let n)?: return String(n)
        case .number(let d)?: return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        default: return ""
        }
    }

    /// The row keys that are templates (`{line} · platform {platform}`), made once per document.
    struct Templates {
        var slots: [(Item.Slot, FieldTemplate)] = []
        init(_ fields: Fields) {
            for (slot, spec) in [(Item.Slot.subtitle, fields.subtitle), (.detail, fields.detail), (.badge, fields.badge)]
            where FieldTemplate.isTemplate(spec) {
                if let template = try? FieldTemplate(spec) { slots.append((slot, template)) }
            }
        }
    }

    /// The first index of `bytes` from `start` on that is not a blank (its end when none is).
    private static func blanksSkipped(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int {
        bytes[start...].firstIndex { !isBlank($0) } ?? bytes.endIndex
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 }

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
