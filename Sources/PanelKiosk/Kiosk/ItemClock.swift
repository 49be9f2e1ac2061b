import FoundationEssentials
import PanelHost

/// The panel's clock as rows and the board's header show times: its zone (the machine's
/// `utcOffset`) and the language of "in 5 min".
public struct ItemClock: Sendable {
    /// Seconds east of UTC at a moment.
    public var utcOffset: @Sendable (Date) -> Int
    /// The language the words are in.
    public var language: RefreshLanguage

    /// A clock in the zone `utcOffset` gives, speaking `language`.
    public init(utcOffset: @escaping @Sendable (Date) -> Int, language: RefreshLanguage) {
        (self.utcOffset, self.language) = (utcOffset, language)
    }

    /// UTC and English.
    public static let neutral = ItemClock(utcOffset: { _ in 0 }, language: .english)

    /// "18:10" today, "12-05 18:10" another day (the header's "Updated" forms).
    var formatter: LastUpdatedFormatter { LastUpdatedFormatter(utcOffset: utcOffset) }

    /// "18:10": the local time, to the minute.
    public func clockText(_ date: Date) -> String { formatter.shortText(for: date, now: date) }

    /// `date` from `now`: "in 5 min" and "12 min ago" to an hour, "in 2 h" and "3 h ago" to a
    /// day, then the date and time. A time ahead counts its minutes up, as departure boards do
    /// ("in 5 min" from 4 min 1 s to 5 min; "in 1 min" until it is due, then "now"); a time past
    /// counts them down ("now" for its first minute). Either way the text changes at the whole
    /// minutes of a time given in whole minutes, where the rows are drawn again.
    public func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let words = Self.words[language] ?? Self.words[.english] ?? RelativeWords(now: "now", inMinutes: "in # min", minutesAgo: "# min ago", inHours: "in # h", hoursAgo: "# h ago")
        // A millisecond's slack: a tick computed for the whole minute lands on it, not just before.
        let minutes = seconds > 0 ? Int(((seconds - 0.001) / 60).rounded(.up)) : Int(((-seconds + 0.001) / 60).rounded(.down))
        if minutes < 1 { return words.now }
        if minutes < 60 { return (seconds > 0 ? words.inMinutes : words.minutesAgo).replacing(text: "#", with: String(minutes)) }
        let hours = minutes / 60
        if hours < 24 { return (seconds > 0 ? words.inHours : words.hoursAgo).replacing(text: "#", with: String(hours)) }
        return formatter.shortText(for: date, now: now)
    }

    /// The words of a relative time in one language; `#` is the number.
    struct RelativeWords: Sendable {
        var now: String, inMinutes: String, minutesAgo: String, inHours: String, hoursAgo: String
    }

    /// CLDR's short relative forms for the shipped languages (its "in # min." family).
    static let words: [RefreshLanguage: RelativeWords] = [
        .english: RelativeWords(now: "now", inMinutes: "in # min", minutesAgo: "# min ago", inHours: "in # h", hoursAgo: "# h ago"),
        .german: RelativeWords(now: "jetzt", inMinutes: "in # Min.", minutesAgo: "vor # Min.", inHours: "in # Std.", hoursAgo: "vor # Std."),
        .french: RelativeWords(now: "maintenant", inMinutes: "dans # min", minutesAgo: "il y a # min", inHours: "dans # h", hoursAgo: "il y a # h"),
        .spanish: RelativeWords(now: "ahora", inMinutes: "en # min", minutesAgo: "hace # min", inHours: "en # h", hoursAgo: "hace # h"),
        .italian: RelativeWords(now: "ora", inMinutes: "tra # min", minutesAgo: "# min fa", inHours: "tra # h", hoursAgo: "# h fa"),
        .portuguese: RelativeWords(now: "agora", inMinutes: "em # min", minutesAgo: "há # min", inHours: "em # h", hoursAgo: "há # h"),
        .russian: RelativeWords(now: "сейчас", inMinutes: "через # мин", minutesAgo: "# мин назад", inHours: "через # ч", hoursAgo: "# ч назад"),
        .ukrainian: RelativeWords(now: "зараз", inMinutes: "через # хв", minutesAgo: "# хв тому", inHours: "через # год", hoursAgo: "# год тому"),
        .simplifiedChinese: RelativeWords(now: "现在", inMinutes: "#分钟后", minutesAgo: "#分钟前", inHours: "#小时后", hoursAgo: "#小时前"),
        .traditionalChinese: RelativeWords(now: "現在", inMinutes: "#分鐘後", minutesAgo: "#分鐘前", inHours: "#小時後", hoursAgo: "#小時前"),
        .korean: RelativeWords(now: "지금", inMinutes: "#분 후", minutesAgo: "#분 전", inHours: "#시간 후", hoursAgo: "#시간 전"),
        .japanese: RelativeWords(now: "今", inMinutes: "#分後", minutesAgo: "#分前", inHours: "#時間後", hoursAgo: "#時間前"),
        .arabic: RelativeWords(now: "الآن", inMinutes: "خلال # د", minutesAgo: "قبل # د", inHours: "خلال # س", hoursAgo: "قبل # س"),
        .hebrew: RelativeWords(now: "עכשיו", inMinutes: "בעוד # דק׳", minutesAgo: "לפני # דק׳", inHours: "בעוד # שע׳", hoursAgo: "לפני # שע׳"),
    ]

    /// The next moment after `now` at which a relative time or the clock may read otherwise:
    /// the next whole minute of the calendar (feeds give their times in whole minutes).
    public static func nextMinute(after now: Date) -> Date {
        let t = now.timeIntervalSince1970
        return Date(timeIntervalSince1970: ((t + 0.001) / 60).rounded(.down) * 60 + 60)
    }
}
