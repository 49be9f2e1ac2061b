import Foundation

/// The last-updated line: "Updated: today 14:05", "Updated: 03-12 14:05",
/// "Updated: 2025-03-12 14:05", or "Updated: never" (MJRefreshStateHeader's formats).
///
/// "Today" compares the whole date in `calendar`'s time zone; MJRefresh compared only the day
/// of the month, so the 12th of any month counted as today on the 12th.
public struct LastUpdatedFormatter: Sendable {
    public var calendar: Calendar

    /// - Parameter calendar: Gregorian in UTC by default. The library reads no environment:
    ///   an app shows local times by passing a calendar in its time zone (the program does,
    ///   from `HostEnvironment`).
    public init(calendar: Calendar? = nil) {
        if let calendar {
            self.calendar = calendar
        } else {
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = TimeZone(identifier: "UTC") ?? gregorian.timeZone
            self.calendar = gregorian
        }
    }

    @MainActor
    public func text(for date: Date?, now: Date, localizer: RefreshLocalizer) -> String {
        let prefix = localizer.text(.lastUpdated)
        guard let date else { return prefix + localizer.text(.noRecord) }
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let time = String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
        if calendar.isDate(date, inSameDayAs: now) {
            return prefix + localizer.text(.today) + " " + time
        }
        let sameYear = calendar.component(.year, from: date) == calendar.component(.year, from: now)
        if sameYear {
            return prefix + String(format: "%02d-%02d ", c.month ?? 0, c.day ?? 0) + time
        }
        return prefix + String(format: "%04d-%02d-%02d ", c.year ?? 0, c.month ?? 0, c.day ?? 0) + time
    }
}
