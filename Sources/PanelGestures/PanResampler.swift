/// A pan's translation at a frame's sample time instead of at its last event: touchscreens
/// report every 8-14 ms (the recordings in Tests/PanelInputTests/Fixtures) and the display
/// flips every 16.7 ms, so content moved to the last event moves by uneven steps (judder) and
/// sits where the finger was at that event (lag). Android resamples touches to the frame
/// (`InputConsumer::resampleTouchState`), Flutter its pointer events (`PointerEventResampler`).
///
/// The translation is interpolated between the two events around the sample time, and past
/// the last event extrapolated from the last two by at most half their interval (and at most
/// `maxPrediction`), never after a lift and never past a turn: when the last step goes against
/// the one before it, the finger has turned and the last event is held.
///
/// A value type fed by the pan's events (`add`); the recognizer's velocity for the fling keeps
/// using the real events.
public struct PanResampler: Sendable, Equatable {
    /// One event of the pan: its time stamp (seconds) and the pan's translation then (px).
    public struct Sample: Sendable, Equatable {
        /// Seconds, the event's time stamp.
        public var time: Double
        /// The pan's translation at that event, px.
        public var translation: Point

        /// A sample at `time` with `translation`.
        public init(time: Double, translation: Point) { (self.time, self.translation) = (time, translation) }
    }

    /// The longest extrapolation past the last event, seconds: 8 ms, Android's
    /// `RESAMPLE_MAX_PREDICTION` (frameworks/native/libs/input/InputTransport.cpp). Half an
    /// interval of the recordings' 8-14 ms stays under it.
    public static let maxPrediction = 0.008
    /// Events closer than this are not used to extrapolate, seconds: 2 ms, Android's
    /// `RESAMPLE_MIN_DELTA` (a pair that close gives a velocity made of noise).
    public static let minDelta = 0.002
    /// Events further apart than this are not used to extrapolate, seconds: 20 ms, Android's
    /// `RESAMPLE_MAX_DELTA` (the finger rested between them).
    public static let maxDelta = 0.020

    /// The last three events, oldest first (three tell a turn).
    public private(set) var samples: [Sample] = []
    /// Whether the pan's fingers lifted: nothing is extrapolated after the last event.
    public private(set) var isLifted = false

    /// An empty resampler.
    public init() {}

    /// Adds the pan's translation at an event; an event older than the last one is ignored
    /// (time stamps only go forward).
    public mutating func add(_ translation: Point, at time: Double) {
        if let last = samples.last, time < last.time { return }
        if let last = samples.last, time == last.time {
            samples[samples.count - 1].translation = translation
            return
        }
        samples.append(Sample(time: time, translation: translation))
        if samples.count > 3 { samples.removeFirst() }
    }

    /// The fingers lifted at the last event: it is where the pan ends.
    public mutating func lift() { isLifted = true }

    /// Forgets the pan (a new one begins).
    public mutating func reset() {
        samples.removeAll()
        isLifted = false
    }

    /// The translation at `time` (seconds); nil before the first event.
    public func translation(at time: Double) -> Point? {
        guard let last = samples.last else { return nil }
        if time >= last.time { return extrapolated(to: time) }
        // Interpolated between the two events around `time`; before the oldest kept, it.
        var later = samples.count - 1
        while later > 0, samples[later - 1].time > time { later -= 1 }
        guard later > 0 else { return samples[0].translation }
        let a = samples[later - 1], b = samples[later]
        let share = (time - a.time) / (b.time - a.time)
        return a.translation + (b.translation - a.translation) * share
    }

    /// The furthest the translation goes after the last event while no other comes: where
    /// frames stop changing.
    public var settled: Point? { translation(at: .infinity) }

    /// Past the last event: along the last two events' velocity for at most half their
    /// interval and `maxPrediction`, unless the fingers lifted, the interval is outside
    /// `minDelta`...`maxDelta`, or the last step turned against the one before.
    private func extrapolated(to time: Double) -> Point {
        let last = samples[samples.count - 1]
        guard !isLifted, samples.count >= 2 else { return last.translation }
        let previous = samples[samples.count - 2]
        let delta = last.time - previous.time
        guard delta >= Self.minDelta, delta <= Self.maxDelta else { return last.translation }
        let step = last.translation - previous.translation
        if samples.count == 3 {
            let before = previous.translation - samples[0].translation
            if step.x * before.x + step.y * before.y < 0 { return last.translation }
        }
        let ahead = min(time - last.time, delta / 2, Self.maxPrediction)
        return last.translation + step * (ahead / delta)
    }
}
