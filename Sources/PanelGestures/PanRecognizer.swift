/// Recognises a pan (drag) from touch frames.
///
/// A value-type state machine: one method per input (`handle(_:)`, `cancel(at:)`), each
/// returning the event the pan produced, if any. The pan follows the centroid of the active
/// contacts; its translation is accumulated from the movement of the contacts that are down
/// in two successive frames, so a finger that is added or lifted never makes it jump.
public struct PanRecognizer: Sendable {
    /// UIGestureRecognizer's states, as MJRefresh observes them.
    public enum State: String, Sendable, Hashable {
        /// UIKit's states: waiting for the slop, the pan's first, further and last events, a pan cancelled (a lost contact), a touch that was no pan.
        case possible, began, changed, ended, cancelled, failed
    }

    /// What makes a pan: the slop, an optional locked axis and the fling speeds.
    public struct Configuration: Sendable, Equatable {
        /// Distance (px) before the pan begins; see `GestureConstants.touchSlop`.
        public var slop: Double = GestureConstants.touchSlop
        /// When set, only movement along this axis counts: a movement that passes the slop on
        /// the other axis first makes the pan fail (so a vertical list ignores sideways swipes).
        public var lockedAxis: Axis? = nil
        /// Release speeds below this give zero velocity (no fling), px/s.
        public var minFlingVelocity: Double = GestureConstants.minFlingVelocity
        /// Release speeds are clamped to this, px/s.
        public var maxFlingVelocity: Double = GestureConstants.maxFlingVelocity
        /// Whether what follows the pan moves to its resampled translation at each frame
        /// (``PanRecognizer/translation(at:)``) rather than to each event's (`input.resample`).
        /// The events, and the fling's velocity, are the real ones either way.
        public var resamples = true

        /// A configuration; by default UIKit's slop, no locked axis, its fling bounds, resampled.
        public init(slop: Double = GestureConstants.touchSlop, lockedAxis: Axis? = nil,
                    minFlingVelocity: Double = GestureConstants.minFlingVelocity,
                    maxFlingVelocity: Double = GestureConstants.maxFlingVelocity, resamples: Bool = true) {
            self.slop = slop
            self.lockedAxis = lockedAxis
            self.minFlingVelocity = minFlingVelocity
            self.maxFlingVelocity = maxFlingVelocity
            self.resamples = resamples
        }
    }

    /// What the pan reports on each change of state or position.
    public struct Event: Sendable, Equatable {
        /// The phase this event reports.
        public var state: State
        /// Movement since the pan began, px (zero at `began`: the slop is consumed, so content
        /// that follows the pan does not jump by the slop).
        public var translation: Point
        /// Finger velocity, px/s: the tracker's estimate while moving; at `ended`, the release
        /// velocity after the min/max fling rules; zero at `cancelled`.
        public var velocity: Point
        /// Centroid of the active contacts, px.
        public var location: Point
        /// Contacts down.
        public var numberOfTouches: Int
        /// Seconds of CLOCK_MONOTONIC.
        public var timestamp: Double
    }

    /// The slop, locked axis and fling bounds in use.
    public var configuration: Configuration
    /// Where the recognizer is: `possible` until a pan begins or fails.
    public private(set) var state: State = .possible

    private var positions: [Int: Point] = [:]
    /// Centroid path with add/lift jumps removed, px.
    private var path: Point = .zero
    private var pathAtBegin: Point = .zero

    /// The movement from touch-down that passed the slop, px: its larger component is the
    /// direction the pan began in (what routing by direction decides with).
    public var movementAtBegin: Point { pathAtBegin }
    private var tracker = VelocityTracker()
    /// The pan's translations at its events, for `translation(at:)`.
    private var resampler = PanResampler()
    /// The touchscreen's last intervals between reports with fingers down, seconds (2 to 60
    /// ms: a longer gap is a finger at rest), the last 32 across pans, oldest first.
    public private(set) var reportIntervals: [Double] = []
    /// The time stamp of the last frame with fingers down (nil after a lift).
    private var lastReport: Double?
    /// How unevenly the finger's reported velocity changes from report to report: for two
    /// consecutive reports both faster than `noiseSpeed`, |v − v′| / (|v| + |v′|) (0: the same
    /// velocity, 1: opposite). The last 32 across pans, oldest first. A sensor whose points
    /// wander by a few points scores high even under a smooth finger.
    public private(set) var stepNoise: [Double] = []
    /// The velocity of the last report with fingers down, pt/s (nil after a lift).
    private var lastVelocity: Point?
    /// The speed below which a report's velocity tells nothing of the sensor's noise: 50 pt/s.
    static let noiseSpeed = 50.0
    /// How this pan is sampled, fixed for it once eight intervals are known.
    private var sampling: PanResampler.Sampling?

