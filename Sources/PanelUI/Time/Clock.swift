import PanelGestures
import FoundationEssentials
import Glibc

/// The only source of time for the UI. The core never reads a clock of its own.
@MainActor
public protocol Clock: AnyObject {
    /// Monotonic seconds on the same base as the touch timestamps (CLOCK_MONOTONIC for real
    /// input, any base for scripted input). Never goes back.
    var now: Double { get }
    /// The calendar time that goes with `now`: shown as "last updated" and stored.
    var date: Date { get }
}

/// A clock that moves only when told to: tests and virtual-time replays.
@MainActor
public final class ManualClock: Clock {
    /// Seconds; moved only by `advance`.
    public private(set) var now: Double
    /// Calendar time at `now == 0`.
    public var epoch: Date

    /// - Parameters:
    ///   - now: starting time, s.
    ///   - epoch: calendar time at `now == 0`; by default 2026-01-01 12:00 UTC so results do not
    ///     depend on the day the tests run.
    public init(now: Double = 0, epoch: Date = Date(timeIntervalSince1970: 1_767_268_800)) {
        (self.now, self.epoch) = (now, epoch)
    }

    /// `epoch` plus `now` seconds.
    public var date: Date { epoch.addingTimeInterval(now) }

    /// Moves time forward by `seconds` (negative values are ignored: time never goes back).
    public func advance(by seconds: Double) {
        if seconds > 0 { now += seconds }
    }

    /// Moves time forward to `time`, s; an earlier time is ignored.
    public func advance(to time: Double) {
        if time > now { now = time }
    }
}
