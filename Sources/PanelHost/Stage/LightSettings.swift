import FoundationEssentials

/// How the panel is lit over the day (`[display]`'s `brightness`, `dim-after`,
/// `dim-brightness`, `night`, `night-brightness` and `off-hours`): a level, a dim stage
/// before `blank-after`'s off, a night level and off hours on the panel's clock.
public struct LightSettings: Sendable, Equatable {
    /// Percent of the backlight's maximum the panel is lit at by day, 1 to 100.
    public var brightness = 100
    /// Seconds without touch or data change before the panel dims; 0: never.
    public var dimAfter = 0.0
    /// Percent the panel dims to (never brighter than it is lit), 1 to 100.
    public var dimBrightness = 20
    /// Hours lit at `nightBrightness` instead of `brightness`, local time; nil: none.
    public var night: DayHours?
    /// Percent of the maximum during `night`, 1 to 100.
    public var nightBrightness = 30
    /// Hours the panel is off, local time (a touch lights it until it is idle again); nil: none.
    public var offHours: DayHours?

    /// The defaults: lit at the backlight's maximum all day, never dimmed.
    public init() {}

    /// Whether the stage sets the backlight's level (otherwise it only turns it off and back
    /// to the level it found, as before these keys).
    public var setsLevel: Bool { brightness != 100 || dimAfter > 0 || night != nil || offHours != nil }

    /// The minutes of the day where the schedule changes (the ends of the night and off hours).
    public var boundaries: [Int] {
        [night, offHours].compactMap { $0 }.flatMap { [$0.start, $0.end] }
    }

    /// "night 22:00-06:30 at 30 %, off 00:00-05:00" for the journal and the status; nil without hours.
    public var scheduleText: String? {
        let parts = [night.map { "night \($0) at \(nightBrightness) %" }, offHours.map { "off \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// How lit the panel is now, as the status, the metrics and the broker say it.
public struct LightStatus: Sendable, Equatable {
    /// Why the panel is off.
    public enum Off: String, Sendable {
        /// `blank-after` seconds without touch or data change.
        case idle
        /// The off hours (`display.off-hours`).
        case offHours = "off-hours"
        /// `ctl blank`, the broker's `blank`.
        case asked
    }
    /// The percent of the maximum the panel shows now; 0 while it is off.
    public var brightness: Int
    /// Whether it shows dimmed (`dim-after` passed).
    public var dimmed: Bool
    /// Why it is off; nil while lit.
    public var off: Off?
    /// Whether the schedule (night and off hours) is followed: `ctl schedule off` suspends it.
    public var scheduleOn: Bool
    /// `ctl brightness`'s level while it holds; nil: the configured one.
    public var brightnessSet: Int?
    /// The schedule, as ``LightSettings/scheduleText`` says it; nil without hours.
    public var schedule: String?
    /// When the schedule next changes the light, by the calendar; nil without hours.
    public var nextChange: Date?

    /// One word: "lit", "dimmed" or "off".
    public var state: String { off != nil ? "off" : dimmed ? "dimmed" : "lit" }

    /// Every state's word, for the metrics' state set.
    public static let states = ["lit", "dimmed", "off"]

    /// A panel lit at full brightness with no schedule.
    public init(brightness: Int = 100, dimmed: Bool = false, off: Off? = nil, scheduleOn: Bool = true) {
        (self.brightness, self.dimmed, self.off, self.scheduleOn) = (brightness, dimmed, off, scheduleOn)
    }
}
