import FoundationEssentials
import Glibc

/// Seconds of CLOCK_MONOTONIC: the base of the kernel's touch and page-flip time stamps. Read
/// only by the program's side (run loop, frame timings), never by the UI core.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
