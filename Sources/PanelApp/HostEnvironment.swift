import FoundationEssentials
import PanelRefresh
import Glibc

/// What the program takes from the machine it runs on: the language ($LANG) and the local
/// time's offset from UTC ($TZ, else /etc/localtime, through the C library's `localtime_r`).
/// Read once, by the program's `main` (`read()`), and handed down; nothing below reads the
/// environment, so tests, replays and expected frames are the same on every machine
/// (`neutral`).
public struct HostEnvironment: Sendable {
    /// A locale code as in $LANG ("de_DE.UTF-8"); `appearance.locale` wins over it.
    public var language: String
    /// Seconds east of UTC at a moment (daylight saving included).
    public var utcOffset: @Sendable (Date) -> Int

    public init(language: String, utcOffset: @escaping @Sendable (Date) -> Int) {
        self.language = language
        self.utcOffset = utcOffset
    }

    /// English and UTC: what every command but `run` and the live demo uses.
    public static let neutral = HostEnvironment(language: "en", utcOffset: { _ in 0 })

    /// The running process's $LANG and the C library's local time.
    public static func read() -> HostEnvironment {
        tzset()
        let language = getenv("LANG").map { String(cString: $0) } ?? "en"
        return HostEnvironment(language: language.isEmpty ? "en" : language, utcOffset: { date in
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        })
    }

    /// The header's "Updated: today 14:05" in local time.
    public var lastUpdatedFormatter: LastUpdatedFormatter { LastUpdatedFormatter(utcOffset: utcOffset) }
}
