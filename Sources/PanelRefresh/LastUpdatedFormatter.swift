import FoundationEssentials

/// The last-updated line: "Updated: today 14:05", "Updated: 03-12 14:05",
/// "Updated: 2025-03-12 14:05", or "Updated: never" (MJRefreshStateHeader's formats).
///
/// "Today" compares the whole local date; MJRefresh compared only the day of the month, so the
/// 12th of any month counted as today on the 12th. Dates are broken down by arithmetic on the
/// proleptic Gregorian calendar (no calendar database, no ICU): local time is UTC plus
/// `utcOffset`, which the app supplies (the program asks the C library's `localtime_r`, so
/// the system's time zone and its daylight saving apply).
public struct LastUpdatedFormatter: Sendable {
    /// Seconds east of UTC at a moment: the local time's offset then (daylight saving
    /// included).
    public var utcOffset: @Sendable (Date) -> Int

    /// - Parameter utcOffset: UTC by default. The library reads no environment: an app shows
    ///   local times by passing its zone's offset (the program does, from `MachineEnvironment`).
    public init(utcOffset: @escaping @Sendable (Date) -> Int = { _ in 0 }) {
        self.utcOffset = utcOffset
    }

    /// A zone that is always `seconds` east of UTC.
    public init(fixedOffset seconds: Int) {
        self.init(utcOffset: { _ in seconds })
    }

    /// A local date and time, to the minute.
    struct Local: Equatable {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int
        /// Days since 1970-01-01 (local).
        var days: Int
    }

    func local(_ date: Date) -> Local {
        let seconds = Int((date.timeIntervalSince1970 + Double(utcOffset(date))).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        // Civil date from a day count (H. Hinnant, "chrono-Compatible Low-Level Date
        // Algorithms", days_from_civil's inverse): eras of 400 years from 0000-03-01.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Local(year: year, month: month, day: day, hour: secondOfDay / 3_600,
                     minute: secondOfDay % 3_600 / 60, days: days)
    }

    /// "Last updated: …" for `date` seen at `now` in the localizer's language: today's time, or the date; "No record" without one.
    @MainActor
    public func text(for date: Date?, now: Date, localizer: RefreshLocalizer) -> String {
        let prefix = localizer.text(.lastUpdated)
        guard let date else { return prefix + localizer.text(.noRecord) }
        let c = local(date), today = local(now)
        return prefix + (c.days == today.days ? localizer.text(.today) + " " : "") + shortText(for: date, now: now)
    }

    /// `date` seen at `now`, shortest: "10:42" today, "03-14 10:42" this year, else with the year
    /// (the failed-refresh banner's "items from 10:42").
    public func shortText(for date: Date, now: Date) -> String {
        let c = local(date), today = local(now)
        let time = TextFormat.padded(c.hour, 2) + ":" + TextFormat.padded(c.minute, 2)
        if c.days == today.days { return time }
        if c.year == today.year { return TextFormat.padded(c.month, 2) + "-" + TextFormat.padded(c.day, 2) + " " + time }
        return TextFormat.padded(c.year, 4) + "-" + TextFormat.padded(c.month, 2) + "-" + TextFormat.padded(c.day, 2) + " " + time
    }
}
