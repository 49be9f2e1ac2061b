/// A pan's translation at a frame's sample time instead of at its last event: touchscreens
/// report every 8-14 ms (the recordings in Tests/PanelInputTests/Fixtures) and the display
/// flips every 16.7 ms, so content moved to the last event moves by uneven steps (judder) and
/// sits where the finger was at that event (lag). Android resamples touches to the frame
/// (`InputConsumer::resampleTouchState`), Flutter its pointer events (`PointerEventResampler`).
///
/// The translation is interpolated between the two events around the sample time, and past
/// the last event extrapolated from the last two by at most half their interval (and at most
/// `maxPrediction`), never after a lift and never past a turn: along an axis where the last two
/// steps do not go the same way (the finger turned, or set off from rest), the last event is held. Once the next event is
/// overdue by a whole interval the finger has stopped, and the last event is held too: a
/// finger at rest has the content under it, not half an interval ahead.
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

    /// How long before a frame's presentation it samples the pan, seconds: the frame's period
    /// (it is drawn one period before it reaches the glass) plus half the touchscreen's report
    /// interval. A frame drawn up to a whole interval after the last event then samples at most
    /// half an interval past it, the furthest the extrapolation goes, so every frame's sample is
    /// where the finger was (exact at constant velocity) and the frames' samples are evenly
    /// spaced: even steps. Android samples 5 ms before the frame's time (`RESAMPLE_LATENCY`),
    /// half the 10 ms of its common 100 Hz touchscreens; the feel bench compares fixed ones
    /// (docs/benchmarks.md, "Under the finger").
    public static func sampleLatency(period: Double, interval: Double) -> Double { period + interval / 2 }

    /// The report interval assumed until two events tell it, seconds: 10 ms (Android's 5 ms
    /// latency is half of it).
    public static let assumedInterval = 0.010

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
    /// The longest gap that is still a screen's report interval, seconds: 60 ms (a 25 Hz panel
    /// reports every 40). A screen's own sampling extrapolates from pairs up to this apart;
    /// longer is a finger at rest.
    public static let longestInterval = 0.060

    /// The last events, oldest first: the last three tell a turn; up to 16 are kept so that a
    /// sample a whole slow interval back (a screen's delay) still falls between two of them.
    public private(set) var samples: [Sample] = []
    /// Whether the pan's fingers lifted: nothing is extrapolated after the last event.
    public private(set) var isLifted = false
    /// The last intervals between events within `minDelta`...`maxDelta`, seconds, at most 8.
    private var intervals: [Double] = []

    /// The touchscreen's report interval, seconds: the mean of the last eight intervals
    /// between events (those within `minDelta`...`maxDelta`); nil before two such events.
    public var reportInterval: Double? {
        intervals.isEmpty ? nil : intervals.reduce(0, +) / Double(intervals.count)
    }

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
        if let last = samples.last, time - last.time >= Self.minDelta, time - last.time <= Self.maxDelta {
            intervals.append(time - last.time)
            if intervals.count > 8 { intervals.removeFirst() }
        }
        samples.append(Sample(time: time, translation: translation))
        if samples.count > 16 { samples.removeFirst() }
    }

    /// The fingers lifted at the last event: it is where the pan ends.
    public mutating func lift() { isLifted = true }

    /// Forgets the pan (a new one begins).
    public mutating func reset() {
        samples.removeAll()
        intervals.removeAll()
        isLifted = false
    }

    /// How a frame samples a pan on one touchscreen: `delay` seconds before the frame starts,
    /// interpolated between the events around that time, and past the last event extrapolated
    /// by at most `extrapolation` seconds.
    ///
    /// The delay is the screen's 90th-percentile report interval plus 1 ms, so that nearly
    /// every sample time has an event after it (interpolation only: exact at any speed, and no
    /// step larger than the finger's own), less the extrapolation the screen's regularity
    /// earns. Extrapolating turns irregular report times into uneven steps (the N-trig's 7-25
    /// ms added 0.40 of judder extrapolating half an interval); on a screen that reports
    /// evenly it is exact at constant speed. So the allowance is half the median interval (at
    /// most `maxPrediction`) times the screen's regularity, its 10th-percentile interval over
    /// its 90th: a regular screen samples about half an interval plus 1 ms before the frame,
    /// an irregular one nearer a whole 90th-percentile interval.
    public struct Sampling: Sendable, Equatable {
        /// Seconds before the frame's start.
        public var delay: Double
        /// The longest extrapolation past the last event, seconds.
        public var extrapolation: Double

        /// The sampling for a screen whose report intervals are `intervals` (seconds) and whose
        /// velocity changes by `noise` from report to report (`PanRecognizer.stepNoise`); with
        /// fewer than three intervals, one for a screen reporting every 10 ms with no
        /// extrapolation.
        public init(intervals: [Double], noise: [Double] = []) {
            guard intervals.count >= 3 else {
                (delay, extrapolation) = (PanResampler.assumedInterval + 0.001, 0)
                return
            }
            let all = intervals.sorted()
            // A gap of nearly twice the median is a finger at rest (screens send nothing for
            // one) or a report lost, not the screen's interval.
            let median = all[all.count / 2]
            let sorted = all.filter { $0 < median * 1.8 }
            func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            let (p10, p50, p90) = (percentile(0.1), percentile(0.5), percentile(0.9))
            extrapolation = p90 > 0 ? min(p50 / 2, PanResampler.maxPrediction) * p10 / p90 : 0
            // On a screen that reports evenly, points that wander are what is left to carry
            // forward: less extrapolation the noisier its velocity (`noise`, the median of
            // `PanRecognizer.stepNoise`). On an uneven one the velocity's noise is mostly the
            // intervals' own, which p10/p90 has already paid for.
            if !noise.isEmpty, p10 >= p90 * Self.evenReports {
                let median = noise.sorted()[noise.count / 2]
                extrapolation *= max(0, 1 - Self.noiseWeight * median)
            }
            delay = max(0, p90 + 0.001 - extrapolation)
        }

        /// A screen reports evenly when its 10th-percentile interval is at least this share of
        /// its 90th: 0.75 (the Atmel, Elan and Pixel recordings: 0.78-0.92; the N-trig and the
        /// eGalax: 0.44-0.52).
        public static let evenReports = 0.75
        /// How much less a screen that reports evenly extrapolates per unit of its velocity's
        /// noise: 3, so the Elan (0.10) extrapolates 0.69 of its allowance and the Atmel
        /// (0.04) 0.88; fitted on the feel bench (docs/benchmarks.md, "Under the finger").
        public static let noiseWeight = 3.0

        /// A stated sampling (the feel bench compares them).
        public init(delay: Double, extrapolation: Double) { (self.delay, self.extrapolation) = (delay, extrapolation) }
    }

    /// The translation at `time` (seconds); nil before the first event.
    public func translation(at time: Double) -> Point? {
        guard let last = samples.last else { return nil }
        return time >= last.time ? extrapolated(to: time) : translation(at: time, extrapolatingAtMost: 0)
    }

    /// The translation at `time` (seconds), past the last event extrapolated by at most
    /// `allowance` seconds (and the rules of `translation(at:)`); nil before the first event.
    public func translation(at time: Double, extrapolatingAtMost allowance: Double) -> Point? {
        guard let last = samples.last else { return nil }
        if time >= last.time {
            // A screen's own allowance trusts any interval it reports (a 25 Hz panel's 40 ms),
            // where the fixed rule of `translation(at:)` keeps Android's 20 ms.
            return extrapolated(to: time, allowance: allowance, longest: Self.longestInterval, wide: true)
        }
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
    /// `minDelta`...`maxDelta`, the last two steps do not go the same way, or the next event
    /// is overdue by a whole interval.
    private func extrapolated(to time: Double, allowance: Double = PanResampler.maxPrediction, longest: Double = PanResampler.maxDelta,
                              wide: Bool = false) -> Point {
        let last = samples[samples.count - 1]
        guard !isLifted, samples.count >= 3, allowance > 0 else { return last.translation }
        let previous = samples[samples.count - 2]
        let delta = last.time - previous.time
        guard delta >= Self.minDelta, delta <= longest else { return last.translation }
        var step = last.translation - previous.translation
        // Along each axis, two steps the same way, or the finger is turning or setting off from
        // rest there: a step after a pause read as a velocity put the content 1.1 px past where
        // the finger then stopped in the N-trig recording, before its lift. (Each axis alone: a
        // diagonal drag moves a vertical list by its Y only.)
        let before = previous.translation - samples[samples.count - 3].translation
        let turned = (x: step.x * before.x <= 0, y: step.y * before.y <= 0)
        // `wide`: the velocity over the last two intervals, not the last one. Exact at constant
        // speed all the same, and a sensor whose points wander (the Elan's few points from
        // event to event) carries half the noise forward.
        var span = delta
        if wide, previous.time - samples[samples.count - 3].time <= longest {
            step = last.translation - samples[samples.count - 3].translation
            span = last.time - samples[samples.count - 3].time
        }
        if turned.x { step.x = 0 }
        if turned.y { step.y = 0 }
        // An event overdue by a whole interval: the finger has stopped (touchscreens send
        // nothing for a finger at rest), and the content rests where it is, not ahead of it.
        if time - last.time > delta { return last.translation }
        let ahead = min(time - last.time, delta / 2, Self.maxPrediction, allowance)
        return last.translation + step * (ahead / span)
    }
}
