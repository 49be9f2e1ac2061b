import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay
import PanelRefresh
import PanelRender
import PanelUI

/// A source that answers each load with the next of `answers` after `delay` seconds of the
/// scene's clock (the last answer repeats), or holds a load until `release()`.
@MainActor
final class ScriptedSource: ItemSource {
    var answers: [Result<[Item], Error>]
    var delay: Double
    var holding = false
    private var held: [(@MainActor (Result<ItemPage, Error>) -> Void, Result<ItemPage, Error>)] = []
    private let animator: Animator
    private(set) var loads = 0

    init(_ answers: [Result<[Item], Error>], delay: Double = 0.2, animator: Animator) {
        (self.answers, self.delay, self.animator) = (answers, delay, animator)
    }

    /// Whether a first page the same as the last one is answered as unchanged, as the real
    /// sources do for the same bytes.
    var reportsUnchanged = false
    private var lastFirstPage: [Item]?

    func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let items = page > 0 ? .success([]) : (answers.count > 1 ? answers.removeFirst() : answers[0])
        let same = reportsUnchanged && page == 0 && (try? items.get()) != nil && (try? items.get()) == lastFirstPage
        if page == 0, let shown = try? items.get() { lastFirstPage = shown }
        let answer = items.map { ItemPage(items: $0, isUnchanged: same) }
        if page == 0 { loads += 1 }
        if holding { held.append((completion, answer)); return }
        animator.schedule(nil, after: delay) { completion(answer) }
    }

    func release() {
        let waiting = held
        held = []
        for (completion, answer) in waiting { completion(answer) }
    }

    static func items(_ count: Int) -> [Item] {
        (1...count).map { Item(id: "id-\($0)", title: "Item \($0)", subtitle: "Subtitle \($0)", body: "Body of item \($0).\nSecond paragraph.") }
    }
}

/// A kiosk in virtual time over a scripted source.
@MainActor
final class TapKiosk {
    let display = HeadlessDisplay(width: 480, height: 800)
    let kiosk: VirtualKiosk
    let source: ScriptedSource
    var clock: ManualClock { kiosk.clock }
    var session: KioskList { kiosk.list }
    var trace: [TraceEvent] { session.trace }

    init(_ settings: [(String, String)] = [], answers: [Result<[Item], Error>] = [.success(ScriptedSource.items(20))],
         holding: Bool = false) throws {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        for (key, value) in settings { try configuration.set(key, value) }
        var made: ScriptedSource?
        kiosk = try VirtualKiosk(configuration: configuration, display: display) { _, animator, _ in
            let s = ScriptedSource(answers, animator: animator)
            s.holding = holding
            made = s
            return s
        }
        source = try #require(made)
        kiosk.start()
        run(for: 1)
    }

    func run(for seconds: Double) { kiosk.wait(seconds) }

    func tap(_ point: Point) {
        var script = GestureScript(start: clock.now + 0.1)
        script.tap(at: point)
        kiosk.play(script.frames)
        run(for: 0.5)
    }

    func drag(from: Point, to: Point, duration: Double = 0.5, hold: Double = 0.2) {
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: from, to: to, duration: duration, hold: hold)
        kiosk.play(script.frames)
    }

    func count(_ kind: String) -> Int { trace.filter { $0.kind == kind }.count }
}

