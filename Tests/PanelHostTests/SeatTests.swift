import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost

@MainActor
@Suite("The VT on the groups path")
struct VirtualTerminalTests {
    @Test("taken: graphics mode and process switching on SIGUSR2; restored: text mode and automatic switching, once")
    func takeAndRestore() throws {
        let calls = MemoryTerminal()
        let terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        #expect(terminal.number == 1 && terminal.isHeld && terminal.isGraphics)
        #expect(calls.log == ["process \(SIGUSR2)", "graphics"])
        terminal.restore()
        terminal.restore()
        #expect(calls.log == ["process \(SIGUSR2)", "graphics", "text", "auto"])
    }

    @Test("only a virtual terminal is taken: not the console, a serial line or a pseudo-terminal", arguments: [(4, 0), (4, 64), (136, 3), (1, 3)])
    func notAVirtualTerminal(device: (UInt32, UInt32)) {
        #expect(throws: TerminalError.self) { try VirtualTerminal(calls: MemoryTerminal(), device: device) }
    }

    @Test("a VT that refuses the modes (not the controlling terminal) is an error, and left in automatic switching")
    func refused() {
        let calls = MemoryTerminal()
        calls.refuseModes = true
        #expect(throws: TerminalError.self) { try VirtualTerminal(calls: calls, device: (4, 1)) }
    }

    @Test("a switch away stops drawing before it is allowed; back in front it is acknowledged; a stray signal changes nothing")
    func switches() throws {
        let calls = MemoryTerminal()
        let terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        var drawing = true
        let stray = terminal.switchSignal(stopDrawing: { drawing = false }, startDrawing: { drawing = true })
        #expect(stray == .none && drawing && terminal.isHeld)
        calls.switchPending = true
        calls.log = []
        var stoppedBeforeRelease = false
        let away = terminal.switchSignal(stopDrawing: { drawing = false; stoppedBeforeRelease = calls.log.isEmpty },
                                         startDrawing: { drawing = true })
        #expect(away == .released && !drawing && stoppedBeforeRelease && !terminal.isHeld)
        // Signals while another VT is in front (a switch between two others) change nothing.
        #expect(terminal.switchSignal(stopDrawing: {}, startDrawing: {}) == .none)
        calls.active = 1
        #expect(terminal.switchSignal(stopDrawing: {}, startDrawing: {}) == .acquired)
        #expect(terminal.isHeld && calls.log.last == "acquire")
    }
}

/// An app's views: a list with a header whose refresh takes `seconds` of the scene's clock.
@MainActor
final class Shelf: ListDataSource {
    let list: ListView
    let header = NormalHeader()
    var items = (1...30).map { "Shelf \($0)" }
    /// Refreshes that began.
    private(set) var refreshes = 0

    init(scene: Scene, seconds: Double = 0.5) {
        list = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        list.dataSource = self
        scene.screen.rootView.addSubview(list)
        header.refreshingAction = { [unowned self, unowned scene] in
            self.refreshes += 1
            scene.animator.schedule(nil, after: seconds) { [unowned self] in
                self.items.insert("Fresh \(self.refreshes)", at: 0)
                self.list.reloadData()
                self.header.endRefreshing()
            }
        }
        list.header = header
        list.reloadData()
    }

    func numberOfRows(in list: ListView) -> Int { items.count }
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.titleLabel.text = items[row] }
}

@MainActor
@Suite("An app's host on a VT switch")
struct AppPauseTests {
    /// An app's list on an 800x480 card in memory, on a VT of its own, started and settled.
    static func started() throws -> (MemoryDRM, DRMDisplay, KioskHost, Shelf, MemoryTerminal, VirtualTimeDriver) {
        let memory = MemoryDRM(width: 800, height: 480)
        let display = try DRMDisplay(drm: memory)
        let host = try KioskHost.virtual(display: display)
        let shelf = try host.show { scene in Shelf(scene: scene) }
        let calls = MemoryTerminal()
        host.terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        return (memory, display, host, shelf, calls, time)
    }

