/// Recognises a single-finger tap: down and up within `maxDuration`, never moving more than
/// `slop` from where it came down, no second finger.
public struct TapRecognizer: Sendable {
    /// One tap: where and when the finger touched down.
    public struct Tap: Sendable, Equatable {
        /// Where the finger came down, px.
        public var location: Point
        /// Seconds of CLOCK_MONOTONIC at the lift.
        public var timestamp: Double
    }

    /// Movement (px) that turns a tap into something else; the pan's slop by default, so a
    /// touch is either a tap or a pan, never both.
    public var slop: Double
    /// Seconds; `GestureConstants.tapMaxDuration`.
    public var maxDuration: Double

    private var down: Touch?
    private var failed = false
    private var anyDown = false

    /// A recognizer: a tap stays within `slop` points and lifts within `maxDuration` seconds.
    public init(slop: Double = GestureConstants.touchSlop,
                maxDuration: Double = GestureConstants.tapMaxDuration) {
        (self.slop, self.maxDuration) = (slop, maxDuration)
    }

    /// Feeds one frame; returns a tap when one completes in it.
    public mutating func handle(_ frame: TouchFrame) -> Tap? {
        let active = frame.active
        defer { anyDown = !active.isEmpty }
        if !anyDown, let first = frame.touches.first(where: { $0.phase == .began }) {
            down = first
            failed = false
        }
        guard let start = down else { return nil }
        if frame.hasCancellation || active.count > 1
            || frame.timestamp - start.timestamp > maxDuration {
            failed = true
        }
        for touch in frame.touches where touch.id == start.id {
            if (touch.position - start.position).length > slop { failed = true }
            if touch.phase == .ended && active.isEmpty {
                down = nil
                return failed ? nil : Tap(location: start.position, timestamp: frame.timestamp)
            }
        }
        if active.isEmpty { down = nil }
        return nil
    }

    /// Forgets the touch under way: it will not become a tap (a pan took it).
    public mutating func fail() { failed = true }
}
