import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh

@Suite("The refresh schedule: phase, jitter, back-off")
struct RefreshScheduleTests {
    let settings = RefreshSchedule.Settings(every: 60, jitter: 0.1, backoffMax: 900)

    @Test("the first automatic refresh comes a random part of every after the first answer; each later wait is every x (1 ± jitter)")
    func waits() {
        var schedule = RefreshSchedule(settings: settings, random: SeededRandom(seeding: "machine-a"))
        guard case .beforeFirstAnswer(let phase) = schedule.state else { Issue.record("\(schedule.state)"); return }
        #expect(phase >= 0 && phase < 1)
        #expect(schedule.due == nil)
        schedule.began()
        #expect(schedule.due == nil, "none is due while a refresh runs")
        schedule.succeeded(at: 100, freshFor: nil)
        #expect(schedule.due == 100 + 60 * phase)
        var now = schedule.due ?? 0
        for _ in 0..<500 {
            schedule.began()
            schedule.succeeded(at: now, freshFor: nil)
            let wait = (schedule.due ?? 0) - now
            #expect(wait >= 54 && wait <= 66, "\(wait)")
            now += wait
        }
    }

    @Test("two machine ids give two phases; one machine id gives the same schedule on every start")
    func phases() {
        func firstDue(_ id: String) -> Double {
            var schedule = RefreshSchedule(settings: settings, random: SeededRandom(seeding: id))
            schedule.began()
            schedule.succeeded(at: 0, freshFor: nil)
            return schedule.due ?? -1
        }
        #expect(firstDue("0123456789abcdef0123456789abcdef") == firstDue("0123456789abcdef0123456789abcdef"))
        #expect(firstDue("0123456789abcdef0123456789abcdef") != firstDue("fedcba9876543210fedcba9876543210"))
        // A fleet of 1,000 panels spreads over the whole interval: every tenth of it has some.
        let dues = (0..<1000).map { firstDue("panel-\($0)") }
        for tenth in 0..<10 {
            let count = dues.filter { $0 >= Double(tenth) * 6 && $0 < Double(tenth + 1) * 6 }.count
            #expect(count > 60 && count < 140, "tenth \(tenth): \(count)")
        }
    }

    @Test("failures back off with full jitter: each wait at most min(backoff-max, every x 2^n), its mean doubling; a success resets it")
    func backoff() {
        let settings = RefreshSchedule.Settings(every: 10, jitter: 0.1, backoffMax: 900)
        var means = [Double](repeating: 0, count: 8)
        let machines = 400
        for machine in 0..<machines {
            var schedule = RefreshSchedule(settings: settings, random: SeededRandom(seeding: "m\(machine)"))
            var now = 0.0
            schedule.began()
            schedule.succeeded(at: now, freshFor: nil)
            for n in 1...8 {
                now = schedule.due ?? now
                schedule.began()
                schedule.failed(at: now, retryAfter: nil)
                let wait = (schedule.due ?? 0) - now
                let cap = min(900, 10 * pow(2, Double(n)))
                #expect(wait >= RefreshSchedule.minimumWait - 1e-9 && wait <= cap, "failure \(n): \(wait) against \(cap)")
                means[n - 1] += wait / Double(machines)
            }
            #expect(schedule.failures == 8)
            now = schedule.due ?? now
            schedule.began()
            schedule.succeeded(at: now, freshFor: nil)
            #expect(schedule.failures == 0)
            let wait = (schedule.due ?? 0) - now
            #expect(wait >= 9 && wait <= 11, "back to every after a success: \(wait)")
        }
        // Means of a uniform draw over [0, cap]: 10, 20, 40, 80, 160, 320, then held at 450 by backoff-max.
        for (n, mean) in means.enumerated() {
            let expected = min(900, 10 * pow(2, Double(n + 1))) / 2
            #expect(abs(mean - expected) < expected * 0.15, "failure \(n + 1): mean \(mean), expected \(expected)")
        }
    }

    @Test("no wait ends before the answer's max-age or the server's Retry-After")
    func serverBounds() {
        var schedule = RefreshSchedule(settings: settings, random: SeededRandom(seed: 7))
        schedule.began()
        schedule.succeeded(at: 0, freshFor: 600)
        #expect(schedule.due == 600)
        schedule.began()
        schedule.failed(at: 600, retryAfter: 3600)
        #expect(schedule.due == 4200)
    }
}

