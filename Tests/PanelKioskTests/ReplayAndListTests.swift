import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelInput
import PanelRefresh
import PanelRender

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PanelInputTests/Fixtures").path

@Suite("Trace lines")
struct TraceTests {
    @Test("each kind has exactly its documented fields, in order")
    func format() {
        #expect(TraceEvent.pan(t: 0.25, phase: "began", x: 10, y: 20.5, vx: -3.25, vy: 0, touches: 1).json
            == #"{"t":0.25,"kind":"pan","phase":"began","x":10,"y":20.5,"vx":-3.25,"vy":0,"touches":1}"#)
        #expect(TraceEvent.state(t: 1, component: "header", from: .idle, to: .pulling).json
            == #"{"t":1,"kind":"state","component":"header","from":"idle","to":"pulling"}"#)
        #expect(TraceEvent.refresh(t: 1.5, component: "footer").json == #"{"t":1.5,"kind":"refresh","component":"footer"}"#)
        #expect(TraceEvent.frame(t: 2, offsetX: 0, offsetY: -54.12346, rows: 20, renderMs: 0.41234).json
            == #"{"t":2,"kind":"frame","offsetX":0,"offsetY":-54.1235,"rows":20,"renderMs":0.4123}"#)
        #expect(TraceEvent.error(t: 3, message: "bad \"json\"\n\u{1}").json
            == #"{"t":3,"kind":"error","message":"bad \"json\"\n\u0001"}"#)
    }

    @Test("every line is valid JSON")
    func valid() throws {
        for event in [TraceEvent.pan(t: -0.0, phase: "ended", x: 1e-9, y: 7, vx: .nan, vy: 3, touches: 0),
                      .error(t: 0, message: "ünïcode ✓ 下拉")] {
            let object = try JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any]
            #expect(object?["kind"] as? String == event.kind)
        }
    }
}

@MainActor
@Suite("Replays end to end")
struct ReplayTests {
    func replay(_ file: String, desc: String? = nil, axes: (UInt16, UInt16)? = nil) throws -> [TraceEvent] {
        var options = ReplayCommand.Options(file: fixtures + "/" + file)
        options.descriptionFile = desc.map { fixtures + "/" + $0 }
        options.positionAxes = axes
        return try ReplayCommand.run(options).trace
    }

    func pans(_ trace: [TraceEvent], _ phase: String) -> Int {
        trace.filter { if case let .pan(_, p, _, _, _, _, _) = $0 { return p == phase }; return false }.count
    }

    func refreshes(_ trace: [TraceEvent], _ component: String) -> Int {
        trace.filter { if case let .refresh(_, c) = $0 { return c == component }; return false }.count
    }

    @Test("07: a drag from the top-left down to the bottom-right pulls the header: one refresh, back to idle")
    func ntrig() throws {
        let trace = try replay("07-ntrig.mt-a.1fg-drag-nw-se.events", desc: "07-ntrig.desc")
        #expect(pans(trace, "began") == 1 && pans(trace, "ended") == 1)
        #expect(refreshes(trace, "header") == 1)
        let states = trace.compactMap { e -> String? in
            if case let .state(_, c, from, to) = e, c == "header" { return "\(from.rawValue)->\(to.rawValue)" }
            return nil
        }
        #expect(states == ["idle->pulling", "pulling->refreshing", "refreshing->idle"])
        guard case let .frame(_, _, y, _, _)? = trace.last(where: { $0.kind == "frame" }) else {
            Issue.record("no frames")
            return
        }
        // Frame lines are frames presented: the spring's last sub-pixel steps draw nothing.
        #expect(abs(y) < 0.5, "settled back at the top, to the pixel")
    }

    @Test("01: a fling up from the top reaches the end and loads the next page")
    func pixelFling() throws {
        let trace = try replay("01-pixel-tablet-nvt.mt-b.1fg-swipe.evemu")
        #expect(refreshes(trace, "header") == 0)
        #expect(refreshes(trace, "footer") == 1)
        guard case let .frame(_, _, _, rows, _)? = trace.last(where: { $0.kind == "frame" }) else {
            Issue.record("no frames")
            return
        }
        #expect(rows == 40)
        guard case let .pan(_, _, _, _, _, vy, _)? = trace.first(where: {
            if case let .pan(_, p, _, _, _, _, _) = $0 { return p == "ended" }; return false
        }) else { return }
        #expect(vy < -1000)
    }

    @Test("03: nine taps make no pan and no refresh")
    func taps() throws {
        let trace = try replay("03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu")
        #expect(trace.allSatisfy { $0.kind != "pan" && $0.kind != "refresh" })
    }

