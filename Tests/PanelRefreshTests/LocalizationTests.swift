import Foundation
import Testing
@testable import PanelRefresh

@MainActor
@Suite("Localised texts")
struct LocalizationTests {
    @Test("fourteen languages, each with its own texts; Arabic and Hebrew read from the right")
    func fourteen() {
        #expect(RefreshLanguage.allCases.count == 14)
        #expect(RefreshLanguage.allCases.filter { $0.layoutDirection == .rightToLeft } == [.arabic, .hebrew])
        #expect(RefreshLanguage(code: "ar_EG.UTF-8") == .arabic && RefreshLanguage(code: "he-IL") == .hebrew
                && RefreshLanguage(code: "iw_IL") == .hebrew)
        let localizer = RefreshLocalizer()
        let idle = Set(RefreshLanguage.allCases.map { localizer.text(.headerIdle, in: $0) })
        // Simplified and Traditional Chinese write "下拉即可更新" alike; the rest all differ.
        #expect(idle.count == 13, "no two other languages share the header's text")
        #expect(localizer.text(.headerPulling, in: .simplifiedChinese) != localizer.text(.headerPulling, in: .traditionalChinese))
        #expect(localizer.text(.headerPulling, in: .german) == "Loslassen zum Aktualisieren")
        #expect(localizer.text(.footerNoMoreData, in: .japanese) == "すべて表示しました")
        #expect(localizer.text(.trailerIdle, in: .french) == "Glisser pour les détails")
    }

    @Test("every language has every text, and the non-English ones are translated")
    func complete() {
        let localizer = RefreshLocalizer()
        for language in RefreshLanguage.allCases {
            for key in RefreshTextKey.allCases {
                let text = localizer.text(key, in: language)
                #expect(!text.isEmpty, "\(language) \(key)")
                if language != .english && key != .lastUpdated {
                    #expect(text != localizer.text(key, in: .english), "\(language) \(key) is untranslated")
                }
            }
        }
    }

    @Test("locale codes map to the shipped languages", arguments: [
        ("en_US.UTF-8", RefreshLanguage.english), ("zh_CN.UTF-8", .simplifiedChinese), ("zh-Hans-CN", .simplifiedChinese),
        ("zh", .simplifiedChinese), ("zh_TW", .traditionalChinese), ("zh-Hant", .traditionalChinese),
        ("zh-HK", .traditionalChinese), ("ko-KR", .korean), ("ru_RU", .russian), ("uk_UA.UTF-8", .ukrainian),
        ("de_DE", .german), ("de_AT.UTF-8", .german), ("fr_CA", .french), ("es-419", .spanish), ("it_IT@euro", .italian),
        ("pt_BR.UTF-8", .portuguese), ("pt-PT", .portuguese), ("ja_JP.UTF-8", .japanese),
        ("nl_NL", .english), ("", .english), ("C", .english),
    ])
    func codes(code: String, language: RefreshLanguage) {
        #expect(RefreshLanguage(code: code) == language)
    }

    @Test("switching the language at run time updates every component's texts")
    func runtimeSwitch() {
        let localizer = RefreshLocalizer()
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: localizer))
        let footer = stage.attach(footer: BackNormalFooter(localizer: localizer))
        let trailer = StateTrailer(localizer: localizer)
        #expect(header.stateLabel.text == "Pull down to update")
        localizer.language = .russian
        #expect(header.stateLabel.text == "Потяните вниз для обновления")
        #expect(footer.stateLabel.text == "Потяните вверх, чтобы загрузить ещё")
        #expect(trailer.stateLabel.text == "Потяните для подробностей")
        #expect(header.lastUpdatedTimeLabel.text == "Обновлено: ни разу")
        localizer.language = .korean
        #expect(header.stateLabel.text == "당겨서 새로 고침")
        localizer.setText("Тяни!", for: .headerIdle, in: .korean)
        #expect(header.stateLabel.text == "Тяни!")
        localizer.setText(nil, for: .headerIdle, in: .korean)
        #expect(header.stateLabel.text == "당겨서 새로 고침")
    }

    @Test("a component's own titles win over the language")
    func customWins() {
        let localizer = RefreshLocalizer()
        let header = StateHeader(localizer: localizer)
        header.setTitle("Custom", for: .idle)
        localizer.language = .ukrainian
        #expect(header.stateLabel.text == "Custom")
        #expect(header.title(for: .pulling) == "Відпустіть для оновлення")
    }

    @Test("the shared localizer is the default and reaches components made without one")
    func shared() {
        let header = StateHeader()
        let footer = AutoStateFooter()
        #expect(header.stateLabel.text == "Pull down to update")
        let before = RefreshLocalizer.shared.language
        RefreshLocalizer.shared.language = .korean
        defer { RefreshLocalizer.shared.language = before }
        // Made without a localizer, both follow the shared one, live.
        #expect(header.stateLabel.text == RefreshLocalizer(language: .korean).text(.headerIdle))
        #expect(header.stateLabel.text != "Pull down to update")
        #expect(footer.stateLabel.text == RefreshLocalizer(language: .korean).text(.autoFooterIdle))
    }
}