/// A kiosk in virtual time over a scripted source, with the machine id given.
@MainActor
final class AutoKiosk {
    let display = HeadlessDisplay(width: 480, height: 800)
    let source: ScriptedSource
    var session: KioskList { kiosk.list }
    var clock: ManualClock { kiosk.clock }
    var stage: Stage { kiosk.stage }
    let kiosk: VirtualKiosk

    init(_ settings: [(String, String)], machine: String = "test-machine",
         answers: [Result<[Item], Error>] = [.success(ScriptedSource.items(20))]) throws {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("auto")
        for (key, value) in settings { try configuration.set(key, value) }
        var environment = MachineEnvironment.neutral
        environment.machineID = machine
        var made: ScriptedSource?
        kiosk = try VirtualKiosk(configuration: configuration, display: display, machine: environment) { _, animator, _ in
            let s = ScriptedSource(answers, animator: animator)
            s.reportsUnchanged = true
            made = s
            return s
        }
        source = try #require(made)
        kiosk.start()
        kiosk.wait(1)
    }

    /// The times (trace seconds) at which refreshes of the first page began, the start's included.
    var refreshTimes: [Double] {
        session.trace.compactMap { if case let .refresh(t, component) = $0, component != "footer" { t } else { nil } }
    }

    /// A finger down at `at` (trace seconds), dragged a little, held, lifted `hold` seconds later.
    func touch(at: Double, hold: Double) {
        kiosk.run(until: at)
        var script = GestureScript(start: at)
        script.drag(from: Point(x: 240, y: 400), to: Point(x: 240, y: 380), duration: 0.2, hold: hold)
        kiosk.play(script.frames)
    }
}

@MainActor
@Suite("A kiosk that refreshes by itself, in virtual time")
struct AutoRefreshTests {
    @Test("every = 60, jitter 0.1, one hour: 55 to 66 refreshes, none while a finger is down or within quiet-after-touch")
    func hour() throws {
        let kiosk = try AutoKiosk([("refresh.every", "60"), ("refresh.jitter", "0.1")])
        // A finger down from 1000 s for 90 s (longer than a wait), a tap-like touch at 2000 s.
        kiosk.touch(at: 1000, hold: 90)
        let lift = kiosk.clock.now
        kiosk.touch(at: 2000, hold: 0.1)
        let tap = kiosk.clock.now
        kiosk.kiosk.run(until: 3601)
        let times = kiosk.refreshTimes.dropFirst()
        #expect(times.count >= 55 && times.count <= 66, "\(times.count) automatic refreshes: \(Array(times))")
        #expect(kiosk.source.loads == times.count + 1)
        for t in times {
            #expect(!(t >= 1000 && t < lift + 30), "a refresh at \(t) while the finger was down or within 30 s of its lift at \(lift)")
            #expect(!(t >= 2000 && t < tap + 30), "a refresh at \(t) within 30 s of the touch at \(tap)")
        }
        // The one held back comes when the quiet ends.
        #expect(times.contains { abs($0 - (lift + 30)) < 0.05 }, "\(Array(times))")
        // Silent: no header state at all (the first load shows in the list's place); each a "list" refresh.
        let headerStates = kiosk.session.trace.filter { if case .state(_, "header", _, _) = $0 { true } else { false } }
        #expect(headerStates.isEmpty, "\(headerStates.map(\.json))")
        #expect(times.count + 1 == kiosk.session.trace.filter { if case .refresh(_, "list") = $0 { true } else { false } }.count)
        #expect(kiosk.session.counters.changed + kiosk.session.counters.unchanged == times.count + 1)
    }

    @Test("auto-style = header runs the header as a pull would: idle, refreshing, idle for each")
    func headerStyle() throws {
        let kiosk = try AutoKiosk([("refresh.every", "60"), ("refresh.auto-style", "header")])
        kiosk.kiosk.run(until: 600)
        let refreshes = kiosk.refreshTimes.count
        #expect(refreshes >= 9 && refreshes <= 12, "\(refreshes)")
        // The first load shows in the list's place (the Loading view); the others open the header from idle.
        let toRefreshing = kiosk.session.trace.filter { if case .state(_, "header", .idle, .refreshing) = $0 { true } else { false } }
        #expect(toRefreshing.count == refreshes - 1)
        #expect(kiosk.session.trace.filter { if case .refresh(_, "list") = $0 { true } else { false } }.count == 1)
    }

