import FoundationEssentials
import Glibc
import PanelUI

/// The machine's CLOCK_MONOTONIC, the base of the kernel's touch and flip time stamps: read
/// here for the real-time driver and the frame and command timings; nothing else in the host
/// reads a clock.
public enum MonotonicClock {
    /// Seconds of CLOCK_MONOTONIC.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Frame and command timings' clock: CLOCK_MONOTONIC (``Stage/stopwatch``).
    public static let stopwatch: @Sendable () -> Double = { now() }

    /// Seconds CLOCK_REALTIME is ahead of CLOCK_MONOTONIC now, both read together: the
    /// calendar's offset, which the real-time host reads at each entry (``KioskHost/calendar``),
    /// since the system clock may be set at any time (NTP after boot, an operator); a panel
    /// with no battery-backed clock starts in 1970.
    public static let calendarOffset: @Sendable () -> Double = {
        var wall = timespec(), mono = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        return Double(wall.tv_sec - mono.tv_sec) + Double(wall.tv_nsec - mono.tv_nsec) / 1e9
    }

    /// The earliest date a set system clock can show: when the running program's file was
    /// written (its package's build, or its installation: dpkg keeps the build's times). A
    /// calendar before it is a clock that was never set (a panel without a battery-backed
    /// clock starts at 1970): the real-time host marks its times so (``HostStatus/clockSet``)
    /// and saves none (``Stage/calendarFloor``). Nil where the file cannot be read.
    public static func programDate() -> Date? {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// A host clock at CLOCK_MONOTONIC's time, its calendar time the machine's.
    @MainActor
    public static func makeClock() -> ManualClock {
        let t = now()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return ManualClock(now: t, epoch: Date(timeIntervalSince1970: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9 - t))
    }
}
