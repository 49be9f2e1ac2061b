import FoundationEssentials
import PanelHost

/// What a row's text shows when its key (`rows.subtitle`, `rows.detail`, …) is a template
/// rather than one field's name: text and fields in braces, each field with an optional
/// format after a bar. `{line} · platform {platform}` composes a line; `{departure|time}`
/// shows a date-time at the panel's local time ("18:10"); `{departure|relative}` as the time
/// from now ("in 5 min", ticking each minute); `{delay|signed}` a number with its sign ("+2").
public struct FieldTemplate: Sendable, Equatable {
    /// How a field's value is shown.
    public enum Format: String, Sendable, CaseIterable {
        /// As it is (a number in its shortest form).
        case text
        /// A date-time (RFC 3339, or Unix seconds) at the panel's local time: "18:10" today,
        /// "12-05 18:10" another day.
        case time
        /// A date-time as the time from now: "now", "in 5 min", "12 min ago", "in 2 h"; a day
        /// or more away, as `time`. Drawn again each minute.
        case relative
        /// A number with its sign: "+2", "0", "-1".
        case signed
    }

    /// A piece of the template.
    public enum Part: Sendable, Equatable {
        /// Text as written.
        case literal(String)
        /// A field's value in a format.
        case field(String, Format)
    }

    /// The pieces, in order.
    public let parts: [Part]

    /// Whether `spec` is a template (it has a brace) rather than one field's name.
    public static func isTemplate(_ spec: String) -> Bool { spec.utf8.contains(UInt8(ascii: "{")) }

