import PanelGestures
import PanelRender

/// One key of a configuration file: the section it lives in, its name, what it means (the
/// manual's and the documentation's text) and how its text is read into `Settings`. A table of
/// these is the one declaration that drives parsing, `check`, the man page and the docs' table
/// (a test holds docs/configuration.md to the same keys).
public struct ConfigurationKey<Settings>: Sendable {
    /// The section: `display` in `[display]`.
    public let section: String
    /// The key's name in its section: `blank-after`.
    public let name: String
    /// What it means, with its range and default, as the manual says it.
    public let doc: String
    /// Reads a value's text into the settings; throws what is wrong with it (a
    /// ``ConfigurationValueError``; the key's table is closures, whose typed throws Swift 6.2
    /// does not infer).
    let apply: @Sendable (inout Settings, String) throws -> Void

    /// A key `section.name` documented as `doc`, read by `apply`.
    public init(section: String, name: String, doc: String, apply: @escaping @Sendable (inout Settings, String) throws -> Void) {
        (self.section, self.name, self.doc, self.apply) = (section, name, doc, apply)
    }

    /// `section.name`, as errors, `--set` and `changedKeys` name it.
    public var qualified: String { section + "." + name }
}

extension ConfigurationKey where Settings: KeyedConfiguration {
    /// The same key on settings that hold these at `path` (the kiosk's configuration holds the
    /// host's): what it sets is recorded in both, so each can tell what a reload changed.
    public func lifted<Outer>(into path: WritableKeyPath<Outer, Settings> & Sendable) -> ConfigurationKey<Outer> {
        let apply = self.apply, qualified = self.qualified
        return ConfigurationKey<Outer>(section: section, name: name, doc: doc) { outer, text in
            try apply(&outer[keyPath: path], text)
            outer[keyPath: path].setKeys[qualified] = text
        }
    }
}

/// What is wrong with one value (the file's line and key are added by the reader).
public struct ConfigurationValueError: Error, Sendable {
    /// What is wrong with the value.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}

/// The readers of the values the keys take, shared by every key table (out of line: their
/// error messages are in the program once, not once per key).
public enum ConfigurationValue {
    /// A decimal number within `range`.
    @inline(never) public static func number(_ v: String, _ range: ClosedRange<Double>) throws(ConfigurationValueError) -> Double {
        // Decimal only (not 0x10, nan or subnormals: `decimal`).
        guard let n = decimal(v), range.contains(n) else {
            throw ConfigurationValueError("\"\(v)\" is not a number from \(describe(range))")
        }
        return n
    }

    /// 0 (the key's "off" or default) or a number in `range`, as the keys' docs say: a pull
    /// distance of 1e-300 points is not one anybody means.
    @inline(never) public static func zeroOr(_ v: String, _ range: ClosedRange<Double>) throws(ConfigurationValueError) -> Double {
        guard let n = decimal(v), n == 0 || range.contains(n) else {
            throw ConfigurationValueError("\"\(v)\" is not 0 or a number from \(describe(range))")
        }
        return n
    }

    /// A distance where 0 means "the component's own" (nil).
    @inline(never) public static func distance(_ v: String, _ range: ClosedRange<Double>) throws(ConfigurationValueError) -> Double? {
        let n = try zeroOr(v, range)
        return n == 0 ? nil : n
    }

