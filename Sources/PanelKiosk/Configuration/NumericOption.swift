import PanelHost
import Glibc

/// Numbers given on the command line. Each option has a range, the same as its configuration
/// key's where it has one; a number outside it (or not a number, or not finite) is a usage
/// error, exit code 2. Unbounded, `replay --refresh-seconds 1e300` ran for ever and
/// `expected-frame --refreshes -1` crashed.
public enum NumericOption {
    /// `replay --refresh-seconds`: as `data.refresh-seconds`.
    public static let refreshSeconds = KioskConfiguration.refreshSecondsRange
    /// `expected-frame --refreshes`: 0 to 100. The VM harness asks for 1 and 2; each refresh
    /// is a few seconds of virtual time, so 100 is still a fraction of a second of work.
    public static let refreshes = 0...100
    /// `hw-check --hold`, seconds the test pattern stays up: 0 to 3600.
    public static let holdSeconds = 0.0...3600
    /// `replay --display-rate`: frames a second, 1 to 240 (panels run at 30 to 144 Hz).
    public static let displayRate = 1.0...240
    /// `replay --offset`: points the list starts scrolled down, 0 to 1,000,000 (a list of
    /// 10,000 rows of 100 points); past its end it stands at its end.
    public static let offset = 0.0...1_000_000
    /// `replay --frame-window`: milliseconds a frame starts before its vblank, 0 to 1000 (a
    /// window of a period or more starts it right after the last flip).
    public static let frameWindow = 0.0...1000

    /// `text` as a number within `range` for `option`; a usage error naming both otherwise.
    public static func double(_ option: String, _ text: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = decimal(text), range.contains(value) else {
            throw UsageError("bad \(option) \"\(text)\": want a number from \(ConfigurationValue.format(range.lowerBound)) to \(ConfigurationValue.format(range.upperBound))")
        }
        return value
    }

    /// A decimal number as people write one (PanelHost's `ConfigurationValue.decimal(_:)`).
    public static func decimal(_ text: String) -> Double? { ConfigurationValue.decimal(text) }

    /// A range as the documentation writes it: "1 to 1000".
    public static func describe(_ range: ClosedRange<Double>) -> String { ConfigurationValue.describe(range) }

    /// `text` as a whole number within `range` for `option`; a usage error naming both otherwise.
    public static func integer(_ option: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("bad \(option) \"\(text)\": want a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Two hex ABS codes, as `--axes 02,03` and `input.position-axes`: each at most ABS_MAX.
    public static func axes(_ option: String, _ text: String) throws -> (x: UInt16, y: UInt16) {
        guard let axes = ConfigurationValue.axes(text) else {
            throw UsageError("bad \(option) \"\(text)\": want two hex ABS codes up to 3f, e.g. 02,03")
        }
        return axes
    }

}
