import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// Central European time as the C library gives it for 2026: UTC+1, and UTC+2 from 29 March
/// 01:00 UTC to 25 October 01:00 UTC.
let berlin2026: @Sendable (Date) -> Int = { date in
    let t = date.timeIntervalSince1970
    return t >= 1_774_746_000 && t < 1_792_890_000 ? 7_200 : 3_600
}

/// The calendar a test sets, as the system clock would be set under a running panel.
final class SettableCalendar: @unchecked Sendable {
    var epoch: Double
    init(_ epoch: Double) { self.epoch = epoch }
}

@MainActor
@Suite("The light over the day: levels, dimming, night and off hours on the panel's clock")
struct LightScheduleTests {
    /// A kiosk in Berlin's time, its clock at 0 on `epoch` (Unix time), with a backlight entry
    /// of `max_brightness` 255 found at 180.
    func kiosk(epoch: Double, _ set: (inout KioskConfiguration) -> Void) throws -> (VirtualKiosk, RecordingNotifier, HeadlessDisplay, String) {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.locale = "en"
        set(&configuration)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("backlight-\(UUID().uuidString)/panel0").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("180".utf8).write(to: URL(fileURLWithPath: dir + "/brightness"))
        try Data("255".utf8).write(to: URL(fileURLWithPath: dir + "/max_brightness"))
        let display = HeadlessDisplay(width: 400, height: 240)
        let notifier = RecordingNotifier()
        var machine = MachineEnvironment.neutral
        machine.utcOffset = berlin2026
        let kiosk = try VirtualKiosk(configuration: configuration, display: display, notifier: notifier, machine: machine,
                                     backlights: String(dir[..<(dir.lastIndex(of: "/") ?? dir.endIndex)])) { _, animator, _ in
            SampleItemSource(pages: 3, delay: 0.5, animator: animator)
        }
        kiosk.clock.epoch = Date(timeIntervalSince1970: epoch)
        return (kiosk, notifier, display, dir)
    }

    /// The clock's time at the calendar time `unix`.
    func at(_ kiosk: VirtualKiosk, _ unix: Double) -> Double { unix - kiosk.clock.epoch.timeIntervalSince1970 }

    func brightness(_ entry: String) throws -> String { try fileText(entry + "/brightness") }

    /// A tap in the middle of the list.
    func touch(_ kiosk: VirtualKiosk) {
        var script = GestureScript(start: kiosk.clock.now + 0.01)
        script.tap(at: Point(x: 200, y: 150))
        kiosk.play(script.frames)
    }

