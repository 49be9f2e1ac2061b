import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// A panel with no battery-backed clock starts at 1970 and is set by NTP later: the calendar
/// was read once at the start, and the kiosk kept reporting 1970 in its status, its metrics,
/// the header's "Updated" time and last-updated.json.
@MainActor
@Suite("The calendar, read at every entry")
struct CalendarTests {
    @Test("started at 1970 and set later: the status, the last success and the header follow the new calendar; 1970 is marked, never saved")
    func setLater() throws {
        let dir = try scratchDirectory("calendar")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var c = KioskConfiguration()
        try c.set("state.directory", dir)
        let kiosk = try VirtualKiosk(configuration: c) { SampleItemSource(pages: 2, delay: 0.5, animator: $0) }
        // The system clock as the host reads it: seconds CLOCK_REALTIME is ahead of the clock.
        let offset = Locked<Double>(5)
        kiosk.host.calendar = { offset.withLock { $0 } }
        // The program was made in 2023: a calendar before it is a clock never set.
        kiosk.host.stage.calendarFloor = Date(timeIntervalSince1970: 1_700_000_000)
        kiosk.start()
        kiosk.settle()
        var status = kiosk.kiosk.status()
        #expect(!status.host.clockSet)
        let early = try #require(status.refreshes.lastSuccess)
        #expect(early.timeIntervalSince1970 < 100, "1970: \(early)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/last-updated.json"), "a 1970 time is not saved")
        #expect(status.statusLine.contains("not saved") && status.statusLine.contains("system clock is not set"), "\(status.statusLine)")
        #expect(status.json.contains(#""clockSet":false"#))

        // NTP sets the clock: 2027-01-15 08:00 UTC is 1_800_000_000 s after 1970.
        let success = try #require(kiosk.list.counters.lastSuccessTime)
        offset.withLock { $0 = 1_800_000_000 - kiosk.clock.now + 60 }
        kiosk.wait(1)
        status = kiosk.kiosk.status()
        #expect(status.host.clockSet)
        let moved = try #require(status.refreshes.lastSuccess)
        #expect(abs(moved.timeIntervalSince1970 - (kiosk.clock.date.timeIntervalSince1970 - (kiosk.clock.now - success))) < 0.001)
        #expect(moved.timeIntervalSince1970 > 1_799_999_000, "\(moved)")
        #expect(status.started.timeIntervalSince1970 > 1_799_999_000 && status.now.timeIntervalSince1970 > 1_800_000_000)
        let header = try #require(kiosk.list.header.lastUpdatedTime)
        #expect(header.timeIntervalSince1970 > 1_799_999_000, "the header's Updated: \(header)")
        let saved = try fileText(dir + "/last-updated.json")
        #expect(saved.contains(":17") || saved.contains(":18"), "saved once the clock is set: \(saved)")
        #expect(status.json.contains(#""clockSet":true"#))
        #expect(!status.statusLine.contains("not saved"), "\(status.statusLine)")
    }

    @Test("in virtual time the calendar is the clock's own: no host reads the system clock")
    func virtualTime() throws {
        let kiosk = try VirtualKiosk { SampleItemSource(pages: 1, delay: 0.1, animator: $0) }
        #expect(kiosk.host.calendar == nil && kiosk.host.stage.calendarFloor == nil)
        let epoch = kiosk.clock.epoch
        kiosk.start()
        kiosk.settle()
        #expect(kiosk.clock.epoch == epoch)
    }
}

@Suite("The program's date")
struct ProgramDateTests {
    @Test("the earliest date a set clock shows is when the running program's file was written")
    func programDate() throws {
        let date = try #require(MonotonicClock.programDate())
        // The program's file, not /proc's link to it (whose own time is the process's start).
        let exe = try FileManager.default.attributesOfItem(atPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let modified = try #require(exe[.modificationDate] as? Date)
        #expect(abs(date.timeIntervalSince1970 - modified.timeIntervalSince1970) < 1)
        #expect(date.timeIntervalSince1970 > 1_600_000_000, "this machine's clock and build are past 2020: \(date)")
    }
}
