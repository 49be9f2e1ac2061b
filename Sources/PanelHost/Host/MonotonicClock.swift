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

    /// A host clock at CLOCK_MONOTONIC's time, its calendar time the machine's.
    @MainActor
    public static func makeClock() -> ManualClock {
        let t = now()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return ManualClock(now: t, epoch: Date(timeIntervalSince1970: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9 - t))
    }
}