    @Test("a day in virtual time: lit by day, dimmed when idle, the night's level, off for the off hours, on again after them; the loop wakes only at the changes")
    func aDay() throws {
        // 15 January 2026, 13:00 in Berlin (12:00 UTC).
        let noon = 1_768_478_400.0
        let (kiosk, notifier, display, entry) = try kiosk(epoch: noon) {
            $0.light.brightness = 80
            $0.light.dimAfter = 60
            $0.light.dimBrightness = 20
            $0.light.night = DayHours("22:00-06:30")
            $0.light.nightBrightness = 30
            $0.light.offHours = DayHours("00:00-05:00")
        }
        let stage = kiosk.stage
        kiosk.start()
        kiosk.run(until: 5)
        #expect(try brightness(entry) == "204", "80 % of 255")
        #expect(stage.lightStatus.state == "lit" && stage.lightStatus.brightness == 80)
        kiosk.run(until: stage.lastActivity + 60.5)
        #expect(try brightness(entry) == "51", "dimmed to 20 % after a minute idle")
        #expect(stage.lightStatus.state == "dimmed")
        // Dimmed and idle: the next wake-up is 22:00 in Berlin (21:00 UTC), the night's start.
        #expect(abs((stage.nextWakeUp ?? 0) - at(kiosk, noon + 9 * 3_600)) < 0.01)
        // A touch lights it at the day's level; the touch is not swallowed (the panel was on).
        var taps = 0
        let previous = stage.scene.dispatcher.onTap
        stage.scene.dispatcher.onTap = { previous?($0, $1); taps += 1 }
        touch(kiosk)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(try brightness(entry) == "204")
        #expect(taps == 1, "a dimmed panel's touch acts")
        // 22:30: dimmed still (20 % is below the night's 30 %); a touch lights it at the night's level.
        kiosk.run(until: at(kiosk, noon + 9.5 * 3_600))
        #expect(try brightness(entry) == "51")
        touch(kiosk)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(try brightness(entry) == "77", "30 % of 255 at night")
        // Midnight: off for the off hours, and new data does not light it.
        kiosk.run(until: at(kiosk, noon + 11 * 3_600 + 1))
        #expect(display.isBlank)
        #expect(try brightness(entry) == "0")
        #expect(stage.lightStatus.off == .offHours)
        #expect(notifier.messages.last == "STATUS=panel off for the off hours (touch to light it); 20 items")
        stage.activity(wakes: true)
        stage.pump()
        #expect(display.isBlank, "new data at night lights nobody's hallway")
        // 02:00: a touch lights it (and is swallowed, as on any dark panel); idle a minute, it is off again.
        kiosk.run(until: at(kiosk, noon + 13 * 3_600))
        touch(kiosk)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(!display.isBlank)
        #expect(try brightness(entry) == "77")
        #expect(taps == 2, "the touch that lit a dark panel is not a tap")
        kiosk.run(until: kiosk.clock.now + 60)
        #expect(display.isBlank, "lit by a touch in the off hours, off again once idle for a minute")
        // While off, the only wake-up is the end of the off hours: 05:00 (04:00 UTC).
        #expect(abs((stage.nextWakeUp ?? 0) - at(kiosk, noon + 16 * 3_600)) < 0.01)
        kiosk.run(until: at(kiosk, noon + 16 * 3_600 + 1))
        #expect(!display.isBlank, "the off hours ended")
        #expect(try brightness(entry) == "77", "night's level until 06:30")
        kiosk.run(until: at(kiosk, noon + 16 * 3_600 + 62))
        #expect(try brightness(entry) == "51")
        // 06:30: day again; dimmed it stays until a touch.
        kiosk.run(until: at(kiosk, noon + 17.5 * 3_600 + 1))
        #expect(try brightness(entry) == "51")
        touch(kiosk)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(try brightness(entry) == "204")
        kiosk.host.stop()
        #expect(try brightness(entry) == "180", "stopping gives the backlight back as it was found")
    }

    @Test("the off hours follow daylight saving: 00:00-05:00 ends at 03:00 UTC on the night clocks go forward, at 04:00 UTC on the night they go back")
    func daylightSaving() throws {
        // 28 March 2026, 13:00 CET; the clocks go forward at 01:00 UTC on the 29th.
        let spring = 1_774_699_200.0
        let (a, _, displayA, _) = try kiosk(epoch: spring) { $0.light.offHours = DayHours("00:00-05:00") }
        a.start()
        a.run(until: at(a, spring + 11 * 3_600 - 10))
        #expect(!displayA.isBlank, "23:59:50 CET")
        a.run(until: at(a, spring + 11 * 3_600 + 1))
        #expect(displayA.isBlank, "midnight CET")
        a.run(until: at(a, spring + 15 * 3_600 - 10))
        #expect(displayA.isBlank, "04:59:50 CEST is 02:59:50 UTC")
        a.run(until: at(a, spring + 15 * 3_600 + 1))
        #expect(!displayA.isBlank, "05:00 CEST is 03:00 UTC")

        // 24 October 2026, 14:00 CEST; the clocks go back at 01:00 UTC on the 25th.
        let autumn = 1_792_843_200.0
        let (b, _, displayB, _) = try kiosk(epoch: autumn) { $0.light.offHours = DayHours("00:00-05:00") }
        b.start()
        b.run(until: at(b, autumn + 10 * 3_600 + 1))
        #expect(displayB.isBlank, "midnight CEST is 22:00 UTC")
        b.run(until: at(b, autumn + 16 * 3_600 - 10))
        #expect(displayB.isBlank, "04:59:50 CET is 03:59:50 UTC")
        b.run(until: at(b, autumn + 16 * 3_600 + 1))
        #expect(!displayB.isBlank, "05:00 CET is 04:00 UTC")
    }

