import FoundationEssentials
import Glibc
import PanelHost

/// A page of items, as data sources deliver them.
public struct Item: Sendable, Hashable {
    /// A stable id.
    public var id: String
    /// The row's title.
    public var title: String
    /// The row's second line.
    public var subtitle: String
    /// The row's picture: an absolute file path or an http(s) URL; empty: none.
    public var image = ""
    /// The trailing text (a time, a price, a status); empty: none.
    public var detail = ""
    /// The badge's text (a count, "new"); empty: none.
    public var badge = ""
    /// The detail page's text under the title; empty: the subtitle.
    public var body = ""
    /// The language of the item's texts, a BCP 47 tag ("ja", "sr-Cyrl"); empty: the panel's.
    public var language = ""
    /// A text slot a template may fill.
    public enum Slot: Sendable, Hashable {
        /// The line under the title.
        case subtitle
        /// The trailing text.
        case detail
        /// The badge.
        case badge
    }
    /// The slots whose text holds times, shown as of when they are drawn (`{departure|relative}`);
    /// their plain field holds the times as Unix seconds (what is compared).
    public var timed: [Slot: TimedText] = [:]
    /// When the item stops being shown (`rows.expires`); nil: never.
    public var expires: TimeValue?
    /// The item's object as the source sent it, as compact JSON with its keys sorted (nil for
    /// items made here).
    var sourceJSON: [UInt8]?

    /// The item as one line of compact JSON, keys sorted: the source's object as it sent it, or
    /// the fields of an item made here (a tap command reads it on stdin).
    public var json: [UInt8] {
        if let sourceJSON { return sourceJSON }
        var fields: [String: JSONValue] = ["id": .string(id), "title": .string(title), "subtitle": .string(subtitle)]
        for (key, value) in [("image", image), ("detail", detail), ("badge", badge), ("body", body), ("lang", language)] where !value.isEmpty {
            fields[key] = .string(value)
        }
        return JSONValue.object(fields).encoded
    }

    /// Items are equal when what they show is: the source's object they came from is not compared.
    public static func == (a: Item, b: Item) -> Bool {
        a.shown == b.shown
    }

    /// Hashes what the item shows.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(shown)
    }

    private var shown: [String] { [id, title, subtitle, image, detail, badge, body, language, expires.map { "\($0.seconds)" } ?? ""] }

    /// The text of `slot` as it reads at `now` on `clock`: its times formatted, or the field as it is.
    public func text(_ slot: Slot, now: Date, clock: ItemClock) -> String {
        if let timed = timed[slot] { return timed.text(now: now, clock: clock) }
        switch slot {
        case .subtitle: return subtitle
        case .detail: return detail
        case .badge: return badge
        }
    }

    /// Whether `tag` can be a BCP 47 language tag: 2 to 35 ASCII letters, digits and hyphens,
    /// starting with a letter (a longer or odd value is ignored, not passed on to HarfBuzz).
    public static func isLanguageTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard (2...35).contains(bytes.count), let first = bytes.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7a else { return false }
        return bytes.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7a || (0x30...0x39).contains($0) || $0 == 0x2d }
    }

    /// The font language of the item's texts: its own, else nil (the panel's).
    public var fontLanguage: String? { language.isEmpty ? nil : language }

    /// An item.
    public init(id: String, title: String, subtitle: String, image: String = "", detail: String = "", badge: String = "",
                body: String = "") {
        (self.id, self.title, self.subtitle) = (id, title, subtitle)
        (self.image, self.detail, self.badge, self.body) = (image, detail, badge, body)
    }
}
