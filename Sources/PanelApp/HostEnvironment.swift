import Foundation

/// What the program takes from the machine it runs on: the language ($LANG) and the time zone
/// ($TZ, else /etc/localtime). Read once, by the program's `main` (`read()`), and handed down;
/// nothing below reads the environment, so tests, replays and expected frames are the same
/// on every machine (`neutral`).
public struct HostEnvironment: Sendable {
    /// A locale code as in $LANG ("de_DE.UTF-8"); `appearance.locale` wins over it.
    public var language: String
    public var timeZone: TimeZone

    public init(language: String, timeZone: TimeZone) {
        self.language = language
        self.timeZone = timeZone
    }

    /// English and UTC: what every command but `run` and the live demo uses.
    public static let neutral = HostEnvironment(language: "en", timeZone: TimeZone(identifier: "UTC") ?? .current)

    /// The running process's $LANG and time zone.
    public static func read() -> HostEnvironment {
        HostEnvironment(language: ProcessInfo.processInfo.environment["LANG"] ?? "en", timeZone: .current)
    }

    /// Gregorian dates in this time zone (the header's "Updated: today 14:05").
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
