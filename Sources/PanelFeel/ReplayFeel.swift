import FoundationEssentials
import PanelKiosk

/// How the list followed the finger in a replay (`ReplayCommand` at a display rate): the
/// figures of the feel bench (`panel-refresh-bench feel`, docs/benchmarks.md "Under the
/// finger"), from the trace's pan lines (the finger, at its events) and frame lines (the
/// offset each frame was drawn with, at the time it reached the glass). A vertical list.
public struct ReplayFeel: Sendable {
    /// The finger's position interpolated at each frame's presentation time, less the place
    /// the content drawn in that frame stands for (where a finger that moved it exactly would
    /// be), points: the median and the 95th percentile over the frames of the drags with the
    /// list in its range (rubber-banding follows the finger by a curve, not one to one).
    public let lagP50: Double, lagP95: Double
    /// The standard deviation of the content's step from frame to frame over its mean, over
    /// the steady part of each stroke: runs of eight frames or more in one direction, less
    /// three at each end (where the finger speeds up and slows down).
    public let judder: Double
    /// The same figure for the finger itself at the frames' presentation times: the floor a
    /// list that follows the finger exactly reaches (a touchscreen's noisy positions and the
    /// finger's own changes of speed are in it).
    public let fingerJudder: Double
    /// The judder the pipeline adds: the standard deviation of the content's step less the
    /// finger's over the finger's mean step, over the same frames.
    public let excessJudder: Double
    /// How far the content went past the finger's last place in the last 100 ms before a lift,
    /// in the direction the finger last moved, points (0: never).
    public let overshoot: Double
    /// The frames the lag is taken over.
    public let frames: Int
    /// How long ago the finger was where each frame's content stands for, at the frame's
    /// presentation, milliseconds: the median and the 95th percentile over the frames of the
    /// steady runs where the finger moves faster than 30 points a second (points depend on
    /// the finger's speed; time does not). Negative: the content ahead of the finger.
    public let timeLagP50: Double, timeLagP95: Double
    /// The judder the pipeline adds, against the finger one median time lag earlier (a pure
    /// delay scores 0): sign·√|var(content steps) − var(finger steps)| over the finger's mean
    /// step, over the steady frames.
    public let alignedExcessJudder: Double
    /// The content's high-pass judder: each step less the mean of the five steps centred on
    /// it, their standard deviation over the mean step, over the steady frames.
    public let highPassJudder: Double
    /// The same figure for the finger (one median time lag earlier).
    public let fingerHighPassJudder: Double
    /// The furthest the content got ahead of the moving finger, points (0: never): past the
    /// furthest the finger had been the way it moves (a noisy sensor's steps back are not
    /// the content ahead).
    public let lead: Double
    /// Frames that reached the glass after the vblank they were started for.
    public let missedVblanks: Int

    /// A frame of a stroke: when it reached the glass, where its content stands for and the
    /// finger then (points), the way its run goes (±1) and the stroke's index.
    private struct Shown {
        var t: Double, c: Double, f: Double, sign: Double, stroke: Int
    }

    /// A pan's finger positions (y, points) by time, from its began to its last change.
    private struct Stroke {
        var times: [Double] = [], positions: [Double] = []
        var lift: Double?
        /// The finger at `t`, interpolated between the events around it (nil outside them).
        func finger(at t: Double) -> Double? {
            guard let first = times.first, let last = times.last, t >= first, t <= (lift ?? last) else { return nil }
            if t >= last { return positions.last }
            var i = 1
            while times[i] < t { i += 1 }
            let share = (t - times[i - 1]) / (times[i] - times[i - 1])
            return positions[i - 1] + (positions[i] - positions[i - 1]) * share
        }

        /// The latest time at or before `limit` the finger was at `position` (between two
        /// events, interpolated), looking back at most 0.25 s; when it never was in that time
        /// (the content ahead of it), the earliest time after `limit`, within 0.1 s, negative
        /// lags; nil otherwise.
        func time(at position: Double, before limit: Double) -> Double? {
            // When the straight path from (ta, a) to (tb, b) passes `position` (tb if it rests there).
            func crossing(_ ta: Double, _ a: Double, _ tb: Double, _ b: Double) -> Double? {
                guard min(a, b) <= position, position <= max(a, b) else { return nil }
                return a == b ? tb : ta + (tb - ta) * (position - a) / (b - a)
            }
            func crossing(_ i: Int) -> Double? { crossing(times[i - 1], positions[i - 1], times[i], positions[i]) }
            guard times.count >= 2 else { return nil }
            // The finger's path up to `limit`: the events before it and the point at it.
            if let here = finger(at: limit) {
                var j = times.count - 1
                while j > 0, times[j] > limit { j -= 1 }
                if times[j] < limit, let t = crossing(times[j], positions[j], limit, here) { return t }
                var i = j
                while i > 0, times[i] >= limit - 0.25 {
                    if let t = crossing(i), t <= limit { return t }
                    i -= 1
                }
            }
            for i in 1..<times.count where times[i] > limit && times[i - 1] <= limit + 0.1 {
                if let t = crossing(i), t >= limit { return t }
            }
            return nil
        }
    }

