import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("Blanking, wake touch and frame timings")
struct BlankingTests {
    /// A kiosk blanking after `blankAfter` seconds with the backlight entry `backlight` (a
    /// folder standing for /sys/class/backlight/NAME).
    func kiosk(blankAfter: Double, backlight: String? = nil) throws -> (VirtualKiosk, RecordingNotifier, HeadlessDisplay) {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.locale = "en"
        configuration.blankAfter = blankAfter
        let display = HeadlessDisplay(width: 400, height: 240)
        let notifier = RecordingNotifier()
        let kiosk = try VirtualKiosk(configuration: configuration, display: display, notifier: notifier,
                                     backlights: backlight.map { String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) }) { _, animator, _ in
            SampleItemSource(pages: 3, delay: 0.5, animator: animator)
        }
        return (kiosk, notifier, display)
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
        let (kiosk, notifier, display) = try kiosk(blankAfter: 30, backlight: entry)
        let stage = kiosk.stage
        kiosk.start()
        kiosk.run(until: 5)
        #expect(!display.isBlank)
        #expect(stage.nextWakeUp == stage.lastActivity + 30, "the only wake-up left is the blanking time")
        kiosk.run(until: stage.lastActivity + 30)
        #expect(display.isBlank)
        #expect(notifier.messages.last == "STATUS=panel blank (touch to wake); 20 items")
        #expect(try fileText(entry + "/brightness") == "0")
        #expect(stage.nextWakeUp == nil, "blank and idle: no wake-ups at all")
        let frames = display.framesPresented
        kiosk.list.list.contentOffset = Point(x: 0, y: 40)
        stage.pump()
        #expect(display.framesPresented == frames, "nothing is drawn while the panel is off")
        #expect(stage.nextWakeUp == nil, "the frame pass ran; nothing waits")
        kiosk.host.stop()
        #expect(try fileText(entry + "/brightness") == "180", "stopping gives the backlight back")
    }

    @Test("the first touch on a blank panel wakes it and is neither a tap nor a pan; the next touch acts")
    func wakeTouch() throws {
        let entry = try backlightEntry()
        let (kiosk, notifier, display) = try kiosk(blankAfter: 10, backlight: entry)
        let clock = kiosk.clock
        var pans = 0
        let previous = kiosk.stage.scene.dispatcher.onPan
        kiosk.stage.scene.dispatcher.onPan = { previous?($0); pans += 1 }
        kiosk.start()
        kiosk.run(until: 30)
        #expect(display.isBlank)
        let framesBefore = display.framesPresented
        // A long drag down from the top: were it a pan, it would pull the header past its trigger.
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 10), to: Point(x: 200, y: 200), duration: 0.4, hold: 0.2)
        kiosk.play(script.frames)
        kiosk.run(until: clock.now + 2)
        #expect(!display.isBlank)
        #expect(pans == 0, "the wake touch reached no recogniser")
        #expect(kiosk.list.header.state == .idle && kiosk.list.list.contentOffset.y == 0)
        #expect(display.framesPresented == framesBefore + 1, "one full frame on wake")
        #expect(display.lastDamage == [Rect(x: 0, y: 0, width: 400, height: 240)])
        #expect(try fileText(entry + "/brightness") == "180")
        #expect(notifier.messages.last == "STATUS=showing 20 items")
        // The next drag is an ordinary pan.
        var again = GestureScript(start: clock.now + 0.1)
        again.drag(from: Point(x: 200, y: 200), to: Point(x: 200, y: 60), duration: 0.3)
        kiosk.play(again.frames)
        #expect(pans > 0)
    }

    @Test("new data wakes a blank panel; blank-after 0 never blanks")
    func dataWakes() throws {
        let (kiosk, _, display) = try self.kiosk(blankAfter: 5)
        kiosk.start()
        kiosk.run(until: 20)
        #expect(display.isBlank)
        kiosk.list.header.beginRefreshing()
        kiosk.run(until: 22)
        #expect(!display.isBlank, "the refreshed list is shown")
        let (never, _, neverDisplay) = try self.kiosk(blankAfter: 0)
        never.start()
        never.run(until: 100_000)
        #expect(!neverDisplay.isBlank)
        #expect(never.host.nextWakeUp == nil)
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
        let (kiosk, _, _) = try self.kiosk(blankAfter: 0)
        let stage = kiosk.stage
        kiosk.start()
        kiosk.run(until: 3)
        var script = GestureScript(start: kiosk.clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 200), to: Point(x: 200, y: 100), duration: 0.2)
        kiosk.play(script.frames)
        #expect(stage.statistics.latencies.count > 5)
        // Headless frames are presented at the clock's now; a touch that moved nothing yet
        // (inside the slop) counts for the first frame that shows it.
        #expect(stage.statistics.latencies.allSatisfy { $0 >= 0 && $0 < 0.2 })
        kiosk.run(until: 70)
        kiosk.list.list.contentOffset = Point(x: 0, y: 5)
        kiosk.run(until: 70)
        #expect(stage.statistics.frames <= 1, "a minute later the window was logged and started again")
    }
}

@MainActor
@Suite("The machine's environment")
struct MachineEnvironmentTests {
    @Test("the language and time zone come from the machine's environment handed down; appearance.locale wins")
    func handedDown() throws {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        let machine = MachineEnvironment(language: "ru_RU.UTF-8", utcOffset: { _ in 9 * 3600 })
        let russian = try VirtualKiosk(configuration: configuration, machine: machine) { _, animator, _ in SampleItemSource(animator: animator) }
        #expect(russian.list.header.localizer.language == .russian)
        let moment = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(russian.list.header.lastUpdatedFormatter.utcOffset(moment) == 9 * 3600)
        configuration.locale = "ko"
        let korean = try VirtualKiosk(configuration: configuration, machine: machine) { _, animator, _ in SampleItemSource(animator: animator) }
        #expect(korean.list.header.localizer.language == .korean)
        // Without one: English and UTC, whatever the machine says.
        let neutral = try VirtualKiosk { _, animator, _ in SampleItemSource(animator: animator) }
        #expect(neutral.list.header.localizer.language == .english)
        #expect(neutral.list.header.lastUpdatedFormatter.utcOffset(moment) == 0)
    }

    @Test("the machine's offset is the C library's local time: the same as Foundation's time zone says, summer and winter")
    func localTime() {
        let machine = MachineEnvironment.read()
        for seconds in [1_767_225_600.0, 1_782_864_000, 0, 2_000_000_000] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(machine.utcOffset(date) == TimeZone.current.secondsFromGMT(for: date))
        }
    }
}