@MainActor
@Suite("Row taps: detail pages, tap commands, the catch that stops a fling")
struct RowTapTests {
    @Test("tap -> detail -> back: the page shows the item, its control closes it, and the header's pull still refreshes the list")
    func detailAndBack() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        let session = kiosk.session
        // Row 2 (72-point rows).
        kiosk.tap(Point(x: 200, y: 2 * 72 + 36))
        let page = try #require(session.detailPage)
        #expect(page.row == 2 && page.titleLabel.text == "Item 3")
        #expect(page.paragraphs.map(\.text) == ["Body of item 3.", "Second paragraph."])
        #expect(session.trace.contains(.open(t: session.trace.last { $0.kind == "open" }?.time ?? -1, page: "detail", row: 2)))
        // A tap on the page's text selects no row underneath.
        let selects = kiosk.count("select")
        kiosk.tap(Point(x: 200, y: 400))
        #expect(kiosk.count("select") == selects && session.detailPage != nil)
        // Its body scrolls with the list's physics (a drag up moves it, then it bounces back).
        kiosk.tap(Point(x: page.backButton.frame.midX, y: page.backButton.frame.midY))
        #expect(session.detailPage == nil)
        #expect(kiosk.trace.last { $0.kind == "close" }.map { if case .close(_, _, let how) = $0 { how } else { "" } } == "back")
        // The list underneath as it was; a pull refreshes it.
        let refreshes = kiosk.count("refresh")
        kiosk.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 400), duration: 0.6, hold: 0.3)
        kiosk.run(for: 2)
        #expect(kiosk.count("refresh") == refreshes + 1)
        #expect(kiosk.source.loads == 2)
    }

    @Test("an edge swipe from the leading side closes the page; one from the middle does not")
    func edgeSwipe() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        kiosk.tap(Point(x: 200, y: 36))
        #expect(kiosk.session.detailPage != nil)
        kiosk.drag(from: Point(x: 240, y: 400), to: Point(x: 470, y: 400), duration: 0.3, hold: 0)
        kiosk.run(for: 1)
        #expect(kiosk.session.detailPage != nil, "not from the edge")
        kiosk.drag(from: Point(x: 5, y: 400), to: Point(x: 300, y: 400), duration: 0.3, hold: 0)
        kiosk.run(for: 1)
        #expect(kiosk.session.detailPage == nil)
        #expect(kiosk.trace.contains { if case .close(_, "detail", "swipe") = $0 { true } else { false } })
    }

    @Test("tap -> command: run once per tap with the item's JSON on stdin and its id in PANEL_REFRESH_ITEM")
    func command() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("taps-\(UUID().uuidString)").path
        let command = try script("{ echo \"$PANEL_REFRESH_ITEM\"; cat; } >> \(log)")
        defer { for p in [log, command] { try? FileManager.default.removeItem(atPath: p) } }
        let kiosk = try TapKiosk([("rows.tap", "command"), ("rows.tap-command", command)])
        for row in [0, 4, 4] { kiosk.tap(Point(x: 200, y: Double(row) * 72 + 36)) }
        let lines = try fileText(log).split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0] == "id-1" && lines[2] == "id-5" && lines[4] == "id-5")
        #expect(lines[1] == #"{"body":"Body of item 1.\nSecond paragraph.","id":"id-1","subtitle":"Subtitle 1","title":"Item 1"}"#)
        let results = kiosk.trace.compactMap { if case let .command(_, row, result) = $0 { "\(row) \(result)" } else { nil } }
        #expect(results == ["0 exit 0", "4 exit 0", "4 exit 0"])
    }

    @Test("a tap command that hangs is ended at its timeout, one that floods at its output limit; the list stays usable")
    func hostileCommand() throws {
        let hang = try script("sleep 30")
        let flood = try script("head -c 1000000 /dev/zero")
        let failing = try script("echo 'no printer' >&2; exit 4")
        defer { for p in [hang, flood, failing] { try? FileManager.default.removeItem(atPath: p) } }
        for (path, expected) in [(hang, "timed out after 0.3 s"), (flood, "flooded its output (more than 65536 bytes)"), (failing, "exit 4: no printer")] {
            let kiosk = try TapKiosk([("rows.tap", "command"), ("rows.tap-command", path), ("rows.tap-timeout", "0.3")])
            kiosk.tap(Point(x: 200, y: 36))
            let results = kiosk.trace.compactMap { if case let .command(_, _, result) = $0 { result } else { nil } }
            #expect(results == [expected])
            kiosk.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 200))
            kiosk.run(for: 1)
            #expect(kiosk.session.list.contentOffset.y > 100, "the list still scrolls")
        }
    }

    @Test("a tap that stops a fling only stops it: no row is selected, no command runs")
    func catchStopsFling() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("catch-\(UUID().uuidString)").path
        let command = try script("echo tapped >> \(log)")
        defer { for p in [log, command] { try? FileManager.default.removeItem(atPath: p) } }
        let kiosk = try TapKiosk([("rows.tap", "command"), ("rows.tap-command", command), ("data.page-size", "100")],
                                 answers: [.success(ScriptedSource.items(100))])
        kiosk.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 500), duration: 0.08, hold: 0)
        kiosk.run(for: 0.2)
        let list = kiosk.session.list
        #expect(list.isDecelerating)
        kiosk.tap(Point(x: 200, y: 400))
        #expect(!list.isDecelerating)
        #expect(kiosk.count("select") == 0 && kiosk.count("command") == 0)
        #expect(!FileManager.default.fileExists(atPath: log))
        // The next tap, on a list at rest, runs it.
        kiosk.tap(Point(x: 200, y: 400))
        #expect(kiosk.count("command") == 1)
    }

    @Test("the fast-taps recording replayed with rows.tap = command runs the command once per tap")
    func fastTapsReplay() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("replay-taps-\(UUID().uuidString)").path
        let command = try script("echo \"$PANEL_REFRESH_ITEM\" >> \(log)")
        defer { for p in [log, command] { try? FileManager.default.removeItem(atPath: p) } }
        var configuration = KioskConfiguration()
        try configuration.set("rows.tap", "command")
        try configuration.set("rows.tap-command", command)
        var options = ReplayCommand.Options(file: fixtures + "/03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu")
        options.configuration = configuration
        let trace = try ReplayCommand.run(options).trace
        let selects = trace.filter { $0.kind == "select" }.count
        #expect(selects == 9)
        #expect(trace.filter { $0.kind == "command" }.count == selects)
        let lines = try fileText(log).split(separator: "\n")
        #expect(lines.count == selects)
    }

    @Test("the kiosk's second floor takes its touches: a tap on it selects no row under it; the push up closes it; both traced")
    func secondFloor() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("floor-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let picture = Surface(width: 48, height: 80, format: .argb8888)
        Canvas(surface: picture).fill(Rect(x: 0, y: 0, width: 48, height: 80), color: Color(red: 20, green: 60, blue: 120))
        try PNG.write(picture, to: path)
        let kiosk = try TapKiosk([("appearance.two-level", path), ("rows.tap", "detail")])
        let session = kiosk.session
        #expect(session.header.openTwoLevel())
        kiosk.run(for: 1)
        #expect(session.header.state == .twoLevel)
        #expect(!session.header.twoLevelHint.isHidden)
        kiosk.tap(Point(x: 240, y: 300))
        #expect(kiosk.count("select") == 0 && session.detailPage == nil, "the tap stayed on the floor")
        kiosk.drag(from: Point(x: 240, y: 700), to: Point(x: 240, y: 300), duration: 0.3, hold: 0.1)
        kiosk.run(for: 2)
        #expect(session.header.state == .idle)
        let pages = kiosk.trace.compactMap { e -> String? in
            switch e {
            case let .open(_, page, _): "open \(page)"
            case let .close(_, page, how): "close \(page) \(how)"
            default: nil
            }
        }
        #expect(pages == ["open second-floor", "close second-floor push"])
    }
}