    @Test("two kiosks with different machine ids have different phases; the same id, the same")
    func phases() throws {
        func firstAutomatic(_ machine: String) throws -> Double {
            let kiosk = try AutoKiosk([("refresh.every", "60")], machine: machine)
            kiosk.kiosk.run(until: 130)
            return kiosk.refreshTimes.dropFirst().first ?? -1
        }
        let a = try firstAutomatic("3f1c2a9e4b5d4c6f8a7b9c0d1e2f3a4b")
        let b = try firstAutomatic("9e8d7c6b5a4f4e3d8c2b1a0f9e8d7c6b")
        #expect(a > 1 && a < 62 && b > 1 && b < 62, "\(a), \(b)")
        #expect(abs(a - b) > 0.5, "\(a) and \(b)")
        #expect(try firstAutomatic("3f1c2a9e4b5d4c6f8a7b9c0d1e2f3a4b") == a)
    }

    @Test("none while a detail page is open or the panel is blank; the due one runs when the panel wakes")
    func heldByPageAndBlank() throws {
        // The page stays open for minutes on purpose: no return to the start.
        let kiosk = try AutoKiosk([("refresh.every", "20"), ("refresh.quiet-after-touch", "0"), ("rows.tap", "detail"),
                                   ("display.blank-after", "300"), ("appearance.home-after", "0")])
        var script = GestureScript(start: 2)
        script.tap(at: Point(x: 240, y: 36))
        kiosk.kiosk.play(script.frames)
        #expect(kiosk.session.detailPage != nil)
        let before = kiosk.refreshTimes.count
        kiosk.kiosk.run(until: 200)
        #expect(kiosk.refreshTimes.count == before, "no refresh under an open page")
        kiosk.session.closeDetail(how: "call")
        kiosk.kiosk.run(until: 201)
        #expect(kiosk.refreshTimes.count == before + 1, "the due one runs once the page is closed")
        // Past blank-after with nothing touched the panel goes off; while it is, nothing refreshes
        // (a changed list would wake it).
        kiosk.kiosk.run(until: 560)
        #expect(kiosk.display.isBlank)
        let dark = kiosk.refreshTimes.count
        kiosk.kiosk.run(until: 900)
        #expect(kiosk.refreshTimes.count == dark)
        #expect(kiosk.stage.wakeUp())
        kiosk.kiosk.run(until: 900.1)
        #expect(kiosk.refreshTimes.count == dark + 1, "the due refresh runs on waking")
    }

    @Test("never two at once: a pull during a silent refresh opens the header, which closes with that refresh's answer")
    func pullJoinsSilent() throws {
        let kiosk = try AutoKiosk([("refresh.every", "30"), ("refresh.quiet-after-touch", "0")])
        kiosk.source.delay = 3
        let first = try #require(kiosk.session.nextAutomaticRefresh)
        kiosk.kiosk.run(until: first + 0.5)
        #expect(kiosk.session.isRefreshing)
        let loads = kiosk.source.loads
        var script = GestureScript(start: kiosk.clock.now)
        script.drag(from: Point(x: 240, y: 100), to: Point(x: 240, y: 400), duration: 0.5, hold: 0.2)
        kiosk.kiosk.play(script.frames)
        #expect(kiosk.session.header.isRefreshing)
        kiosk.kiosk.run(until: first + 8)
        #expect(kiosk.source.loads == loads, "the pull asked for no second load")
        #expect(!kiosk.session.header.isRefreshing && !kiosk.session.isRefreshing)
    }
}

@MainActor
@Suite("The reader's place across refreshes")
struct KeptPlaceTests {
    static func items(_ ids: [Int]) -> [Item] { ids.map { Item(id: "id-\($0)", title: "Item \($0)", subtitle: "Subtitle \($0)") } }

    /// The kiosk scrolled so that the item at `row` is 30 points below the top, and that
    /// item's place on the glass: its rectangle's top in the list's bounds and its pixels.
    func scrolled(_ kiosk: AutoKiosk, to row: Int) -> Double {
        let list = kiosk.session.list
        list.contentOffset = Point(x: 0, y: Double(row) * 72 - 30)
        kiosk.kiosk.wait(0.1)
        return list.rectForRow(row).minY - list.contentOffset.y
    }

    /// The row's pixels at `y` from the leading edge, up to `width` (default: all but the scroll bar's
    /// column at the right edge, which moves with the content's length).
    func band(_ display: HeadlessDisplay, y: Double, width: Int? = nil) -> [UInt32] {
        let surface = display.backSurface
        let top = Int(y.rounded())
        return (top..<(top + 72)).flatMap { row in (0..<(width ?? surface.width - 12)).map { surface.pixel(x: $0, y: row) } }
    }

