import PanelRefresh
import Glibc

/// Numbers given on the command line. Each option has a range, the same as its configuration
/// key's where it has one; a number outside it (or not a number, or not finite) is a usage
/// error, exit code 2. Unbounded, `replay --refresh-seconds 1e300` ran for ever and
/// `expected-frame --refreshes -1` crashed.
public enum NumericOption {
    /// `replay --refresh-seconds`: as `data.refresh-seconds`.
    public static let refreshSeconds = Configuration.refreshSecondsRange
    /// `expected-frame --refreshes`: 0 to 100. The VM harness asks for 1 and 2; each refresh
    /// is a few seconds of virtual time, so 100 is still a fraction of a second of work.
    public static let refreshes = 0...100
    /// `hw-check --hold`, seconds the test pattern stays up: 0 to 3600.
    public static let holdSeconds = 0.0...3600
    /// `replay --display-rate`: frames a second, 1 to 240 (panels run at 30 to 144 Hz).
    public static let displayRate = 1.0...240

    /// `text` as a number within `range` for `option`; a usage error naming both otherwise.
    public static func double(_ option: String, _ text: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = decimal(text), range.contains(value) else {
            throw UsageError("bad \(option) \"\(text)\": want a number from \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return value
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

    /// `text` as a whole number within `range` for `option`; a usage error naming both otherwise.
    public static func integer(_ option: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("bad \(option) \"\(text)\": want a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Two hex ABS codes, as `--axes 02,03` and `input.position-axes`: each at most ABS_MAX.
    public static func axes(_ option: String, _ text: String) throws -> (x: UInt16, y: UInt16) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .compactMap { UInt16(TextFormat.trimmed($0), radix: 16) }
        guard parts.count == 2, parts.allSatisfy({ $0 <= Configuration.maxAbsCode }) else {
            throw UsageError("bad \(option) \"\(text)\": want two hex ABS codes up to 3f, e.g. 02,03")
        }
        return (parts[0], parts[1])
    }

    static func format(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