    /// A recognizer with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds one input frame; returns the pan's event for it, if any.
    public mutating func handle(_ frame: TouchFrame) -> Event? {
        if state == .ended || state == .cancelled || state == .failed {
            // A finished pan restarts with the next contact that comes down; until every finger
            // of the old one has lifted, a failed pan stays failed.
            if state == .failed && !positions.isEmpty {
                _ = track(frame)
                return nil
            }
            state = .possible
        }
        if frame.hasCancellation { return cancel(at: frame.timestamp) }

        let wasDown = !positions.isEmpty
        let delta = track(frame)
        let isDown = !positions.isEmpty
        // The screen's report intervals: between frames with fingers down, across pans.
        if isDown, wasDown, let last = lastReport {
            let interval = frame.timestamp - last
            if interval >= PanResampler.minDelta && interval <= PanResampler.longestInterval {
                reportIntervals.append(interval)
                if reportIntervals.count > 32 { reportIntervals.removeFirst() }
                let velocity = delta * (1 / interval)
                if let last = lastVelocity, velocity.length > Self.noiseSpeed, last.length > Self.noiseSpeed {
                    stepNoise.append((velocity - last).length / (velocity.length + last.length))
                    if stepNoise.count > 32 { stepNoise.removeFirst() }
                }
                lastVelocity = velocity
            } else {
                lastVelocity = nil
            }
        }
        if !isDown { lastVelocity = nil }
        lastReport = isDown ? frame.timestamp : nil
        path += delta
        let location = centroid ?? .zero

        switch state {
        case .possible:
            if !wasDown && isDown {
                path = .zero
                tracker.reset()
            }
            tracker.add(path, at: frame.timestamp)
            guard isDown else {
                // Everything lifted before the slop was passed: a tap, not a pan.
                state = wasDown ? .failed : .possible
                positions.removeAll()
                return nil
            }
            let moved = path
            if let axis = configuration.lockedAxis {
                let along = axis == .vertical ? abs(moved.y) : abs(moved.x)
                let across = axis == .vertical ? abs(moved.x) : abs(moved.y)
                if across >= configuration.slop && across > along {
                    state = .failed
                    return nil
                }
                guard along >= configuration.slop else { return nil }
            } else {
                guard moved.length >= configuration.slop else { return nil }
            }
            state = .began
            pathAtBegin = path
            sampling = nil
            resampler.reset()
            resampler.add(translation, at: frame.timestamp)
            return event(.began, location: location, at: frame.timestamp)
        case .began, .changed:
            if isDown {
                // Only frames with fingers down are samples: a lift repeats the last position,
                // and as a sample it would read as a stop (Flutter and Android skip up events).
                tracker.add(path, at: frame.timestamp)
                resampler.add(translation, at: frame.timestamp)
                state = .changed
                return event(.changed, location: location, at: frame.timestamp)
            }
            state = .ended
            resampler.lift()
            var velocity = constrain(tracker.velocity(at: frame.timestamp))
            if let axis = configuration.lockedAxis {
                velocity = axis == .vertical ? Point(x: 0, y: velocity.y) : Point(x: velocity.x, y: 0)
            }
            return Event(state: .ended, translation: translation, velocity: velocity,
                         location: location, numberOfTouches: 0, timestamp: frame.timestamp)
        case .ended, .cancelled, .failed:
            return nil
        }
    }

    /// Ends the pan without a fling (device lost, events dropped, the app took over).
    /// Returns `cancelled` if a pan was under way; a possible pan fails silently.
    public mutating func cancel(at timestamp: Double) -> Event? {
        let location = centroid ?? .zero
        let touches = positions.count
        positions.removeAll()
        tracker.reset()
        resampler.lift()
        switch state {
        case .began, .changed:
            state = .cancelled
            return Event(state: .cancelled, translation: translation, velocity: .zero,
                         location: location, numberOfTouches: touches, timestamp: timestamp)
        case .possible:
            state = touches > 0 ? .failed : .possible
            return nil
        case .ended, .cancelled, .failed:
            return nil
        }
    }

