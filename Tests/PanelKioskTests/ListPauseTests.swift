import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("The kiosk's list on a VT switch")
struct ListPauseTests {
    /// A kiosk on an 800x480 card in memory, on a VT of its own, refreshing in half a second,
    /// started and settled on its first page.
    static func started() throws -> (MemoryDRM, DRMDisplay, Kiosk, MemoryTerminal, VirtualTimeDriver) {
        let memory = MemoryDRM(width: 800, height: 480)
        let display = try DRMDisplay(drm: memory)
        var configuration = KioskConfiguration()
        configuration.refreshSeconds = 0.5
        let kiosk = try Kiosk.virtual(configuration: configuration, display: display)
        let calls = MemoryTerminal()
        kiosk.host.terminal = try VirtualTerminal(calls: calls, device: (4, 1))
        let time = VirtualTimeDriver(kiosk.host)
        kiosk.start(at: 0)
        time.settle()
        return (memory, display, kiosk, calls, time)
    }

    @Test("away: no frame reaches the card and DRM master is given up while the list goes on; back: master, the mode set again, a full frame")
    func pauseAndResume() throws {
        let (memory, display, kiosk, calls, time) = try Self.started()
        let host = kiosk.host, session = kiosk.list
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
        let (memory, _, kiosk, calls, time) = try Self.started()
        let host = kiosk.host, session = kiosk.list
        func refreshes() -> Int { session.trace.filter { if case .refresh = $0 { true } else { false } }.count }
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
        let kiosk = try Kiosk.virtual(display: try DRMDisplay(drm: memory))
        let host = kiosk.host
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        time.settle()
        #expect(host.signal(SIGUSR2, at: host.now) == .handled && !host.isPaused)
        host.terminal = try VirtualTerminal(calls: MemoryTerminal(), device: (4, 1))
        #expect(host.signal(SIGUSR2, at: host.now) == .handled)
        #expect(!host.isPaused && memory.isMaster)
    }
}
