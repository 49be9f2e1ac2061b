import Foundation
import Testing
@testable import PanelApp
import PanelDisplay
import PanelRefresh
import PanelRender

@MainActor
@Suite("Blanking, wake touch and frame timings")
struct BlankingTests {
    func runtime(blankAfter: Double, backlight: Backlight? = nil)
        throws -> (PanelRuntime, RecordingNotifier, ManualClock, HeadlessDisplay) {
        var configuration = Configuration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.locale = "en"
        configuration.blankAfter = blankAfter
        let display = HeadlessDisplay(width: 400, height: 240)
        let notifier = RecordingNotifier()
        let clock = ManualClock()
        let runtime = try PanelRuntime(configuration: configuration, display: display, fonts: try FontLibrary(), notifier: notifier,
                                       source: { SampleItemSource(pages: 3, delay: 0.5, animator: $0) }, clock: clock,
                                       backlight: backlight)
        return (runtime, notifier, clock, display)
    }

    /// The loop as the program runs it: pump at each wake-up, up to `until`.
    func run(_ runtime: PanelRuntime, _ clock: ManualClock, until end: Double) {
        (try? VirtualKiosk(runtime))?.run(until: end)
    }

    /// A temporary /sys/class/backlight entry.
    func backlightEntry(brightness: String = "180", max: String = "255") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("backlight-\(UUID().uuidString)/panel0").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(brightness.utf8).write(to: URL(fileURLWithPath: dir + "/brightness"))
        try Data(max.utf8).write(to: URL(fileURLWithPath: dir + "/max_brightness"))
        return dir
    }

    @Test("idle for blank-after seconds: panel and backlight off, STATUS says so; the wake-up is on the timer, not a poll")
    func blanks() throws {
        let entry = try backlightEntry()
        let (runtime, notifier, clock, display) = try runtime(blankAfter: 30, backlight: Backlight(path: entry))
        runtime.start()
        run(runtime, clock, until: 5)
        #expect(!display.isBlank)
        #expect(runtime.nextWakeUp == runtime.lastActivity + 30, "the only wake-up left is the blanking time")
        run(runtime, clock, until: runtime.lastActivity + 30)
        #expect(display.isBlank)
        #expect(notifier.messages.last == "STATUS=panel blank (touch to wake); 20 items")
        #expect(try fileText(entry + "/brightness") == "0")
        #expect(runtime.nextWakeUp == nil, "blank and idle: no wake-ups at all")
        let frames = display.framesPresented
        runtime.session!.list.contentOffset = Point(x: 0, y: 40)
        runtime.pump()
        #expect(display.framesPresented == frames, "nothing is drawn while the panel is off")
        #expect(runtime.nextWakeUp == nil, "the frame pass ran; nothing waits")
        runtime.stop()
        #expect(try fileText(entry + "/brightness") == "180", "stopping gives the backlight back")
    }

    @Test("the first touch on a blank panel wakes it and is neither a tap nor a pan; the next touch acts")
    func wakeTouch() throws {
        let entry = try backlightEntry()
        let (runtime, notifier, clock, display) = try runtime(blankAfter: 10, backlight: Backlight(path: entry))
        var pans = 0
        let previous = runtime.scene.dispatcher.onPan
        runtime.scene.dispatcher.onPan = { previous?($0); pans += 1 }
        runtime.start()
        run(runtime, clock, until: 30)
        #expect(display.isBlank)
        let framesBefore = display.framesPresented
        // A long drag down from the top: were it a pan, it would pull the header past its trigger.
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 10), to: Point(x: 200, y: 200), duration: 0.4, hold: 0.2)
        try VirtualKiosk(runtime).play(script.frames)
        run(runtime, clock, until: clock.now + 2)
        #expect(!display.isBlank)
        #expect(pans == 0, "the wake touch reached no recogniser")
        #expect(runtime.session!.header.state == .idle && runtime.session!.list.contentOffset.y == 0)
        #expect(display.framesPresented == framesBefore + 1, "one full frame on wake")
        #expect(display.lastDamage == [Rect(x: 0, y: 0, width: 400, height: 240)])
        #expect(try fileText(entry + "/brightness") == "180")
        #expect(notifier.messages.last == "STATUS=showing 20 items")
        // The next drag is an ordinary pan.
        var again = GestureScript(start: clock.now + 0.1)
        again.drag(from: Point(x: 200, y: 200), to: Point(x: 200, y: 60), duration: 0.3)
        try VirtualKiosk(runtime).play(again.frames)
        #expect(pans > 0)
    }

    @Test("new data wakes a blank panel; blank-after 0 never blanks")
    func dataWakes() throws {
        let (runtime, _, clock, display) = try self.runtime(blankAfter: 5)
        runtime.start()
        run(runtime, clock, until: 20)
        #expect(display.isBlank)
        runtime.session!.header.beginRefreshing()
        run(runtime, clock, until: 22)
        #expect(!display.isBlank, "the refreshed list is shown")
        let (never, _, neverClock, neverDisplay) = try self.runtime(blankAfter: 0)
        never.start()
        run(never, neverClock, until: 100_000)
        #expect(!neverDisplay.isBlank)
        #expect(never.nextWakeUp == nil)
    }

    @Test("frame statistics: percentiles by nearest rank, latency from the oldest touch, dropped frames counted")
    func statistics() {
        var stats = FrameStatistics(period: 0.016)
        // Back-to-back frames: each drawn as the one before was presented.
        var presented = 1.0
        for index in 0..<100 {
            let drawnAt = presented + 0.001
            // Frame 50 misses two vertical blanks.
            let next = drawnAt + (index == 50 ? 0.047 : 0.015)
            stats.record(FrameTiming(inputTime: drawnAt - Double(index + 1) / 1000, drawnAt: drawnAt, renderSeconds: 0.0005,
                                     presentedAt: next))
            presented = next
        }
        #expect(stats.frames == 100)
        #expect(stats.dropped == 2)
        #expect(stats.latencies.count == 100)
        #expect(abs((FrameStatistics.percentile(stats.latencies, 0.5) ?? 0) - 0.065) < 1e-9)
        #expect(FrameStatistics.percentile([], 0.5) == nil)
        #expect(FrameStatistics.percentile([3, 1, 2], 0.99) == 3)
        #expect(stats.summary.hasPrefix("frames 100, dropped 2; touch to glass p50 65.00 ms, p95"))
        // A frame drawn long after the last one (idle between) drops nothing.
        stats.record(FrameTiming(inputTime: nil, drawnAt: presented + 5, renderSeconds: 0.001, presentedAt: presented + 5.016))
        #expect(stats.dropped == 2)
    }

    @Test("run logs the timings every minute while touched; frames that answer a touch carry its latency")
    func timingsInRuntime() throws {
        let (runtime, _, clock, _) = try runtime(blankAfter: 0)
        runtime.start()
        run(runtime, clock, until: 3)
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 200), to: Point(x: 200, y: 100), duration: 0.2)
        try VirtualKiosk(runtime).play(script.frames)
        #expect(runtime.statistics.latencies.count > 5)
        // Headless frames are presented at the clock's now; a touch that moved nothing yet
        // (inside the slop) counts for the first frame that shows it.
        #expect(runtime.statistics.latencies.allSatisfy { $0 >= 0 && $0 < 0.2 })
        run(runtime, clock, until: 70)
        runtime.session!.list.contentOffset = Point(x: 0, y: 5)
        run(runtime, clock, until: 70)
        #expect(runtime.statistics.frames <= 1, "a minute later the window was logged and started again")
    }
}

