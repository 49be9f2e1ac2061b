import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay
import PanelUI

@MainActor
final class RecordingNotifier: ServiceNotifier {
    var messages: [String] = []
    var watchdogInterval: Double? = 10
    func notify(_ assignment: String) { messages.append(assignment) }
}

/// A source that fails, for the STATUS path.
@MainActor
final class FailingSource: ItemSource {
    func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        completion(.failure(DataSourceError.unreachable(source: "http://panel/items", reason: "connection refused")))
    }
}

@MainActor
@Suite("Runtime")
struct RuntimeTests {
    func kiosk(source: @escaping (Animator) -> any ItemSource) throws -> (VirtualKiosk, RecordingNotifier, HeadlessDisplay) {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.locale = "en"
        // Idle means no wake-ups here: the list's return to its start (its own tests) is off.
        configuration.homeAfter = 0
        let display = HeadlessDisplay(width: 400, height: 240)
        let notifier = RecordingNotifier()
        return (try VirtualKiosk(configuration: configuration, display: display, notifier: notifier, source: source), notifier, display)
    }

    @Test("READY=1 after the first frame; the first page loads; then no wake-ups while idle")
    func startup() throws {
        let (kiosk, notifier, display) = try kiosk { SampleItemSource(pages: 2, delay: 1, animator: $0) }
        #expect(!notifier.messages.contains("READY=1"))
        kiosk.start()
        #expect(notifier.messages.filter { $0 == "READY=1" }.count == 1)
        #expect(display.framesPresented == 1, "READY=1 came with the first presented frame")
        #expect(notifier.messages.contains("STATUS=refreshing"))
        kiosk.settle()
        #expect(kiosk.list.items.count == 20)
        #expect(notifier.messages.contains("STATUS=showing 20 items"))
        #expect(kiosk.host.nextWakeUp == nil, "idle: the loop sleeps until input")
        let frames = display.framesPresented
        kiosk.wait(60)
        #expect(display.framesPresented == frames)
    }