    /// A whole number within `range`.
    @inline(never) public static func integer(_ v: String, _ range: ClosedRange<Int>) throws(ConfigurationValueError) -> Int {
        guard let n = Int(v), range.contains(n) else {
            throw ConfigurationValueError("\"\(v)\" is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// true, yes, on, 1 or false, no, off, 0 (any case).
    @inline(never) public static func boolean(_ v: String) throws(ConfigurationValueError) -> Bool {
        switch v.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigurationValueError("\"\(v)\" is not true or false")
        }
    }

    /// One of `T`'s cases by its raw value.
    @inline(never) public static func choice<T: RawRepresentable & CaseIterable>(_ v: String, _: T.Type) throws(ConfigurationValueError) -> T
        where T.RawValue == String {
        guard let c = T(rawValue: v) else {
            throw ConfigurationValueError("\"\(v)\" is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return c
    }

    /// A colour, `#rrggbb` or `#rrggbbaa`.
    @inline(never) public static func color(_ v: String) throws(ConfigurationValueError) -> Color {
        let hex = v.hasPrefix("#") ? String(v.dropFirst()) : v
        guard hex.count == 6 || hex.count == 8, let n = UInt32(hex, radix: 16) else {
            throw ConfigurationValueError("\"\(v)\" is not a colour (#rrggbb or #rrggbbaa)")
        }
        let rgba = hex.count == 6 ? n << 8 | 0xff : n
        return Color(red: UInt8(rgba >> 24), green: UInt8(rgba >> 16 & 0xff), blue: UInt8(rgba >> 8 & 0xff), alpha: UInt8(rgba & 0xff))
    }

    /// `WIDTHxHEIGHT`, each 1 to 8192 pixels.
    @inline(never) public static func size(_ v: String) throws(ConfigurationValueError) -> (Int, Int) {
        guard let size = screenSize(v) else { throw ConfigurationValueError("\"\(v)\" is not WIDTHxHEIGHT") }
        return size
    }

    /// "HH:MM-HH:MM" as ``DayHours``; empty: none.
    @inline(never) public static func dayHours(_ v: String) throws(ConfigurationValueError) -> DayHours? {
        if v.isEmpty { return nil }
        guard let hours = DayHours(v) else { throw ConfigurationValueError("\"\(v)\" is not HH:MM-HH:MM (two different times of the day, 24-hour)") }
        return hours
    }

    /// An absolute path.
    @inline(never) public static func path(_ v: String) throws(ConfigurationValueError) -> String {
        guard v.hasPrefix("/") else { throw ConfigurationValueError("\"\(v)\" is not an absolute path") }
        return v
    }

    /// "WxH" with both sides 1 to 8192, nil otherwise (`display.mode`, `--screen`).
    public static func screenSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 8192, h <= 8192 else { return nil }
        return (w, h)
    }

    /// ABS_MAX (linux/input-event-codes.h): the last axis code.
    public static let maxAbsCode: UInt16 = 0x3f

    /// Two hex ABS codes, "02,03", each at most ABS_MAX; nil otherwise (`input.position-axes`, `--axes`).
    public static func axes(_ text: String) -> (x: UInt16, y: UInt16)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { UInt16(TextFormat.trimmed($0), radix: 16) }
        guard parts.count == 2, parts.allSatisfy({ $0 <= maxAbsCode }) else { return nil }
        return (parts[0], parts[1])
    }

    /// A decimal number as people write one: digits with an optional sign, fraction and
    /// exponent (`-1.5`, `2e3`). Swift's `Double(_:)` also reads hexadecimal (`0x10` is 16),
    /// `nan`, `inf` and subnormals (`1e-320`), none of which an operator means; they are nil
    /// here, as are non-finite results and any number whose magnitude is below the smallest
    /// normal double (2.2e-308) but zero.
    public static func decimal(_ text: String) -> Double? {
        var digitsSeen = false, exponentDigits = false
        var state = 0  // 0 sign, 1 integer part, 2 fraction, 3 exponent sign, 4 exponent digits
        for c in text.utf8 {
            switch (state, c) {
            case (0, UInt8(ascii: "+")), (0, UInt8(ascii: "-")): state = 1
            case (0...1, UInt8(ascii: "0")...UInt8(ascii: "9")): state = 1; digitsSeen = true
            case (0...1, UInt8(ascii: ".")): state = 2
            case (2, UInt8(ascii: "0")...UInt8(ascii: "9")): digitsSeen = true
            case (1...2, UInt8(ascii: "e")), (1...2, UInt8(ascii: "E")):
                guard digitsSeen else { return nil }
                state = 3
            case (3, UInt8(ascii: "+")), (3, UInt8(ascii: "-")): state = 4
            case (3...4, UInt8(ascii: "0")...UInt8(ascii: "9")): state = 4; exponentDigits = true
            default: return nil
            }
        }
        guard digitsSeen, state < 3 || exponentDigits, let value = Double(text), value.isFinite,
              value == 0 || value.isNormal else { return nil }
        return value
    }

    /// A range as the documentation writes it: "1 to 1000".
    public static func describe(_ range: ClosedRange<Double>) -> String { "\(format(range.lowerBound)) to \(format(range.upperBound))" }

    /// A number as the documentation writes it: whole numbers without a point.
    public static func format(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