    @Test("away: no frame reaches the card and DRM master is given up while the app's views go on; back: master, the mode set again, a full frame")
    func pauseAndResume() throws {
        let (memory, display, host, shelf, calls, time) = try Self.started()
        #expect(memory.flips > 0 && shelf.header.state == .idle)
        let (flips, modesets) = (memory.flips, memory.modesets)

        calls.switchPending = true
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        #expect(host.isPaused && display.isPaused && !memory.isMaster)
        // The views go on in memory: a refresh begun while away completes, nothing is flipped.
        shelf.header.beginRefreshing()
        time.settle()
        #expect(shelf.header.state == .idle && shelf.refreshes == 1 && shelf.items.first == "Fresh 1")
        #expect(memory.flips == flips && memory.modesets == modesets)

        calls.active = 1
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.settle()
        #expect(!host.isPaused && memory.isMaster)
        #expect(memory.modesets == modesets + 1, "the mode is set again: the console had the CRTC")
        #expect(calls.log.suffix(1) == ["acquire"])
    }

    @Test("a pull, a switch away and back, a pull: after each, the glass is what a whole frame draws")
    func glassAfterSwitch() throws {
        let (memory, _, host, shelf, calls, time) = try Self.started()
        func pull() {
            var script = GestureScript(start: host.now + 0.2)
            script.drag(from: Point(x: 400, y: 60), to: Point(x: 400, y: 400), duration: 0.4, hold: 0.1)
            time.play(script.frames)
            time.settle()
        }
        func expectWhole(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let differing = pixelsDifferingFromWholeFrame(on: memory) {
                host.stage.presenter.invalidate()
                host.stage.pump()
                time.settle()
            }
            #expect(differing == 0, "\(step): \(differing.map(String.init) ?? "no frame on the card") pixels differ from a whole frame", sourceLocation: sourceLocation)
        }
        try expectWhole("the first frame")
        pull()
        #expect(shelf.refreshes == 1)
        try expectWhole("a refresh")
        calls.switchPending = true
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.advance(by: 2)
        calls.active = 1
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.settle()
        #expect(!host.isPaused)
        try expectWhole("back from the switch")
        pull()
        #expect(shelf.refreshes == 2, "the pull after the switch refreshes")
        try expectWhole("a refresh after the switch")
    }

    @Test("a stray SIGUSR2 (no switch pending) keeps drawing, and without a VT it is ignored")
    func stray() throws {
        let memory = MemoryDRM(width: 800, height: 480)
        let host = try KioskHost.virtual(display: try DRMDisplay(drm: memory))
        _ = try host.show { scene in Shelf(scene: scene) }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        #expect(host.signal(SIGUSR2, at: host.now) == .handled && !host.isPaused)
        host.terminal = try VirtualTerminal(calls: MemoryTerminal(), device: (4, 1))
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        #expect(!host.isPaused && memory.isMaster)
    }

    @Test("SIGTERM stops an app cleanly: STOPPING=1, its hook, the display given back, the VT restored; exit 0")
    func stop() throws {
        let memory = MemoryDRM(width: 800, height: 480)
        let notifier = RecordingNotifier()
        let host = try KioskHost.virtual(display: try DRMDisplay(drm: memory), notifier: notifier)
        _ = try host.show { scene in Shelf(scene: scene) }
        let calls = MemoryTerminal()
        host.terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        var stopped = 0
        host.onStop = { stopped += 1 }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        let modesets = memory.modesets
        #expect(host.signal(SIGTERM, at: host.now) == .exit(0))
        #expect(stopped == 1 && notifier.messages.last == "STOPPING=1" && host.stage.isStopped)
        #expect(calls.log.suffix(2) == ["text", "auto"], "the VT back in text mode and automatic switching: \(calls.log)")
        #expect(memory.modesets == modesets + 1, "the CRTC set back as it was found")
    }
}