    /// The template `spec`: text with `{field}` or `{field|format}`; `{{` and `}}` are braces.
    public init(_ spec: String) throws(ConfigurationValueError) {
        var parts: [Part] = []
        var literal = ""
        var index = spec.startIndex
        while index < spec.endIndex {
            let c = spec[index]
            let next = spec.index(after: index)
            if (c == "{" || c == "}"), next < spec.endIndex, spec[next] == c {
                literal.append(c)
                index = spec.index(after: next)
                continue
            }
            guard c == "{" else {
                if c == "}" { throw ConfigurationValueError("\"\(spec)\": a } without its {; write }} for a brace") }
                literal.append(c)
                index = next
                continue
            }
            guard let close = spec[next...].firstIndex(of: "}") else {
                throw ConfigurationValueError("\"\(spec)\": a { without its }; write {{ for a brace")
            }
            let inside = spec[next..<close].split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let name = TextFormat.trimmed(String(inside[0]), newlines: false)
            guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "{")) else { throw ConfigurationValueError("\"\(spec)\": a field's name is missing in braces") }
            var format = Format.text
            if inside.count == 2 {
                let word = TextFormat.trimmed(String(inside[1]), newlines: false)
                guard let f = Format(rawValue: word) else {
                    throw ConfigurationValueError("\"\(spec)\": \"\(word)\" is not a format (\(Format.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                format = f
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.field(name, format))
            index = spec.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The fields it reads.
    public var fieldNames: [String] { parts.compactMap { if case .field(let name, _) = $0 { name } else { nil } } }

    /// The text of an item's object: literal parts and fields as they are; `time` and
    /// `relative` fields kept as times, shown when drawn (``TimedText``). A field the item
    /// lacks (or a time that cannot be read) shows nothing.
    func filled(from object: [String: JSONValue]) -> TimedText {
        var pieces: [TimedText.Piece] = []
        for part in parts {
            switch part {
            case .literal(let text): pieces.append(.text(text))
            case .field(let name, let format):
                let value = object[name]
                switch format {
                case .text: pieces.append(.text(ItemParser.shown(value)))
                case .signed:
                    let number: Double? = switch value { case .integer(let n)?: Double(n); case .number(let d)?: d
                                                         case .string(let s)?: Double(s); default: nil }
                    if let number {
                        let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
                        pieces.append(.text(number > 0 ? "+" + text : text))
                    } else {
                        pieces.append(.text(ItemParser.shown(value)))
                    }
                case .time, .relative:
                    if let time = value.flatMap(TimeValue.init) { pieces.append(.time(time, relative: format == .relative)) }
                }
            }
        }
        return TimedText(pieces: pieces)
    }

}

/// A moment an item names: Unix seconds, or a wall-clock time without a zone (taken in the
/// panel's).
public struct TimeValue: Sendable, Hashable {
    /// Seconds since 1970 (UTC); for a time without a zone, its wall-clock reading as if UTC.
    public var seconds: Double
    /// Whether it had no zone: the panel's zone applies when it is shown.
    public var isLocal: Bool

    /// The moment `seconds` after 1970 (UTC), or a wall-clock reading without a zone (`isLocal`).
    public init(seconds: Double, isLocal: Bool) { (self.seconds, self.isLocal) = (seconds, isLocal) }

    /// A number is Unix seconds (milliseconds when it is past the year 5138: above 1e11); a
    /// string is RFC 3339 or ISO 8601 (`2026-12-04T18:10:00+01:00`, `…Z`, `2026-12-04 18:10`,
    /// seconds and their fraction optional; without a zone, the panel's local time).
    init?(_ value: JSONValue) {
        switch value {
        case .integer(let n): self.init(unix: Double(n))
        case .number(let d): self.init(unix: d)
        case .string(let s): self.init(text: s)
        default: return nil
        }
    }

    private init?(unix: Double) {
        guard unix.isFinite else { return nil }
        (seconds, isLocal) = (abs(unix) > 1e11 ? unix / 1000 : unix, false)
    }

    private init?(text: String) {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var v = 0
            for i in at..<(at + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let year = digits(0, 4), b.count >= 16, b[4] == 0x2d, let month = digits(5, 2), b[7] == 0x2d, let day = digits(8, 2),
              b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let hour = digits(11, 2), b[13] == 0x3a, let minute = digits(14, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
        var at = 16
        var second = 0.0
        if at < b.count, b[at] == 0x3a {
            guard let s = digits(at + 1, 2), s < 61 else { return nil }
            second = Double(s)
            at += 3
            if at < b.count, b[at] == 0x2e || b[at] == 0x2c {
                at += 1
                var scale = 0.1
                while at < b.count, (0x30...0x39).contains(b[at]) {
                    second += Double(b[at] - 0x30) * scale
                    scale /= 10
                    at += 1
                }
            }
        }
        var offset = 0
        var local = true
        if at < b.count {
            if b[at] == 0x5a || b[at] == 0x7a {
                local = false
                at += 1
            } else if b[at] == 0x2b || b[at] == 0x2d {
                let sign = b[at] == 0x2d ? -1 : 1
                guard let h = digits(at + 1, 2) else { return nil }
                var m = 0
                if at + 3 < b.count, b[at + 3] == 0x3a {
                    guard let mm = digits(at + 4, 2) else { return nil }
                    (m, at) = (mm, at + 6)
                } else if let mm = digits(at + 3, 2) {
                    (m, at) = (mm, at + 5)
                } else {
                    at += 3
                }
                (offset, local) = (sign * (h * 3_600 + m * 60), false)
            }
        }
        guard at == b.count else { return nil }
        // Days from the civil date (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 - offset) + second
        isLocal = local
    }

    /// The moment, given the panel's zone for a time that had none.
    func date(utcOffset: (Date) -> Int) -> Date {
        guard isLocal else { return Date(timeIntervalSince1970: seconds) }
        // The offset at about that moment, then at the moment it gives (a change of daylight saving between the two).
        let guess = Date(timeIntervalSince1970: seconds - Double(utcOffset(Date(timeIntervalSince1970: seconds))))
        return Date(timeIntervalSince1970: seconds - Double(utcOffset(guess)))
    }
}

/// A row's text with times in it, made when the item is read and shown when it is drawn: the
/// times at the panel's local time or from now.
public struct TimedText: Sendable, Hashable {
    /// A piece of it.
    public enum Piece: Sendable, Hashable {
        /// Text as it is.
        case text(String)
        /// A moment: shown at the local time, or from now (`relative`).
        case time(TimeValue, relative: Bool)
    }
    /// The pieces, in order.
    public var pieces: [Piece]

    /// Whether any piece is a time (else it is plain text, made once).
    public var hasTimes: Bool { pieces.contains { if case .time = $0 { true } else { false } } }

    /// The pieces' text with times as Unix seconds: what the item compares and is checked by.
    public var stableText: String {
        pieces.map { piece -> String in
            switch piece {
            case .text(let t): return t
            case .time(let v, _): return "@" + String(Int64(v.seconds.rounded(.down))) + (v.isLocal ? "L" : "")
            }
        }.joined()
    }

    /// The text as it reads at `now`.
    func text(now: Date, clock: ItemClock) -> String {
        pieces.map { piece -> String in
            switch piece {
            case .text(let t): return t
            case .time(let v, let relative):
                let date = v.date(utcOffset: clock.utcOffset)
                return relative ? clock.relative(date, now: now) : clock.formatter.shortText(for: date, now: now)
            }
        }.joined()
    }
}
