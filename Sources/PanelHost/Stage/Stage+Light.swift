import FoundationEssentials

/// What the stage keeps of the light between entries (``Stage/light``).
struct LightControl {
    /// The configuration's keys.
    var settings = LightSettings()
    /// `ctl brightness`'s level: holds until the night begins or ends, or a reload.
    var brightnessSet: Int?
    /// Whether the night and off hours are followed (`ctl schedule`).
    var scheduleOn = true
    /// What the last look at the clock found: in the night hours, in the off hours.
    var inNight = false, inOffHours = false
    /// When the panel was last lit by a touch or a wake in the off hours (it goes off again
    /// once idle for ``Stage/offHoursRelight`` after it), seconds of the clock.
    var litInOffHours = -Double.infinity
    /// The percent the backlight or the picture shows now; -1: not set yet (the first look sets it).
    var applied = 100
    /// Whether the level applied is the dim one.
    var dimmed = false
    /// Why the panel is off; nil while it is lit.
    var off: LightStatus.Off?
}

/// The light over the day: the level by day and by night, the dim stage before blanking, the
/// off hours, on the panel's clock (``MachineEnvironment/utcOffset``: its zone and daylight
/// saving); `ctl brightness` and `ctl schedule`. Every change is a deadline of the loop
/// (``nextLightChange``): nothing wakes while nothing is due.
extension Stage {
    /// The panel's wall clock.
    var localDay: LocalDay { LocalDay(utcOffset: machine.utcOffset) }

    /// Seconds a panel lit by a touch (or `ctl wake`) in the off hours stays on once idle:
    /// `blank-after`, else a minute.
    var offHoursRelight: Double { blankAfter > 0 ? blankAfter : 60 }

    /// The settings of the light in use.
    public var lightSettings: LightSettings { light.settings }

    /// Takes a configuration's light keys (at the start and at a reload): the schedule and
    /// the levels apply at once, a level set through `ctl brightness` is let go.
    func configureLight(_ settings: LightSettings) {
        guard settings != light.settings || light.brightnessSet != nil else { return }
        light.settings = settings
        light.brightnessSet = nil
        // Applied at the next look: a level the stage sets is written once even when it is the one in use.
        light.applied = settings.setsLevel ? -1 : light.applied
        if let text = settings.scheduleText { Log.info("light: \(text) (panel time)") }
    }

    /// Sets the lit level to `percent` (1 to 100) until the night begins or ends or the
    /// configuration is reloaded (`ctl brightness N`); nil: back to the configured level.
    public func setBrightness(_ percent: Int?) {
        light.brightnessSet = percent.map { max(1, min(100, $0)) }
        Log.info(percent.map { "light: brightness set to \($0) %" } ?? "light: brightness back to the configured level")
        activity(wakes: false)
        pump()
    }

    /// Follows the night and off hours (true) or suspends them (false: lit by day's level at
    /// all hours, a panel off for the off hours comes on) (`ctl schedule on|off`).
    public func followSchedule(_ on: Bool) {
        guard on != light.scheduleOn else { return }
        light.scheduleOn = on
        Log.info(on ? "light: the schedule is followed again" : "light: the schedule is suspended")
        pump()
    }

    /// The level the panel is lit at now, before dimming: `ctl brightness`'s, the night's or the day's.
    var litLevel: Int {
        if let set = light.brightnessSet { return set }
        return light.inNight ? light.settings.nightBrightness : light.settings.brightness
    }

