import CProcess
import Glibc

/// A loop source readable when the system clock is set (a step by `date`, NTP's first sync, a
/// late RTC): a CLOCK_REALTIME timerfd armed with TFD_TIMER_CANCEL_ON_SET (timerfd_create(2)).
/// Its entry is what matters: every entry follows the calendar (``KioskHost``'s
/// `followCalendar`), so a panel asleep until the end of its off hours sees a clock set
/// forward past them at once, not at a wake-up computed on the old calendar.
@MainActor
public final class ClockSetWatch: LoopSource {
    private let fd: Int32

    /// The watch, or nil where the kernel has none (its reason is logged once).
    public init?() {
        let fd = panel_clock_watch_open()
        guard fd >= 0 else {
            Log.warning("the system clock's steps are seen at the next entry only: timerfd: \(String(cString: strerror(errno)))")
            return nil
        }
        self.fd = fd
    }

    isolated deinit { close(fd) }

    /// The timer's descriptor, for ever.
    public var reading: [WatchedDescriptor] { [WatchedDescriptor(fd)] }
    /// No deadline of its own.
    public var nextDeadline: Double? { nil }
    /// Nothing is due by time.
    public func tick(at now: Double) {}

    /// The clock was set (armed again), or nothing: the entry that called this has followed the calendar already.
    public func readable(_ descriptor: Int32, at now: Double) {
        if panel_clock_watch_take(fd) < 0 {
            Log.warning("the system clock's watch failed: \(String(cString: strerror(errno)))")
        }
    }
}