    /// The pan's translation at `time` (seconds; a frame's sample time), resampled from its
    /// events (``PanResampler``): between two events, where the finger was then; past the last,
    /// at most half an interval further, never after a lift or past a turn. Nil before the pan
    /// began.
    public func translation(at time: Double) -> Point? {
        state == .began || state == .changed ? resampler.translation(at: time) : nil
    }

    /// The touchscreen's report interval as this pan's events tell it, seconds (nil before two).
    public var reportInterval: Double? { resampler.reportInterval }

    /// How a frame samples this pan (``PanResampler/Sampling``): learned from the screen's
    /// report intervals and fixed for the pan once eight are known (a delay that changed from
    /// frame to frame would itself be judder); with fewer than three, as a screen reporting
    /// every 10 ms irregularly.
    public mutating func frameSampling() -> PanResampler.Sampling {
        if let sampling { return sampling }
        let learned = PanResampler.Sampling(intervals: reportIntervals, noise: stepNoise)
        // Fixed once eight intervals tell the screen (on a screen's first pan, a few frames in).
        if reportIntervals.count >= 8 { sampling = learned }
        return learned
    }

    /// The pan's translation for a frame that starts at `time` (seconds): at `time` less the
    /// sampling's delay, extrapolated past the last event by at most its allowance.
    public mutating func frameTranslation(at time: Double) -> Point? {
        frameTranslation(at: time, sampling: frameSampling())
    }

    /// The pan's translation for a frame that starts at `time` under a stated `sampling`.
    public func frameTranslation(at time: Double, sampling: PanResampler.Sampling) -> Point? {
        guard state == .began || state == .changed else { return nil }
        return resampler.translation(at: time - sampling.delay, extrapolatingAtMost: sampling.extrapolation)
    }

    /// Where the resampled translation comes to rest when no event follows (nil: no pan).
    public var settledTranslation: Point? {
        state == .began || state == .changed ? resampler.settled : nil
    }

    /// Movement since `began` along the unlocked axes, px.
    public var translation: Point {
        let t = path - pathAtBegin
        switch configuration.lockedAxis {
        case .none: return t
        case .vertical: return Point(x: 0, y: t.y)
        case .horizontal: return Point(x: t.x, y: 0)
        }
    }

    private var centroid: Point? {
        guard !positions.isEmpty else { return nil }
        var sum = Point.zero
        for p in positions.values { sum += p }
        return sum * (1 / Double(positions.count))
    }

    /// Updates the contact table; returns the mean movement of the contacts that were down
    /// before and are still listed in this frame (lifted ones count with their last position).
    private mutating func track(_ frame: TouchFrame) -> Point {
        var sum = Point.zero
        var common = 0
        for touch in frame.touches {
            // A contact with a non-finite position carries nothing usable; a lift or loss
            // still counts.
            if !(touch.position.x.isFinite && touch.position.y.isFinite) {
                if touch.phase == .ended || touch.phase == .cancelled { positions[touch.id] = nil }
                continue
            }
            if let old = positions[touch.id], touch.phase != .began {
                sum += touch.position - old
                common += 1
            }
            switch touch.phase {
            case .began, .moved: positions[touch.id] = touch.position
            case .ended, .cancelled: positions[touch.id] = nil
            }
        }
        return common > 0 ? sum * (1 / Double(common)) : .zero
    }

    private func event(_ state: State, location: Point, at time: Double) -> Event {
        Event(state: state, translation: translation, velocity: tracker.velocity(),
              location: location, numberOfTouches: positions.count, timestamp: time)
    }

    /// Applies the fling rules to a release velocity: zero below the minimum, clamped above
    /// the maximum (the direction is kept).
    private func constrain(_ v: Point) -> Point {
        let speed = v.length
        guard speed >= configuration.minFlingVelocity else { return .zero }
        guard speed > configuration.maxFlingVelocity else { return v }
        return v * (configuration.maxFlingVelocity / speed)
    }
}