/// The detail page comes and goes as pages do on a phone: it slides, the list dims behind it,
/// and a back swipe moves it with the finger (`PageTransition`).
@MainActor
@Suite("Pages that move with the finger")
struct PageTransitionTests {
    /// Where the page is drawn now, points from open, and how dark the list behind it is.
    func place(_ kiosk: TapKiosk) -> (x: Double, dim: Double)? {
        guard let page = kiosk.session.detailPage ?? kiosk.kiosk.stage.scene.screen.rootView.subviews.last as? DetailPage,
              page.superview != nil else { return nil }
        let dim = kiosk.kiosk.stage.scene.screen.rootView.subviews.dropLast().last?.alpha ?? 0
        return (page.frame.origin.x, dim)
    }

    /// Taps row 0 and lets `seconds` of its push pass (the page opens at the tap's lift, the
    /// last of its frames).
    func open(_ kiosk: TapKiosk, after seconds: Double) {
        var script = GestureScript(start: kiosk.clock.now + 0.1)
        script.tap(at: Point(x: 200, y: 36))
        kiosk.kiosk.play(script.frames)
        kiosk.run(for: seconds)
    }

    @Test("the page slides in over 0.35 s while the list dims, and slides out after Back before it goes")
    func pushAndPop() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        open(kiosk, after: 0.12)
        let width = kiosk.kiosk.stage.scene.screen.size.width
        let mid = try #require(place(kiosk))
        #expect(mid.x > 0 && mid.x < width * 0.9, "0.12 s in: \(mid.x)")
        #expect(mid.dim > 0 && mid.dim < PageTransition.dimAlpha)
        kiosk.run(for: 0.3)
        let open = try #require(place(kiosk))
        #expect(open.x == 0 && abs(open.dim - PageTransition.dimAlpha) < 1e-9)
        let page = try #require(kiosk.session.detailPage)
        kiosk.tap(Point(x: page.backButton.frame.midX, y: page.backButton.frame.midY))
        #expect(kiosk.session.detailPage == nil && page.superview == nil)
        let xs = kiosk.trace.compactMap { if case let .page(_, x) = $0 { x } else { nil } }
        #expect((xs.first ?? 0) > 0 && xs.contains(0) && xs.last == width, "the page lines: \(xs)")
        #expect(xs.filter { $0 > 0 && $0 < width }.count >= 8, "slid, not jumped: \(xs)")
    }

    @Test("a back swipe moves the page with the finger")
    func follows() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        open(kiosk, after: 0.5)
        var held = GestureScript(start: kiosk.clock.now + 0.1)
        held.drag(from: Point(x: 4, y: 400), to: Point(x: 144, y: 400), duration: 0.5, hold: 0.3, lift: false)
        kiosk.kiosk.play(held.frames)
        let following = try #require(place(kiosk))
        #expect(abs(following.x - 140) < 1, "the page is at \(following.x), the finger 140 across")
        #expect(following.dim < PageTransition.dimAlpha && following.dim > 0)
        #expect(kiosk.session.detailPage != nil, "still open while the finger is down")
    }

    @Test("let go short of a third and slowly, the page springs back; past a third, it closes by itself")
    func settles() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        open(kiosk, after: 0.5)
        let width = kiosk.kiosk.stage.scene.screen.size.width
        kiosk.drag(from: Point(x: 4, y: 400), to: Point(x: 144, y: 400), duration: 0.5, hold: 0.3)
        kiosk.run(for: 0.5)
        #expect(kiosk.session.detailPage != nil, "140 of 480, held before the lift, does not close")
        #expect(place(kiosk)?.x == 0)
        kiosk.drag(from: Point(x: 4, y: 400), to: Point(x: width * 0.45, y: 400), duration: 0.8, hold: 0.3)
        kiosk.run(for: 0.5)
        #expect(kiosk.session.detailPage == nil)
        #expect(kiosk.trace.contains { if case .close(_, "detail", "swipe") = $0 { true } else { false } })
        let xs = kiosk.trace.compactMap { if case let .page(_, x) = $0 { x } else { nil } }
        #expect((xs.last ?? 0) > width * 0.9, "it slid out: \(xs.suffix(3))")
    }

    @Test("the golden trace of a page: pushed, a swipe let go short (back open), a swipe past a third (closed)")
    func goldenTrace() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        let start = kiosk.clock.now
        kiosk.session.beginTrace(origin: start)
        open(kiosk, after: 0.5)
        kiosk.drag(from: Point(x: 4, y: 400), to: Point(x: 124, y: 400), duration: 0.4, hold: 0.3)
        kiosk.run(for: 0.5)
        kiosk.drag(from: Point(x: 4, y: 400), to: Point(x: 260, y: 400), duration: 0.4, hold: 0.1)
        kiosk.run(for: 0.5)
        let kinds: Set = ["open", "close", "page", "select"]
        let text = kiosk.trace.filter { kinds.contains($0.kind) }.map(\.json).joined(separator: "\n") + "\n"
        let path = GoldenTraceTests.folder + "/detail-page.trace"
        if ProcessInfo.processInfo.environment["PANEL_REFRESH_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let kept = try fileText(path)
        #expect(text == kept, "the page's trace differs from Traces/detail-page.trace (scripts/update-golden rewrites it)")
        // What it shows: the push's lines, a swipe back to 0, a close by swipe.
        #expect(text.contains(#""kind":"close","page":"detail","how":"swipe""#))
    }

    @Test("a short flick above 500 points a second closes the page")
    func flick() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail")])
        open(kiosk, after: 0.5)
        kiosk.drag(from: Point(x: 4, y: 400), to: Point(x: 104, y: 400), duration: 0.08, hold: 0)
        #expect(kiosk.trace.contains { if case .close(_, "detail", "swipe") = $0 { true } else { false } })
        kiosk.run(for: 0.5)
        #expect(kiosk.session.detailPage == nil, "100 points in 80 ms is 1,250 points a second")
    }

    @Test("right to left: the page comes from the left, and the back swipe starts at the right edge")
    func rightToLeft() throws {
        let kiosk = try TapKiosk([("rows.tap", "detail"), ("appearance.locale", "ar")])
        open(kiosk, after: 0.12)
        #expect((place(kiosk)?.x ?? 0) < 0)
        kiosk.run(for: 0.5)
        let width = kiosk.kiosk.stage.scene.screen.size.width
        kiosk.drag(from: Point(x: width - 4, y: 400), to: Point(x: width * 0.4, y: 400), duration: 0.5, hold: 0.2)
        #expect(kiosk.session.detailPage == nil)
    }
}