    @Test("02, 05: drags up and down scroll the list without refreshing")
    func drags() throws {
        for (file, desc) in [("02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", nil), ("05-elan-cando.mt-b.1fg-drag-up-down.events", "05-elan-cando.desc")] {
            let trace = try replay(file, desc: desc)
            #expect(pans(trace, "began") >= 1)
            #expect(pans(trace, "began") == pans(trace, "ended") + pans(trace, "cancelled"))
            #expect(trace.contains { if case let .frame(_, _, y, _, _) = $0 { return y > 10 }; return false }, "\(file) scrolled")
        }
    }

    @Test("10: positions on ABS_Z/ABS_RX need --axes 02,03; without it nothing moves")
    func egalax() throws {
        let remapped = try replay("10-egalax-usb.single-touch-quirk.events", desc: "10-egalax-usb.desc", axes: (AbsCode.z, AbsCode.rx))
        #expect(pans(remapped, "began") == 1)
        let plain = try replay("10-egalax-usb.single-touch-quirk.events", desc: "10-egalax-usb.desc")
        #expect(pans(plain, "began") == 0)
    }

    @Test("a recording whose time jumps from 0 to the largest accepted time replays to the end")
    func timeJump() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jump-\(UUID().uuidString).evemu").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let description = try fileText(fixtures + "/07-ntrig.desc")
        // A press at 0, the same contact moved at the far end of time, then lifted.
        let events = """
            E: 0.000000 0003 0035 1000
            E: 0.000000 0003 0036 1000
            E: 0.000000 0000 0002 0000
            E: 0.000000 0001 014a 0001
            E: 0.000000 0000 0000 0000
            E: 4294967295.000000 0003 0035 1000
            E: 4294967295.000000 0003 0036 5000
            E: 4294967295.000000 0000 0002 0000
            E: 4294967295.000000 0000 0000 0000
            E: 4294967295.010000 0001 014a 0000
            E: 4294967295.010000 0000 0000 0000

            """
        try (description + events).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ReplayCommand.run(ReplayCommand.Options(file: path))
        #expect(result.framesPresented > 0)
    }

    @Test("--offset starts the list that many points down, at most at its end; a drag down from there scrolls, where from the top it only rubber-bands")
    func startOffset() throws {
        var options = ReplayCommand.Options(file: fixtures + "/02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu")
        options.startPoints = 300
        let inside = try ReplayCommand.run(options)
        #expect(inside.startOffset.y == inside.scrollRange.y.lowerBound + 300)
        // Past the end: at the end (of the first page, which is all the list holds then).
        options.startPoints = 1_000_000
        let end = try ReplayCommand.run(options)
        options.startPoints = 2_000_000
        let further = try ReplayCommand.run(options)
        #expect(end.startOffset.y > inside.startOffset.y)
        #expect(end.startOffset.y == further.startOffset.y)
        #expect(end.startOffset.y <= end.scrollRange.y.upperBound)
        let top = try ReplayCommand.run(ReplayCommand.Options(file: fixtures + "/02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu"))
        #expect(top.startOffset.y == top.scrollRange.y.lowerBound)
        // The same recording from 300 points down shows other offsets than from the top.
        func offsets(_ result: ReplayCommand.Result) -> [Double] {
            result.trace.compactMap { if case let .frame(_, _, y, _, _) = $0 { y } else { nil } }
        }
        #expect(offsets(inside) != offsets(top))
        #expect(offsets(inside).contains { $0 < 300 - 1 } || offsets(inside).contains { $0 > 300 + 1 }, "the drag moved the list from 300")
    }

    @Test("a malformed recording is an error naming the file and line")
    func malformed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).evemu").path
        try "N: Broken\nI: 0003 0001 0002 0003\nE: 0.1 0003\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: EvemuError.self) { try ReplayCommand.run(ReplayCommand.Options(file: path)) }
    }
}

@MainActor
@Suite("The configured list on a bare scene")
struct KioskListTests {
    func list() -> (Scene, KioskList) {
        let scene = Scene(size: Size(width: 800, height: 480))
        let session = KioskList(scene: scene, source: SampleItemSource(pages: 3, delay: 1, animator: scene.animator),
                                   localizer: RefreshLocalizer())
        session.place()
        session.showFirstPage()
        scene.frame()
        return (scene, session)
    }