@MainActor
@Suite("Host environment")
struct HostEnvironmentTests {
    @Test("the language and time zone come from the host the program hands down; appearance.locale wins")
    func handedDown() throws {
        var configuration = Configuration()
        configuration.stateDirectory = try scratchDirectory("state")
        let host = HostEnvironment(language: "ru_RU.UTF-8", utcOffset: { _ in 9 * 3600 })
        let runtime = try PanelRuntime(configuration: configuration, display: HeadlessDisplay(width: 400, height: 240),
                                       fonts: try FontLibrary(), notifier: RecordingNotifier(),
                                       source: { SampleItemSource(animator: $0) }, clock: ManualClock(), host: host)
        #expect(runtime.session!.header.localizer.language == .russian)
        let moment = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(runtime.session!.header.lastUpdatedFormatter.utcOffset(moment) == 9 * 3600)
        configuration.locale = "ko"
        let korean = try PanelRuntime(configuration: configuration, display: HeadlessDisplay(width: 400, height: 240),
                                      fonts: try FontLibrary(), notifier: RecordingNotifier(),
                                      source: { SampleItemSource(animator: $0) }, clock: ManualClock(), host: host)
        #expect(korean.session!.header.localizer.language == .korean)
        // Without a host: English and UTC, whatever the machine says.
        let neutral = try PanelRuntime(configuration: Configuration(), display: HeadlessDisplay(width: 400, height: 240),
                                       fonts: try FontLibrary(), notifier: RecordingNotifier(),
                                       source: { SampleItemSource(animator: $0) }, clock: ManualClock())
        #expect(neutral.session!.header.localizer.language == .english)
        #expect(neutral.session!.header.lastUpdatedFormatter.utcOffset(moment) == 0)
    }

    @Test("the host's offset is the C library's local time: the same as Foundation's time zone says, summer and winter")
    func localTime() {
        let host = HostEnvironment.read()
        for seconds in [1_767_225_600.0, 1_782_864_000, 0, 2_000_000_000] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(host.utcOffset(date) == TimeZone.current.secondsFromGMT(for: date))
        }
    }
}