@MainActor
@Suite("Last updated")
struct LastUpdatedTests {
    let formatter = LastUpdatedFormatter()
    let localizer = RefreshLocalizer()

    func date(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        return f.date(from: text)!
    }

    @Test("today, this year, another year, no record")
    func formats() {
        let now = date("2026-11-29T18:30:00Z")
        #expect(formatter.text(for: date("2026-11-29T08:05:00Z"), now: now, localizer: localizer) == "Updated: today 08:05")
        #expect(formatter.text(for: date("2026-03-12T14:05:00Z"), now: now, localizer: localizer) == "Updated: 03-12 14:05")
        #expect(formatter.text(for: date("2025-11-29T14:05:00Z"), now: now, localizer: localizer) == "Updated: 2025-11-29 14:05")
        #expect(formatter.text(for: nil, now: now, localizer: localizer) == "Updated: never")
    }

    @Test("the same day of another month is not today (MJRefresh compared only the day)")
    func fullDate() {
        let now = date("2026-11-29T18:30:00Z")
        #expect(formatter.text(for: date("2026-10-29T18:00:00Z"), now: now, localizer: localizer) == "Updated: 10-29 18:00")
    }

    @Test("local time is UTC plus the zone's offset at that moment: Tokyo's evening is tomorrow, New York's is yesterday")
    func offsets() {
        let now = date("2026-11-29T18:30:00Z")
        let tokyo = LastUpdatedFormatter(fixedOffset: 9 * 3600)
        #expect(tokyo.text(for: now, now: now, localizer: localizer) == "Updated: today 03:30")
        #expect(tokyo.text(for: date("2026-11-29T14:05:00Z"), now: now, localizer: localizer) == "Updated: 11-29 23:05",
                "the 29th in Tokyo, but Tokyo's today is the 30th")
        let newYork = LastUpdatedFormatter(fixedOffset: -5 * 3600)
        #expect(newYork.text(for: date("2027-01-01T02:00:00Z"), now: date("2027-01-01T12:00:00Z"), localizer: localizer)
                == "Updated: 2026-12-31 21:00", "still last year in New York")
        // Summer time: the offset is asked for each date.
        let change = date("2026-10-25T01:00:00Z")
        let berlin = LastUpdatedFormatter(utcOffset: { $0 < change ? 7200 : 3600 })
        #expect(berlin.text(for: date("2026-07-01T10:00:00Z"), now: now, localizer: localizer) == "Updated: 07-01 12:00")
        #expect(berlin.text(for: date("2026-11-01T10:00:00Z"), now: now, localizer: localizer) == "Updated: 11-01 11:00")
    }

    @Test("the date arithmetic agrees with a Gregorian calendar for 4,000 instants from 1900 to 2200, any offset")
    func againstCalendar() throws {
        var generator = SystemRandomNumberGenerator()
        // One calendar per offset (making one per instant costs more than the check).
        var calendars: [Int: Calendar] = [:]
        for _ in 0..<4_000 {
            let seconds = Double.random(in: -2_208_988_800...7_258_118_400, using: &generator).rounded(.down)
            let offset = Int.random(in: -12...14, using: &generator) * 3600 + [0, 1800, 2700].randomElement(using: &generator)!
            let date = Date(timeIntervalSince1970: seconds)
            if calendars[offset] == nil {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = try #require(TimeZone(secondsFromGMT: offset))
                calendars[offset] = calendar
            }
            let c = try #require(calendars[offset]).dateComponents([.year, .month, .day, .hour, .minute], from: date)
            let local = LastUpdatedFormatter(fixedOffset: offset).local(date)
            guard local.year == c.year, local.month == c.month, local.day == c.day, local.hour == c.hour, local.minute == c.minute else {
                Issue.record("\(seconds) at \(offset): \(local) vs \(c)")
                return
            }
        }
    }

    @Test("in Chinese")
    func chinese() {
        let zh = RefreshLocalizer(language: .simplifiedChinese)
        let now = date("2026-11-29T18:30:00Z")
        #expect(formatter.text(for: now, now: now, localizer: zh) == "上次更新：今天 18:30")
    }
}