    @Test("a clock step moves the schedule with it: set forward into the off hours the panel goes off at once, set back it comes on")
    func clockStep() throws {
        let noon = 1_768_478_400.0
        let (kiosk, _, display, _) = try kiosk(epoch: noon) { $0.light.offHours = DayHours("00:00-05:00") }
        let calendar = SettableCalendar(noon)
        kiosk.host.calendar = { calendar.epoch }
        kiosk.start()
        kiosk.run(until: 3_600)
        #expect(!display.isBlank, "14:00")
        // NTP sets the clock 10 hours later: 00:00:00+ in Berlin.
        calendar.epoch += 10 * 3_600 + 5
        kiosk.host.tick(at: kiosk.clock.now + 0.01)
        // (The header's time moved with the calendar: that frame is drawn first.)
        kiosk.run(until: kiosk.clock.now + 0.5)
        #expect(display.isBlank, "past midnight on the new calendar")
        // And back: 14:00 again.
        calendar.epoch -= 10 * 3_600 + 5
        kiosk.host.tick(at: kiosk.clock.now + 0.01)
        #expect(!display.isBlank, "the off hours are over on the calendar set back")
    }

    @Test("ctl brightness holds until the night begins; ctl schedule off lights a panel off for the off hours, and status and metrics say how it is lit")
    func control() throws {
        let noon = 1_768_478_400.0
        let (kiosk, _, display, entry) = try kiosk(epoch: noon) {
            $0.light.night = DayHours("22:00-06:30")
            $0.light.offHours = DayHours("00:00-05:00")
        }
        kiosk.start()
        kiosk.run(until: 5)
        #expect(try brightness(entry) == "255")
        var replies: [ControlReply] = []
        kiosk.kiosk.request(.brightness(40)) { replies.append($0) }
        #expect(try brightness(entry) == "102")
        #expect(replies.last == .ok(Array("brightness 40 % until the night hours begin or end\n".utf8)))
        let status = kiosk.kiosk.status()
        #expect(status.json.contains(#""light":{"brightness":40,"brightnessSet":40,"nextChange":"2026-01-15T21:00:00Z","off":null,"schedule":"night 22:00-06:30 at 30 %, off 00:00-05:00","scheduleOn":true,"state":"lit"}"#))
        let metrics = MetricsExposition.prometheus.render(status)
        #expect(metrics.contains("panel_refresh_brightness_percent 40\n"))
        #expect(metrics.contains("panel_refresh_light{state=\"lit\"} 1\n"))
        kiosk.run(until: at(kiosk, noon + 9 * 3_600 + 1))
        #expect(try brightness(entry) == "77", "the night took over from the level set by hand")
        kiosk.run(until: at(kiosk, noon + 11 * 3_600 + 1))
        #expect(display.isBlank)
        #expect(MetricsExposition.prometheus.render(kiosk.kiosk.status()).contains("panel_refresh_light{state=\"off\"} 1\n"))
        kiosk.kiosk.request(.schedule(false)) { replies.append($0) }
        #expect(!display.isBlank, "the schedule suspended, the panel is lit")
        #expect(try brightness(entry) == "255", "at the day's level")
        kiosk.kiosk.request(.schedule(true)) { replies.append($0) }
        kiosk.run(until: kiosk.clock.now + 61)
        #expect(display.isBlank, "followed again: off once idle")
        #expect(ControlCommand(line: "brightness 0") == nil && ControlCommand(line: "brightness 101") == nil)
        #expect(ControlCommand(line: "brightness auto") == .brightness(nil) && ControlCommand(line: "schedule off") == .schedule(false))
    }

    @Test("without a backlight the picture itself is darkened; lit again, it is drawn whole at full light")
    func softwareDimming() throws {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.locale = "en"
        configuration.light.dimAfter = 30
        configuration.light.dimBrightness = 25
        let display = HeadlessDisplay(width: 400, height: 240)
        let kiosk = try VirtualKiosk(configuration: configuration, display: display) { animator in
            SampleItemSource(pages: 1, delay: 0.1, animator: animator)
        }
        kiosk.start()
        kiosk.run(until: 5)
        func red(_ snapshot: GlassSnapshot?) -> Int { snapshot.map { Int($0.pixels[230 * $0.width + 390] >> 16 & 0xff) } ?? -1 }
        let bright = red(display.glassSnapshot())
        #expect(bright > 200, "a white row's corner")
        kiosk.run(until: kiosk.stage.lastActivity + 31)
        #expect(display.lastDamage == [Rect(x: 0, y: 0, width: 400, height: 240)], "the whole glass is drawn darker")
        let dark = red(display.glassSnapshot())
        #expect(abs(dark - bright / 4) <= 2, "a quarter of the light: \(bright) → \(dark)")
        var script = GestureScript(start: kiosk.clock.now + 0.01)
        script.tap(at: Point(x: 200, y: 150))
        kiosk.play(script.frames)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(red(display.glassSnapshot()) == bright)
    }
}