    @Test("a downward drag from the top triggers exactly one header refresh, which reloads the list")
    func pullDown() {
        let (scene, session) = list()
        var script = GestureScript(start: 0.5)
        script.drag(from: Point(x: 400, y: 60), to: Point(x: 400, y: 400), duration: 0.4, hold: 0.1)
        scene.play(script.frames)
        scene.settle()
        #expect(session.trace.filter { $0 == .refresh(t: $0.t, component: "header") }.count == 1)
        #expect(session.items.first?.subtitle == "Refresh 1, page 1")
        #expect(session.header.state == .idle)
        #expect(session.list.contentOffset.y == 0)
    }

    @Test("a drag at the bottom loads the next page; the last short page means no more data")
    func loadMore() {
        let (scene, session) = list()
        for _ in 0..<3 {
            // Each drag starts at the end of what is loaded so far.
            session.list.contentOffset = session.list.maximumContentOffset
            var script = GestureScript(start: scene.clock.now + 0.2)
            script.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 0.3, hold: 0.1)
            scene.play(script.frames)
            scene.settle()
        }
        #expect(session.items.count == 60)
        #expect(session.footer.state == .noMoreData)
    }

    @Test("a failing source keeps the list on screen and shows the failure")
    func failure() {
        final class Failing: ItemSource {
            struct Down: Error, CustomStringConvertible { var description: String { "server down" } }
            func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
                completion(.failure(Down()))
            }
        }
        let scene = Scene(size: Size(width: 800, height: 480))
        let session = KioskList(scene: scene, source: Failing(), localizer: RefreshLocalizer())
        session.place()
        session.showFirstPage()
        session.header.finishedDisplayDuration = 0.5
        scene.frame()
        session.header.beginRefreshing()
        scene.wait(0.3)
        #expect(session.header.state == .finished)
        #expect(session.header.stateLabel.text == "Update failed")
        #expect(session.items.count == 20, "the list that was on screen stays")
        #expect(session.trace.contains { if case let .error(_, message) = $0 { return message == "server down" }; return false })
        scene.settle()
        #expect(session.header.state == .idle)
    }
}

extension TraceEvent {
    var t: Double { time }
}

@MainActor
@Suite("Demo")
struct DemoTests {
    @Test("the demo writes its frames and an animated PNG, and goes through every state")
    func demo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try DemoCommand.run(width: 320, height: 200, directory: dir)
        #expect(result.frames > 100)
        let apng = try Data(fileBytes(result.animation))
        #expect(apng.count > 10_000)
        let bytes = [UInt8](apng)
        let acTL = bytes.indices.dropLast(12).first { bytes[$0] == 0x61 && bytes[$0 + 1] == 0x63 && bytes[$0 + 2] == 0x54 && bytes[$0 + 3] == 0x4c }
        let frameCount = acTL.map { Int(bytes[$0 + 4]) << 24 | Int(bytes[$0 + 5]) << 16 | Int(bytes[$0 + 6]) << 8 | Int(bytes[$0 + 7]) }
        #expect(frameCount == result.frames, "an acTL chunk counting every frame")
        let states = Set(result.trace.compactMap { e -> String? in
            if case let .state(_, c, _, to) = e { return "\(c) \(to.rawValue)" }
            return nil
        })
        #expect(states.isSuperset(of: ["header pulling", "header refreshing", "header idle", "footer refreshing", "footer noMoreData"]))
        // What the board shows off: a train's page opened and swiped back, a refresh that
        // failed (and the one after it that did not), and rows in Hebrew and Arabic.
        #expect(result.trace.contains { if case .open(_, "detail", _) = $0 { true } else { false } })
        #expect(result.trace.contains { if case .close(_, "detail", "swipe") = $0 { true } else { false } })
        #expect(result.trace.contains { if case .error(_, let message) = $0 { message.contains("departures.example") } else { false } })
        #expect(result.trace.filter { if case .refresh(_, "header") = $0 { true } else { false } }.count >= 2)
    }

    @Test("the demo's board: pictures drawn by the project, delays as badges, places in Hebrew and Arabic")
    func board() throws {
        let folder = try scratchDirectory("board")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scene = Scene(size: Size(width: 320, height: 200))
        let board = try DemoBoard(pages: 3, delay: 0, animator: scene.animator, folder: folder, fonts: try FontLibrary())
        let page = board.departures(page: 0, pageSize: 20)
        #expect(page.count == 20 && board.departures(page: 2, pageSize: 20).count == 10 && board.departures(page: 3, pageSize: 20).isEmpty)
        #expect(page.allSatisfy { FileManager.default.fileExists(atPath: $0.image) && ImageFormat.sniff((try? fileBytes($0.image)) ?? []) == .png })
        #expect(page.contains { !$0.badge.isEmpty } && page.contains { $0.language == "he" } && page.contains { $0.language == "ar" })
    }
}