    @Test("frames started late on a paced display: a drag's frames start the window before their vblanks, none missed; idle, no wake-ups")
    func lateStartIdle() throws {
        let (kiosk, _, display) = try kiosk { SampleItemSource(pages: 2, delay: 1, animator: $0) }
        let clock = kiosk.clock
        display.pacing = (1.0 / 60, { clock.now })
        display.vblankPhase = 0
        kiosk.stage.presenter.scheduler = FrameScheduler(period: 1.0 / 60, phase: 0, mode: .fixed(0.005))
        var starts: [Double] = []
        let drawn = kiosk.stage.presenter.onFrameDrawn
        kiosk.stage.presenter.onFrameDrawn = { starts.append(clock.now); drawn?() }
        kiosk.start()
        #expect(kiosk.settle())
        #expect(kiosk.host.nextWakeUp == nil, "idle: the loop sleeps until input")
        starts.removeAll()
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 200), to: Point(x: 200, y: 80), duration: 0.4, hold: 0.1)
        kiosk.play(script.frames)
        #expect(kiosk.settle())
        #expect(starts.count > 20, "\(starts.count) frames")
        // Each frame drawn 5 ms before a vblank: its start plus the window is on the grid.
        for start in starts {
            let vblanks = (start + 0.005) * 60
            #expect(abs(vblanks - vblanks.rounded()) < 1e-6, "a frame started at \(start)")
        }
        #expect(kiosk.stage.presenter.missedVblanks == 0)
        // The statistics SIGUSR1 logs: the drag's frames flipped a period apart, none missed.
        let statistics = kiosk.stage.statistics
        #expect(statistics.flipIntervals.count > 20 && statistics.flipIntervals.allSatisfy { abs($0 - 1.0 / 60) < 1e-6 }, "\(statistics.flipIntervals)")
        #expect(statistics.missedVblanks == 0 && statistics.summary.contains("flips p50 16.67 ms apart, p95 16.67 ms"), "\(statistics.summary)")
        #expect(statistics.summary.hasSuffix("0 vblanks missed"), "\(statistics.summary)")
        // Sample to glass: the window plus the screen's delay, on every frame that sampled.
        let sampled = kiosk.stage.sampleToGlass
        #expect(sampled.count > 20, "\(sampled.count) frames sampled")
        #expect((sampled.mean ?? 0) >= 0.005 && (sampled.mean ?? 1) <= 0.005 + 0.041, "sample to glass \(sampled.mean ?? -1) s")
        let metrics = MetricsExposition.prometheus.render(kiosk.kiosk.status(memory: false))
        #expect(metrics.contains("panel_refresh_sample_to_glass_seconds_count \(sampled.count)"), "\(metrics)")
        #expect(kiosk.host.nextWakeUp == nil, "idle again after the drag: no wake-ups")
        let frames = display.framesPresented
        kiosk.wait(60)
        #expect(display.framesPresented == frames)
    }

    @Test("a failing source: the failure in STATUS, the list kept, the header back to idle after its dwell")
    func failure() throws {
        let (kiosk, notifier, _) = try kiosk { _ in FailingSource() }
        kiosk.list.showFirstPage()
        kiosk.start()
        kiosk.settle()
        #expect(notifier.messages.contains { $0.hasPrefix("STATUS=last refresh failed: http://panel/items is unreachable") })
        #expect(kiosk.list.items.count == 20)
        #expect(kiosk.list.header.state == .idle)
    }

    @Test("touches drive the list; stop says STOPPING=1 once and draws nothing more")
    func touchesAndStop() throws {
        let (kiosk, notifier, display) = try kiosk { SampleItemSource(pages: 5, delay: 0.5, animator: $0) }
        kiosk.start()
        kiosk.settle()
        var script = GestureScript(start: kiosk.clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 220), to: Point(x: 200, y: 40), duration: 0.2, hold: 0.1)
        kiosk.play(script.frames)
        kiosk.settle()
        #expect(kiosk.list.list.contentOffset.y > 100)
        kiosk.host.watchdog()
        #expect(notifier.messages.contains("WATCHDOG=1"))
        kiosk.host.stop()
        kiosk.host.stop()
        #expect(notifier.messages.filter { $0 == "STOPPING=1" }.count == 1)
        let frames = display.framesPresented
        kiosk.list.list.contentOffset = .zero
        kiosk.stage.pump()
        #expect(display.framesPresented == frames)
    }

    @Test("command-line options override the configuration and are checked the same way; the table refuses what it does not declare")
    func options() throws {
        let run = try #require(CommandHelp.named("run"))
        var configuration = KioskConfiguration()
        let parsed = try run.parse(["--device", "/dev/input/event5", "--set", "data.page-size=5", "--rotation", "180",
                                    "--screen", "1024x600", "--device", "/dev/input/event6"])
        try RunCommand.apply(parsed, to: &configuration)
        #expect(configuration.devices == ["/dev/input/event5", "/dev/input/event6"] && configuration.pageSize == 5)
        #expect(configuration.displayRotation == .upsideDown && configuration.rotation == .none && configuration.mode?.width == 1024 && configuration.headlessSize.height == 600)
        #expect(throws: ConfigurationError(file: "command line", line: 0, message: "data.page-size: \"0\" is not a whole number from 1 to 1000")) {
            try RunCommand.apply(try run.parse(["--set", "data.page-size=0"]), to: &configuration)
        }
        #expect(throws: UsageError("unknown option \"--extra\" for run")) { try run.parse(["--extra"]) }
        #expect(throws: UsageError("--screen needs WxH")) { try run.parse(["--screen"]) }
        #expect(throws: UsageError("--rotation given twice")) { try run.parse(["--rotation", "90", "--rotation", "180"]) }
        #expect(throws: UsageError("unexpected \"stray\"")) { try run.parse(["stray"]) }
        let replay = try #require(CommandHelp.named("replay"))
        #expect(throws: UsageError("replay needs FILE")) { try replay.parse(["--trace"]) }
        let parsedReplay = try replay.parse(["swipe.evemu", "--rotation", "270", "--trace"])
        #expect(parsedReplay.positional("FILE") == "swipe.evemu" && parsedReplay.isSet("--trace") && !parsedReplay.isSet("--timings"))
        #expect(try parsedReplay.rotation() == .clockwise270)
        #expect(throws: UsageError("bad rotation \"45\": want 0, 90, 180 or 270")) { try replay.parse(["f", "--rotation", "45"]).rotation() }
    }

    @Test("with no DRM card and no framebuffer, auto says why for both")
    func noDisplay() {
        var configuration = KioskConfiguration()
        configuration.card = "/nonexistent/card0"
        configuration.framebuffer = "/nonexistent/fb0"
        do {
            _ = try configuration.host.openDisplay()
            Issue.record("found a display")
        } catch let DisplayError.noDisplay(reasons) {
            #expect(reasons.contains("DRM:") && reasons.contains("fbdev:") && reasons.contains("/nonexistent/fb0"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@MainActor
@Suite("Live demo")
struct LiveDemoTests {
    @Test("the live demo plays the whole session on a display, its script scheduled on the host, here in virtual time")
    func live() throws {
        let display = HeadlessDisplay(width: 320, height: 200)
        let notifier = RecordingNotifier()
        let clock = ManualClock(now: 100)
        let kiosk = try LiveDemo.kiosk(display: display, fonts: try FontLibrary(), notifier: notifier, clock: clock,
                                       executor: VirtualExecutor(clock: clock))
        let host = kiosk.host
        let time = VirtualTimeDriver(host)
        kiosk.start(at: clock.now)
        #expect(host.hasScript)
        #expect(time.settle(limit: 60), "the script ends and everything settles")
        let session = kiosk.list
        #expect(!host.hasScript)
        #expect(session.items.count == 60)
        #expect(session.footer.state == .noMoreData)
        #expect(session.trace.contains { if case let .refresh(_, c) = $0 { return c == "header" }; return false })
        #expect(notifier.messages.contains("READY=1"))
        #expect(display.framesPresented > 100)
        #expect(clock.now - 100 < 40, "the script of 16 swipes takes some 30 s of its clock")
    }
}
