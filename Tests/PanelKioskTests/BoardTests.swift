import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// A departures feed as most APIs send it: wrapped, with RFC 3339 times and delays in minutes.
/// The clock is 15 January 2026, 13:00 in Berlin (12:00 UTC).
let departuresFeed = #"""
{"station": "Hauptbahnhof", "departures": [
  {"id": "a", "destination": "Airport", "line": "S1", "platform": 2, "departure": "2026-01-15T13:10:00+01:00", "delay": 0},
  {"id": "b", "destination": "Harbour", "line": "S3", "platform": 4, "departure": "2026-01-15T11:25:00Z", "delay": 3},
  {"id": "c", "destination": "Old Town", "line": "U2", "platform": 1, "departure": "2026-01-15T14:40:00+01:00", "delay": 7},
  {"id": "d", "destination": "Stadium", "line": "U4", "platform": 3, "departure": "2026-01-15T12:59:00+01:00", "delay": 0}
]}
"""#

@MainActor
@Suite("The board a person reads: composed lines, times that tick, badges by value, items past their time, the bar with name and clock")
struct BoardTests {
    /// A kiosk in Berlin showing `feed` from a file, set as a departures board.
    func board(_ feed: String = departuresFeed, _ set: (inout KioskConfiguration) -> Void = { _ in }) throws -> VirtualKiosk {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("state")
        c.locale = "en"
        let path = try scratchDirectory("feed") + "/board.json"
        try Data(feed.utf8).write(to: URL(fileURLWithPath: path))
        c.source = .file
        c.file = path
        c.rowFields.title = "destination"
        c.rowFields.subtitle = try KioskConfiguration.template("{line} · platform {platform}")
        c.rowFields.detail = try KioskConfiguration.template("{departure|relative}")
        c.rowFields.badge = try KioskConfiguration.template("{delay|signed}")
        c.rowFields.expires = "departure"
        c.badgeStyle.hidden = BadgeStyle.hiddenValues("0")
        c.badgeStyle.rules = try BadgeStyle.rules(">=5 #c62828, >0 #ef6c00")
        set(&c)
        var machine = MachineEnvironment.neutral
        machine.utcOffset = berlin2026
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 480, height: 320), machine: machine)
        kiosk.clock.epoch = Date(timeIntervalSince1970: 1_768_478_400)
        return kiosk
    }

    /// The texts of the rows on screen, in order: title | subtitle | detail | badge.
    func rows(_ kiosk: VirtualKiosk) -> [String] {
        kiosk.list.list.visibleCells.sorted { $0.key < $1.key }.map { _, cell in
            [cell.titleLabel.text, cell.subtitleLabel.text, cell.detailLabel.text, cell.badgeLabel.text].joined(separator: " | ")
        }
    }

    @Test("templates: fields and text, formats after a bar, braces doubled; a broken one is refused when the file is read")
    func templates() throws {
        let t = try FieldTemplate("{line} · platform {platform}")
        #expect(t.parts == [.field("line", .text), .literal(" · platform "), .field("platform", .text)])
        #expect(try FieldTemplate("{{{x|relative}}}").parts == [.literal("{"), .field("x", .relative), .literal("}")])
        #expect(throws: ConfigurationValueError.self) { try FieldTemplate("{line") }
        #expect(throws: ConfigurationValueError.self) { try FieldTemplate("{line|clock}") }
        #expect(throws: ConfigurationValueError.self) { try FieldTemplate("a } b") }
        let error = #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("[rows]\ndetail = {departure|when}\n", file: "board.conf") }
        #expect("\(error.map { "\($0)" } ?? "")".contains("\"when\" is not a format (text, time, relative, signed)"))
        // A plain name stays a field's name.
        #expect(!FieldTemplate.isTemplate("departure"))
        // A field shows as a plain field does: a whole number without ".0", no bools.
        #expect([JSONValue.number(2.0), .number(12.5), .integer(3), .string("2a"), .bool(true)].map(ItemParser.shown) == ["2", "12.5", "3", "2a", ""])
    }

    @Test("times as feeds write them: RFC 3339 with a zone or Z, ISO without one (the panel's zone), Unix seconds and milliseconds")
    func times() throws {
        let at = 1_796_404_200.0 // 2026-12-04T17:10:00Z
        for text in ["2026-12-04T18:10:00+01:00", "2026-12-04T17:10:00Z", "2026-12-04T17:10Z", "2026-12-04T19:10:00.000+0200", "2026-12-04t17:10:00z"] {
            let v = try #require(TimeValue(.string(text)), "\(text)")
            #expect(v.seconds == at && !v.isLocal, "\(text)")
        }
        let local = try #require(TimeValue(.string("2026-12-04 18:10")))
        #expect(local.isLocal && local.date(utcOffset: berlin2026).timeIntervalSince1970 == at, "18:10 in Berlin in December is 17:10 UTC")
        #expect(TimeValue(.integer(1_796_404_200))?.seconds == at && TimeValue(.integer(1_796_404_200_000))?.seconds == at)
        for bad in ["tomorrow", "2026-13-04T18:10:00Z", "2026-12-04T18:10:00+01:00 extra", "2026-12-04", ""] {
            #expect(TimeValue(.string(bad)) == nil, "\(bad)")
        }
    }

    @Test("relative times in the panel's language: minutes ahead counted up as boards do, minutes past counted down, hours; a day away is a date")
    func relativeWords() {
        let now = Date(timeIntervalSince1970: 1_768_478_400)
        let en = ItemClock(utcOffset: berlin2026, language: .english)
        #expect(en.relative(now.addingTimeInterval(30), now: now) == "in 1 min")
        #expect(en.relative(now.addingTimeInterval(-30), now: now) == "now")
        #expect(en.relative(now, now: now) == "now")
        #expect(en.relative(now.addingTimeInterval(4 * 60 + 1), now: now) == "in 5 min")
        #expect(en.relative(now.addingTimeInterval(5 * 60), now: now) == "in 5 min")
        #expect(en.relative(now.addingTimeInterval(5 * 60 + 0.5), now: now) == "in 6 min")
        #expect(en.relative(now.addingTimeInterval(-12 * 60), now: now) == "12 min ago")
        #expect(en.relative(now.addingTimeInterval(2 * 3_600 + 59 * 60), now: now) == "in 2 h")
        #expect(en.relative(now.addingTimeInterval(2 * 86_400), now: now) == "01-17 13:00")
        #expect(ItemClock(utcOffset: berlin2026, language: .german).relative(now.addingTimeInterval(300), now: now) == "in 5 Min.")
        #expect(ItemClock(utcOffset: berlin2026, language: .japanese).relative(now.addingTimeInterval(-300), now: now) == "5分前")
        #expect(ItemClock.words.count == RefreshLanguage.allCases.count, "every shipped language has its words")
    }

    @Test("a departures board: lines composed of fields, the time from now ticking each minute with no refresh, a delay of 0 hidden, late in orange and red, items past their time dropped")
    func departures() throws {
        let kiosk = try board()
        kiosk.start()
        kiosk.run(until: 5)
        #expect(rows(kiosk) == [
            "Airport | S1 · platform 2 | in 10 min | ",
            "Old Town | U2 · platform 1 | in 1 h | +7",
        ], "Harbour left at 12:25 UTC and Stadium at 12:59, before the list was read")
        let cells = kiosk.list.list.visibleCells
        #expect(cells[1]?.badgeLabel.backgroundColor == Color(red: 0xc6, green: 0x28, blue: 0x28))
        // Nothing moves: the only wake-up is the next whole minute.
        let next = try #require(kiosk.stage.nextWakeUp)
        let r = kiosk.clock.date.addingTimeInterval(next - kiosk.clock.now).timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        #expect(min(r, 60 - r) < 0.01, "a whole minute")
        kiosk.run(until: kiosk.clock.now + 5 * 60)
        #expect(rows(kiosk).first == "Airport | S1 · platform 2 | in 5 min | ", "drawn again at 13:05:00, five minutes before")
        #expect(kiosk.list.counters.changed == 1, "the times moved without a refresh")
        // 13:10: the Airport train leaves the board, the reader's place kept.
        kiosk.run(until: kiosk.clock.now + 5 * 60)
        #expect(rows(kiosk) == ["Old Town | U2 · platform 1 | in 1 h | +7"])
        #expect(kiosk.kiosk.status().items == 1)
    }

    @Test("a delay of 3 is orange; the first rule that matches wins; a text rule matches a text")
    func badgeRules() throws {
        let style = BadgeStyle(hidden: BadgeStyle.hiddenValues("0, on time"), rules: try BadgeStyle.rules(">=5 #c62828, >0 #ef6c00, cancelled #000000, * #2e7d32"))
        #expect(style.styled("+3").color == Color(red: 0xef, green: 0x6c, blue: 0x00))
        #expect(style.styled("+12").color == Color(red: 0xc6, green: 0x28, blue: 0x28))
        #expect(style.styled("cancelled").color == .black)
        #expect(style.styled("-1").color == Color(red: 0x2e, green: 0x7d, blue: 0x32))
        #expect(style.styled("0").text.isEmpty && style.styled("on time").text.isEmpty)
        #expect(throws: ConfigurationValueError.self) { try BadgeStyle.rules(">0 red") }
        #expect(throws: ConfigurationValueError.self) { try BadgeStyle.rules("#c62828") }
    }

    @Test("the bar over the board: its name and the local time, set at each whole minute; the rows start under it")
    func bar() throws {
        let kiosk = try board {
            $0.boardTitle = "Hauptbahnhof"
            $0.boardClock = true
        }
        kiosk.start()
        kiosk.run(until: 5)
        let bar = try #require(kiosk.list.board)
        #expect(bar.titleLabel.text == "Hauptbahnhof")
        #expect(bar.clockLabel.text == "13:00")
        #expect(kiosk.list.list.frame.minY == BoardBar.height)
        kiosk.run(until: kiosk.clock.now + 61)
        #expect(bar.clockLabel.text == "13:01")
        // Right to left, the name is at the right and the time at the left.
        let hebrew = try board {
            $0.boardTitle = "תחנה מרכזית"
            $0.boardClock = true
            $0.locale = "he"
        }
        hebrew.start()
        hebrew.run(until: 5)
        let rtl = try #require(hebrew.list.board)
        #expect(rtl.clockLabel.frame.minX < rtl.titleLabel.frame.minX)
    }

    @Test("without times or a clock the list sets no minute's deadline")
    func noTimes() throws {
        let kiosk = try board(#"[{"destination": "Airport", "departure": "soon"}]"#) {
            $0.rowFields.detail = "departure"
            $0.rowFields.subtitle = "line"
            $0.rowFields.badge = "badge"
            $0.rowFields.expires = ""
        }
        kiosk.start()
        kiosk.run(until: 5)
        #expect(rows(kiosk) == ["Airport |  | soon | "])
        #expect(kiosk.stage.nextWakeUp == nil)
    }

    @Test("the detail page shows the row's other texts under the title, its times ticking")
    func detailFacts() throws {
        let kiosk = try board(departuresFeed.replacing(#""delay": 0}"#, with: #""delay": 0, "body": "Stops at Central, Airport."}"#)) {
            $0.tapAction = .detail
        }
        kiosk.start()
        kiosk.run(until: 5)
        kiosk.list.openDetail(row: 0)
        kiosk.run(until: kiosk.clock.now + 2)
        let page = try #require(kiosk.list.detailPage)
        #expect(page.factsLabel.text == "S1 · platform 2 · in 10 min")
        kiosk.run(until: kiosk.clock.now + 120)
        #expect(page.factsLabel.text == "S1 · platform 2 · in 8 min", "drawn again at 13:02:00")
    }
}