    @Test("scrolled to row 40, a refresh that adds 3 items on top keeps row 40's item at the same y, to the pixel; one that removes it keeps the offset")
    func keptPlace() throws {
        let first = Self.items(Array(1...100))
        let added = Self.items([1001, 1002, 1003] + Array(1...100))
        let removed = Self.items([1001, 1002, 1003] + Array(1...40) + Array(42...100))
        let kiosk = try AutoKiosk([("data.page-size", "200"), ("refresh.every", "60"), ("refresh.quiet-after-touch", "0")],
                                  answers: [.success(first), .success(added), .success(removed)])
        #expect(kiosk.session.items.count == 100)
        let y = scrolled(kiosk, to: 40)
        let item = kiosk.session.items[40]
        // The row's leading part: the chip that says "3 new ↑" comes over its middle.
        let pixels = band(kiosk.display, y: y, width: 120)
        let offsetBefore = kiosk.session.list.contentOffset.y
        kiosk.kiosk.run(until: try #require(kiosk.session.nextAutomaticRefresh) + 1)
        #expect(kiosk.session.items.count == 103)
        let row = try #require(kiosk.session.items.firstIndex(of: item))
        #expect(row == 43)
        let list = kiosk.session.list
        #expect(list.rectForRow(row).minY - list.contentOffset.y == y, "the item stays where it was on the glass")
        #expect(list.contentOffset.y == offsetBefore + 3 * 72)
        #expect(band(kiosk.display, y: y, width: 120) == pixels, "its pixels too")
        let chip = try #require(kiosk.session.newChip)
        #expect(!chip.isHidden && chip.frame.minX > 120, "the chip says what came above, clear of the row's title")
        // Now the item the top row showed (Item 41, at row 43) goes: the offset stays.
        let offset = list.contentOffset.y
        kiosk.kiosk.run(until: try #require(kiosk.session.nextAutomaticRefresh) + 1)
        #expect(kiosk.session.items.count == 102)
        #expect(list.contentOffset.y == offset)
    }

    @Test("at the top of the list, a refresh keeps the top: what it adds there shows")
    func top() throws {
        let kiosk = try AutoKiosk([("data.page-size", "200"), ("refresh.every", "60"), ("refresh.quiet-after-touch", "0")],
                                  answers: [.success(Self.items(Array(1...30))), .success(Self.items([99] + Array(1...30)))])
        kiosk.kiosk.run(until: try #require(kiosk.session.nextAutomaticRefresh) + 1)
        #expect(kiosk.session.items.first?.id == "id-99")
        #expect(kiosk.session.list.contentOffset.y == 0)
        #expect(kiosk.session.list.visibleCells[0]?.titleLabel.text == "Item 99")
    }

    @Test("a refresh during a fling keeps the item under the reader and the fling's speed")
    func duringFling() throws {
        /// Where Item 30 is on the glass 0.1 s after a refresh that lands during a fling, and
        /// whether the fling still runs: with `second` as the refreshed list.
        func fling(_ second: [Item]) throws -> (y: Double, decelerating: Bool, rows: Int) {
            let kiosk = try AutoKiosk([("data.page-size", "300"), ("refresh.every", "60"), ("refresh.quiet-after-touch", "0")],
                                      answers: [.success(Self.items(Array(1...200))), .success(second)])
            kiosk.source.delay = 0
            let due = try #require(kiosk.session.nextAutomaticRefresh)
            var script = GestureScript(start: due - 0.3)
            script.drag(from: Point(x: 240, y: 700), to: Point(x: 240, y: 300), duration: 0.1)
            kiosk.kiosk.play(script.frames)
            kiosk.kiosk.run(until: due + 0.1)
            let list = kiosk.session.list
            let row = try #require(kiosk.session.items.firstIndex { $0.id == "id-30" })
            return (list.rectForRow(row).minY - list.contentOffset.y, list.isDecelerating, kiosk.session.items.count)
        }
        // The same list with other subtitles (a refresh that changes rows, adds none above), and
        // one with two items more on top.
        let same = try fling(Self.items(Array(1...200)).map { var i = $0; i.subtitle += " (new)"; return i })
        let added = try fling(Self.items([1001, 1002] + Array(1...200)))
        #expect(same.rows == 200 && added.rows == 202)
        #expect(same.decelerating && added.decelerating, "the fling goes on")
        #expect(abs(same.y - added.y) < 0.01, "Item 30 where the fling alone takes it: \(same.y) and \(added.y)")
    }
}
