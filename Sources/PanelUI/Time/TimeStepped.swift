import PanelGestures

/// What a time driver steps: a ``Scene`` alone (the UI's own tests) or a kiosk host (a stage on
/// a display, in PanelHost). The driver decides when; the stepped thing decides what is due.
///
/// A driver calls `tick(at:)` and `touch(_:at:)` with times that never go back; the stepped
/// thing moves its clock to that time (its one place for it) and runs what is due then.
@MainActor
public protocol TimeStepped: AnyObject {
    /// The time of its clock now, seconds.
    var now: Double { get }
    /// When something is due next (an animation frame, a timer, a frame to draw), seconds;
    /// nil when nothing waits: the driver may then sleep until input.
    var nextWakeUp: Double? { get }
    /// The shortest time between two frames while something moves, seconds (1/60: a 60 Hz
    /// panel; the demo draws at 1/30).
    var frameInterval: Double { get }
    /// Time has come to `time`: what is due runs, and a frame is drawn if something changed.
    func tick(at time: Double)
    /// Touch frames that arrived at `time` (their own time stamps may be earlier).
    func touch(_ frames: [TouchFrame], at time: Double)
    /// When work that left the loop comes back, seconds: the driver runs an entry at exactly
    /// that time, now included (unlike a wake-up that is now, which means something moves and
    /// waits a frame interval). nil: none waits; a bare scene has none.
    var nextArrival: Double? { get }
}

extension TimeStepped {
    /// None: a bare scene does no work off the loop.
    public var nextArrival: Double? { nil }
}

/// Virtual time, in the manner of swift-nio's `EmbeddedEventLoop`: nothing happens until the
/// caller says how far time goes; then every wake-up on the way runs in order, and frames are
/// drawn while something moves, no closer together than `frameInterval`. The one code that
/// decides where virtual time goes: tests, replays, the headless demo, expected frames and the
/// benchmarks all step through it. (Real time has its own driver, in PanelHost.)
@MainActor
public struct VirtualTimeDriver {
    /// What is stepped.
    public let target: any TimeStepped

    /// A driver for `target`.
    public init(_ target: any TimeStepped) { self.target = target }

    /// Runs everything due until `time` (seconds), drawing only while something moves: idle
    /// time costs no frames. The target's clock ends at `time`.
    public func advance(to time: Double) {
        advance(before: time)
        if target.now < time { target.tick(at: time) }
    }

    /// One tick `seconds` from now, whatever was due on the way: a single frame, for
    /// benchmarks that time one frame each.
    public func step(by seconds: Double) { target.tick(at: target.now + max(0, seconds)) }

    /// Lets `seconds` pass.
    public func advance(by seconds: Double) { advance(to: target.now + max(0, seconds)) }

    /// Delivers touch frames at their time stamps, running what is due in between. The frames
    /// of one instant (a time stamp shared, or one already past) arrive together, and what is
    /// due before them runs strictly before: one entry, hence at most one drawn frame, per
    /// instant. (Delivered one by one after a tick at their time, a replay drew two frames at
    /// one time, and its trace had two frame lines with one `t`.)
    ///
    /// Frames that begin before the clock (a `GestureScript(start: 0.5)` played after a settle
    /// that went past 0.5 s) are moved later as a whole, so the first arrives now and the
    /// gesture keeps its timing: collapsed into one instant, a drag became a jump and a fling
    /// none. Returns how far they were moved, seconds (0: not at all).
    @discardableResult
    public func play(_ frames: [TouchFrame]) -> Double {
        let late = frames.first.map { max(0, target.now - $0.timestamp) } ?? 0
        let frames = late > 0 ? frames.map { $0.delayed(by: late) } : frames
        var index = frames.startIndex
        while index < frames.endIndex {
            let at = max(frames[index].timestamp, target.now)
            advance(before: at)
            var batch = [frames[index]]
            index += 1
            while index < frames.endIndex, frames[index].timestamp <= at {
                batch.append(frames[index])
                index += 1
            }
            target.touch(batch, at: at)
        }
        target.tick(at: target.now)
        return late
    }

    /// When to tick next: for a wake-up at it when it lies ahead (a timer, a frame that reaches
    /// the glass at its time), one frame interval on when it is now (something moves: frames no
    /// closer than that); for work that comes back, at its time, now included. nil: nothing waits.
    private func nextTick() -> Double? {
        let now = target.now
        let wake = target.nextWakeUp.map { $0 > now ? $0 : now + target.frameInterval }
        let arrival = target.nextArrival.map { max($0, now) }
        return [wake, arrival].compactMap { $0 }.min()
    }

    /// Runs everything due before `time`, leaving the clock short of it (the entry at `time`
    /// is the caller's).
    private func advance(before time: Double) {
        target.tick(at: target.now)
        while target.now < time {
            guard let next = nextTick(), next < time else { break }
            target.tick(at: next)
        }
    }

    /// Runs until nothing waits, or `limit` seconds pass; returns whether it settled.
    @discardableResult
    public func settle(limit: Double = 30) -> Bool {
        let end = target.now + limit
        target.tick(at: target.now)
        while target.now < end {
            guard let next = nextTick() else { return true }
            target.tick(at: next)
        }
        return target.nextWakeUp == nil && target.nextArrival == nil
    }
}
