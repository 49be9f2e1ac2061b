import FoundationEssentials

/// Hours of the day on the panel's clock, "22:00-06:30": from the first time (included) to
/// the second (not included); a range whose end is earlier than its start runs past midnight.
/// The light's night and off hours (`display.night`, `display.off-hours`).
public struct DayHours: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after local midnight where the hours begin and end, 0 to 1439; never equal.
    public let start: Int, end: Int

    /// The hours `start` to `end`, minutes after local midnight; nil when either is outside
    /// the day or they are equal (hours of no length, or of the whole day, say nothing).
    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        (self.start, self.end) = (start, end)
    }

    /// "HH:MM-HH:MM" (24-hour; blanks around the dash allowed); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Self.minute(parts[0]), let b = Self.minute(parts[1]) else { return nil }
        self.init(start: a, end: b)
    }

    /// "H:MM" or "HH:MM" as minutes after midnight.
    private static func minute(_ text: Substring) -> Int? {
        let trimmed = TextFormat.trimmed(text)
        let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, (1...2).contains(fields[0].count), fields[1].count == 2,
              fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(fields[0]), let m = Int(fields[1]), h < 24, m < 60 else { return nil }
        return h * 60 + m
    }

    /// Whether the minute of the day `minute` (0 to 1439) lies in the hours.
    public func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// "22:00-06:30".
    public var description: String { Self.clock(start) + "-" + Self.clock(end) }

    /// "06:30" for 390 minutes.
    public static func clock(_ minute: Int) -> String {
        TextFormat.padded(minute / 60, 2) + ":" + TextFormat.padded(minute % 60, 2)
    }
}

/// The panel's wall clock: the calendar and the local time's offset from UTC at each moment
/// (``MachineEnvironment/utcOffset``: the C library's zone, daylight saving included). Says
/// the minute of the local day at a date, and when the light's schedule next changes.
public struct LocalDay: Sendable {
    /// Seconds east of UTC at a moment.
    public var utcOffset: @Sendable (Date) -> Int

    /// A wall clock in the zone `utcOffset` gives.
    public init(utcOffset: @escaping @Sendable (Date) -> Int) { self.utcOffset = utcOffset }

    /// Seconds since local midnight at `date` (0 ..< 86400).
    public func secondOfDay(_ date: Date) -> Double {
        let local = date.timeIntervalSince1970 + Double(utcOffset(date))
        let day = (local / 86_400).rounded(.down)
        return local - day * 86_400
    }

    /// The minute of the local day at `date` (0 to 1439). A millisecond's slack: a deadline
    /// computed for 06:00 and reached by adding seconds to a clock is 06:00, not 05:59.
    public func minuteOfDay(_ date: Date) -> Int {
        min(1439, Int(((secondOfDay(date) + 0.001) / 60).rounded(.down)) % 1440)
    }

    /// The first moment after `date` at which the local time reaches one of `minutes` (minutes
    /// after midnight), or the zone's offset changes (a daylight-saving change, which moves
    /// every local time at once), whichever comes first; nil without minutes. A change of the
    /// offset is found to the second by halving, with the C library asked about 20 times.
    public func nextChange(after date: Date, at minutes: [Int]) -> Date? {
        guard !minutes.isEmpty else { return nil }
        let now = secondOfDay(date)
        let waits = minutes.map { minute -> Double in
            var wait = Double(minute * 60) - now
            while wait <= 0.001 { wait += 86_400 }
            return wait
        }
        let candidate = date.addingTimeInterval(waits.min() ?? 86_400)
        let offset = utcOffset(date)
        guard utcOffset(candidate) != offset else { return candidate }
        // The offset changes on the way: the first second with the new one (the minutes are
        // then where they were not, and the caller asks again from there).
        var (low, high) = (date.timeIntervalSince1970, candidate.timeIntervalSince1970)
        while high - low > 1 {
            let middle = (low + high) / 2
            if utcOffset(Date(timeIntervalSince1970: middle)) == offset { low = middle } else { high = middle }
        }
        return Date(timeIntervalSince1970: high)
    }
}