    /// The figures of `result`'s trace (a replay at a display rate, for presentation times).
    /// `finger`: another replay of the same recording whose pans are the finger (one with the
    /// touch filter off, for the filter's own cost); nil: `result`'s own pans.
    public init(_ result: ReplayCommand.Result, finger: ReplayCommand.Result? = nil) {
        var strokes: [Stroke] = []
        var shown: [(t: Double, y: Double)] = []
        for event in (finger ?? result).trace {
            guard case let .pan(t, phase, _, y, _, _, _) = event else { continue }
            if phase == "began" { strokes.append(Stroke()) }
            guard !strokes.isEmpty else { continue }
            if phase == "began" || phase == "changed" {
                strokes[strokes.count - 1].times.append(t)
                strokes[strokes.count - 1].positions.append(y)
            } else {
                strokes[strokes.count - 1].lift = t
            }
        }
        for event in result.trace {
            if case let .frame(t, _, y, _, _) = event { shown.append((t, y)) }
        }
        var lags: [Double] = []
        // Runs of frames in one direction: each frame's presentation time, where its content
        // stands for, the finger then, the direction, and the stroke (for the finger at other
        // times).
        var frameRuns: [[Shown]] = []
        var overshoot = 0.0, lead = 0.0
        for (index, stroke) in strokes.enumerated() {
            guard let began = stroke.times.first, let lift = stroke.lift else { continue }
            // The content at rest before the pan began, and where the finger was then.
            let before = shown.last { $0.t <= began }?.y ?? result.startOffset.y
            let origin = stroke.positions[0]
            // Where a finger that moved the content exactly would be, for a frame's offset: the
            // content moves against the finger (finger up, offset up).
            func standsFor(_ offset: Double) -> Double { origin - (offset - before) }
            let during = shown.filter { $0.t > began && $0.t <= lift && result.scrollRange.y.contains($0.y) }
            var frameRun: [Shown] = []
            var direction = 0.0
            var previous: (t: Double, y: Double, finger: Double)?
            for frame in during {
                guard let finger = stroke.finger(at: frame.t) else { continue }
                lags.append(abs(finger - standsFor(frame.y)))
                // Ahead of the moving finger: past the furthest it has been (its events and
                // where it is now) the way it goes, within this stroke.
                if let before = stroke.finger(at: frame.t - 0.008), abs(finger - before) > 0.001 {
                    let way: Double = finger > before ? 1 : -1
                    var furthest = finger * way
                    for (t, p) in zip(stroke.times, stroke.positions) where t <= frame.t { furthest = max(furthest, p * way) }
                    lead = max(lead, standsFor(frame.y) * way - furthest)
                }
                if let p = previous {
                    let step = standsFor(frame.y) - standsFor(p.y)
                    let sign: Double = step > 0 ? 1 : step < 0 ? -1 : direction
                    if sign != direction, !frameRun.isEmpty { frameRuns.append(frameRun); frameRun = [] }
                    direction = sign
                    if frameRun.isEmpty { frameRun.append(Shown(t: p.t, c: standsFor(p.y), f: p.finger, sign: sign, stroke: index)) }
                    frameRun.append(Shown(t: frame.t, c: standsFor(frame.y), f: finger, sign: sign, stroke: index))
                }
                previous = (frame.t, frame.y, finger)
            }
            if !frameRun.isEmpty { frameRuns.append(frameRun) }
            // Past the finger's last place before the lift, in the direction it moved.
            if let last = stroke.positions.last, stroke.positions.count >= 2 {
                let moving = last - stroke.positions[stroke.positions.count - 2]
                for frame in during where frame.t >= lift - 0.1 {
                    overshoot = max(overshoot, (standsFor(frame.y) - last) * (moving >= 0 ? 1 : -1))
                }
            }
        }
        // The content's steps and the finger's over the same frames, each step signed the way
        // its run goes; the steady part: each run of eight steps or more, less three at each end.
        var steady: [(content: Double, finger: Double)] = []
        for run in frameRuns where run.count >= 9 {
            let steps = zip(run, run.dropFirst()).map { a, b in (content: abs(b.c - a.c), finger: (b.f - a.f) * b.sign) }
            steady += steps.dropFirst(3).dropLast(3)
        }
        frames = lags.count
        (lagP50, lagP95) = (Self.rank(lags, 0.5), Self.rank(lags, 0.95))
        judder = Self.spread(steady.map(\.content))
        fingerJudder = Self.spread(steady.map(\.finger))
        // What the pipeline adds: the content's steps against the finger's, over the finger's mean.
        let fingerMean = steady.isEmpty ? 0 : steady.map { abs($0.finger) }.reduce(0, +) / Double(steady.count)
        excessJudder = fingerMean > 0 ? Self.deviation(steady.map { $0.content - $0.finger }) / fingerMean : 0
        self.overshoot = overshoot > 0 ? overshoot : 0
        self.lead = lead > 0 ? lead : 0
        missedVblanks = result.missedVblanks

        // Time lag, over the steady frames (runs of eight frames or more, less three at each
        // end) where the finger moves faster than 30 points a second.
        var timeLags: [Double] = []
        var steadyFrames: [[Shown]] = []
        for run in frameRuns where run.count >= 9 {
            let kept = Array(run.dropFirst(3).dropLast(3))
            steadyFrames.append(kept)
            for frame in kept {
                let stroke = strokes[frame.stroke]
                guard let before = stroke.finger(at: frame.t - 0.01), abs(frame.f - before) / 0.01 > 30, let when = stroke.time(at: frame.c, before: frame.t) else { continue }
                timeLags.append((frame.t - when) * 1000)
            }
        }
        (timeLagP50, timeLagP95) = (Self.rank(timeLags, 0.5), Self.rank(timeLags, 0.95))
        // The finger one median time lag earlier, stepped at the same frames.
        let delay = timeLagP50 / 1000
        var contentSteps: [Double] = [], fingerSteps: [Double] = []
        var contentHigh: [Double] = [], fingerHigh: [Double] = []
        for run in steadyFrames where run.count >= 2 {
            let stroke = strokes[run[0].stroke]
            var cs: [Double] = [], fs: [Double] = []
            for (a, b) in zip(run, run.dropFirst()) {
                guard let fa = stroke.finger(at: a.t - delay), let fb = stroke.finger(at: b.t - delay) else { continue }
                cs.append((b.c - a.c) * b.sign)
                fs.append((fb - fa) * b.sign)
            }
            contentSteps += cs
            fingerSteps += fs
            contentHigh += Self.highPass(cs)
            fingerHigh += Self.highPass(fs)
        }
        let fingerStep = fingerSteps.isEmpty ? 0 : fingerSteps.map(abs).reduce(0, +) / Double(fingerSteps.count)
        let contentStep = contentSteps.isEmpty ? 0 : contentSteps.map(abs).reduce(0, +) / Double(contentSteps.count)
        if fingerStep > 0 {
            let difference = Self.variance(contentSteps) - Self.variance(fingerSteps)
            alignedExcessJudder = (difference >= 0 ? 1 : -1) * abs(difference).squareRoot() / fingerStep
            fingerHighPassJudder = Self.deviation(fingerHigh) / fingerStep
        } else {
            (alignedExcessJudder, fingerHighPassJudder) = (0, 0)
        }
        highPassJudder = contentStep > 0 ? Self.deviation(contentHigh) / contentStep : 0
    }

    /// The value at `fraction` of `values` sorted (index rounded down), 0 for none.
    private static func rank(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// Each value less the mean of the five centred on it (the ends, where five do not fit, left out).
    private static func highPass(_ values: [Double]) -> [Double] {
        guard values.count >= 5 else { return [] }
        return (2..<(values.count - 2)).map { (i: Int) -> Double in
            let window: Double = values[(i - 2)...(i + 2)].reduce(0, +)
            return values[i] - window / 5
        }
    }

    /// The variance of `values` (0 for fewer than two).
    private static func variance(_ values: [Double]) -> Double {
        let d = deviation(values)
        return d * d
    }

    /// Standard deviation over mean (0 for fewer than two values or a zero mean).
    private static func spread(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return mean > 0 ? deviation(values) / mean : 0
    }

    /// The standard deviation of `values`.
    private static func deviation(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }
}
