import Glibc
import Testing
import PanelApp
import PanelDisplay
import PanelRefresh

/// A VT in memory: what the kernel would answer, and what was asked of it.
final class FakeTerminal: TerminalCalls {
    var log: [String] = []
    /// Whether a switch away waits for VT_RELDISP.
    var switchPending = false
    /// The VT in front.
    var active: Int32 = 1
    var graphics = false
    var refuseModes = false

    func setGraphics(_ fd: Int32, _ graphics: Bool) -> Int32 {
        log.append(graphics ? "graphics" : "text")
        if refuseModes { return -1 }
        self.graphics = graphics
        return 0
    }
    func graphicsMode(_ fd: Int32) -> Int32 { graphics ? 1 : 0 }
    func setProcessMode(_ fd: Int32, _ process: Bool, signal: Int32) -> Int32 {
        log.append(process ? "process \(signal)" : "auto")
        return refuseModes ? -1 : 0
    }
    func release(_ fd: Int32) -> Int32 {
        log.append("release")
        guard switchPending else { return -1 }
        switchPending = false
        active = 2
        return 0
    }
    func acknowledgeAcquire(_ fd: Int32) -> Int32 {
        log.append("acquire")
        return 0
    }
    func activeTerminal(_ fd: Int32) -> Int32 { active }
}

@MainActor
@Suite("The VT on the groups path")
struct VirtualTerminalTests {
    @Test("taken: graphics mode and process switching on SIGUSR2; restored: text mode and automatic switching, once")
    func takeAndRestore() throws {
        let calls = FakeTerminal()
        let terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        #expect(terminal.number == 1 && terminal.isHeld && terminal.isGraphics)
        #expect(calls.log == ["process \(SIGUSR2)", "graphics"])
        terminal.restore()
        terminal.restore()
        #expect(calls.log == ["process \(SIGUSR2)", "graphics", "text", "auto"])
    }

    @Test("only a virtual terminal is taken: not the console, a serial line or a pseudo-terminal", arguments: [(4, 0), (4, 64), (136, 3), (1, 3)])
    func notAVirtualTerminal(device: (UInt32, UInt32)) {
        #expect(throws: TerminalError.self) { try VirtualTerminal(calls: FakeTerminal(), device: device) }
    }

    @Test("a VT that refuses the modes (not the controlling terminal) is an error, and left in automatic switching")
    func refused() {
        let calls = FakeTerminal()
        calls.refuseModes = true
        #expect(throws: TerminalError.self) { try VirtualTerminal(calls: calls, device: (4, 1)) }
    }

    @Test("a switch away stops drawing before it is allowed; back in front it is acknowledged; a stray signal changes nothing")
    func switches() throws {
        let calls = FakeTerminal()
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

@MainActor
@Suite("The kiosk host on a VT switch")
struct HostPauseTests {
    /// A kiosk on an 800x480 card in memory, on a VT of its own, refreshing in half a second,
    /// started and settled on its first page.
    static func started() throws -> (MemoryDRM, DRMDisplay, KioskHost, FakeTerminal, VirtualTimeDriver) {
        let memory = MemoryDRM(width: 800, height: 480)
        let display = try DRMDisplay(drm: memory)
        var configuration = Configuration()
        configuration.refreshSeconds = 0.5
        let host = try KioskHost.virtual(configuration: configuration, display: display)
        let calls = FakeTerminal()
        host.terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        return (memory, display, host, calls, time)
    }

    @Test("away: no frame reaches the card and DRM master is given up while the list goes on; back: master, the mode set again, a full frame")
    func pauseAndResume() throws {
        let (memory, display, host, calls, time) = try Self.started()
        let session = try #require(host.runtime.session)
        #expect(memory.flips > 0 && session.header.state == .idle)
        let (flips, modesets) = (memory.flips, memory.modesets)
        func refreshes() -> Int { session.trace.filter { if case .refresh = $0 { true } else { false } }.count }
        let loads = refreshes()

        calls.switchPending = true
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        #expect(host.isPaused && display.isPaused && !memory.isMaster)
        // The list goes on in memory: a refresh begun while away completes, nothing is flipped.
        session.header.beginRefreshing()
        time.settle()
        #expect(session.header.state == .idle && refreshes() == loads + 1)
        #expect(memory.flips == flips && memory.modesets == modesets)

        calls.active = 1
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.settle()
        #expect(!host.isPaused && memory.isMaster)
        #expect(memory.modesets == modesets + 1, "the mode is set again: the console had the CRTC")
        #expect(calls.log.suffix(1) == ["acquire"])
    }

    /// The level-2 VM check's scenario (scripts/vm/level2-check, `vt_switch`) in virtual time:
    /// after each step the glass must equal a frame drawn whole, so damage the frame pass
    /// missed, or a buffer the switch left stale, shows as a difference.
    @Test("refreshes, a switch away and back, a pull: after each, the glass is what a whole frame draws")
    func glassAfterSwitch() throws {
        let (memory, _, host, calls, time) = try Self.started()
        let session = try #require(host.runtime.session)
        func refreshes() -> Int { session.trace.filter { if case .refresh = $0 { true } else { false } }.count }
        func pull() {
            var script = GestureScript(start: host.now + 0.2)
            script.drag(from: Point(x: 400, y: 60), to: Point(x: 400, y: 400), duration: 0.4, hold: 0.1)
            time.play(script.frames)
            time.settle()
        }
        func expectWhole(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let shown = try #require(memory.glassPixels(), sourceLocation: sourceLocation)
            host.runtime.driver.invalidate()
            host.runtime.pump()
            time.settle()
            let whole = try #require(memory.glassPixels(), sourceLocation: sourceLocation)
            let differing = zip(shown, whole).count { $0 != $1 }
            #expect(differing == 0, "\(step): \(differing) pixels differ from a whole frame", sourceLocation: sourceLocation)
        }
        try expectWhole("the first page")
        let loads = refreshes()
        pull()
        #expect(refreshes() == loads + 1)
        try expectWhole("a refresh")
        pull()
        try expectWhole("a second refresh")

        calls.switchPending = true
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.advance(by: 2)
        calls.active = 1
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        time.settle()
        #expect(!host.isPaused)
        try expectWhole("back from the switch")
        pull()
        #expect(refreshes() == loads + 3, "the pull after the switch refreshes")
        try expectWhole("a refresh after the switch")
    }

    @Test("a stray SIGUSR2 (no switch pending) keeps drawing, and without a VT it is ignored")
    func stray() throws {
        let memory = MemoryDRM(width: 800, height: 480)
        let host = try KioskHost.virtual(configuration: Configuration(), display: try DRMDisplay(drm: memory))
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        #expect(host.signal(SIGUSR2, at: host.now) == .handled && !host.isPaused)
        host.terminal = try VirtualTerminal(calls: FakeTerminal(), device: (4, 1))
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        #expect(!host.isPaused && memory.isMaster)
    }
}