    /// At the end of every entry: the schedule's hours looked at, then the panel turned off
    /// (off hours, `blank-after`) or its level set (night, `dim-after`). True when it went off.
    func followLight() -> Bool {
        let s = light.settings
        // The C library's local time is asked only by a schedule (this runs at every entry).
        let minute = s.boundaries.isEmpty ? 0 : localDay.minuteOfDay(clock.date)
        let night = light.scheduleOn && (s.night?.contains(minute: minute) ?? false)
        if night != light.inNight {
            light.inNight = night
            // A level set by hand lasts until the schedule's next change.
            light.brightnessSet = nil
        }
        let offHours = light.scheduleOn && (s.offHours?.contains(minute: minute) ?? false)
        if offHours != light.inOffHours {
            light.inOffHours = offHours
            if !offHours, display.isBlank, light.off == .offHours {
                Log.info(light.scheduleOn ? "light: the off hours end" : "light: the schedule is suspended: the panel comes on")
                wake()
            }
        }
        guard !display.isBlank, !display.isPaused else { return false }
        if light.inOffHours, isIdle, clock.now >= max(light.litInOffHours, lastTouch ?? -.infinity) + offHoursRelight {
            blank(.offHours)
            return true
        }
        if blankAfter > 0, clock.now >= lastActivity + blankAfter, isIdle {
            blank(.idle)
            return true
        }
        let dim = s.dimAfter > 0 && clock.now >= lastActivity + s.dimAfter
        let level = dim ? min(s.dimBrightness, litLevel) : litLevel
        if level != light.applied || dim != light.dimmed { applyLight(level, dimmed: dim) }
        return false
    }

    /// Shows the panel at `percent`: the backlight's level where there is one, else the
    /// picture darkened by the renderer (a desktop window, the headless display, a panel
    /// without a backlight interface).
    private func applyLight(_ percent: Int, dimmed: Bool) {
        let was = (light.applied, light.dimmed)
        (light.applied, light.dimmed) = (percent, dimmed)
        if let backlight {
            do {
                try backlight.set(percent: percent)
            } catch {
                reportBacklight(error)
            }
        } else {
            presenter.renderer.dimming = 1 - Double(percent) / 100
            presenter.invalidate()
        }
        // The first look sets the level quietly; after it, each change is said.
        guard was.0 >= 0 else { return }
        if dimmed && !was.1 {
            Log.info("light: dimmed to \(percent) % after \(TextFormat.number(light.settings.dimAfter)) s without touch or data change")
        } else if !dimmed {
            Log.info("light: lit at \(percent) %" + (light.inNight && light.brightnessSet == nil ? " (night)" : ""))
        }
    }

    /// When the light next changes by itself, seconds of the clock: the dim stage, blanking
    /// after `blank-after`, a panel lit in the off hours going off again, the schedule's next
    /// hour (or daylight-saving change). The deadlines of what ``followLight()`` decides.
    var nextLightChange: Double? {
        var wakes: [Double] = []
        let s = light.settings
        if !display.isBlank {
            if blankAfter > 0 { wakes.append(lastActivity + blankAfter) }
            if s.dimAfter > 0 && !light.dimmed { wakes.append(lastActivity + s.dimAfter) }
            if light.inOffHours { wakes.append(max(light.litInOffHours, lastTouch ?? -.infinity) + offHoursRelight) }
        }
        if let date = nextScheduleChange { wakes.append(clock.now + date.timeIntervalSince(clock.date)) }
        return wakes.min()
    }

    /// The calendar time the schedule next changes at; nil without hours or while suspended.
    var nextScheduleChange: Date? {
        guard light.scheduleOn else { return nil }
        return localDay.nextChange(after: clock.date, at: light.settings.boundaries)
    }

    /// How the panel is lit now, for the status, the metrics and the broker.
    public var lightStatus: LightStatus {
        let lit = light.applied >= 0 ? light.applied : litLevel
        var status = LightStatus(brightness: display.isBlank ? 0 : lit, dimmed: light.dimmed && !display.isBlank,
                                 off: display.isBlank ? (light.off ?? .asked) : nil, scheduleOn: light.scheduleOn)
        status.brightnessSet = light.brightnessSet
        status.schedule = light.settings.scheduleText
        status.nextChange = nextScheduleChange
        return status
    }
}
