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
    }

    /// The figures of `result`'s trace (a replay at a display rate, for presentation times).
    public init(_ result: ReplayCommand.Result) {
        var strokes: [Stroke] = []
        var shown: [(t: Double, y: Double)] = []
        for event in result.trace {
            switch event {
            case let .pan(t, phase, _, y, _, _, _):
                if phase == "began" { strokes.append(Stroke()) }
                guard !strokes.isEmpty else { continue }
                if phase == "began" || phase == "changed" {
                    strokes[strokes.count - 1].times.append(t)
                    strokes[strokes.count - 1].positions.append(y)
                } else {
                    strokes[strokes.count - 1].lift = t
                }
            case let .frame(t, _, y, _, _):
                shown.append((t, y))
            default:
                break
            }
        }
        var lags: [Double] = []
        // Runs of frames in one direction: the content's steps and the finger's over the same frames.
        var runs: [[(content: Double, finger: Double)]] = []
        var overshoot = 0.0
        for stroke in strokes {
            guard let began = stroke.times.first, let lift = stroke.lift else { continue }
            // The content at rest before the pan began, and where the finger was then.
            let before = shown.last { $0.t <= began }?.y ?? result.startOffset.y
            let origin = stroke.positions[0]
            // Where a finger that moved the content exactly would be, for a frame's offset: the
            // content moves against the finger (finger up, offset up).
            func standsFor(_ offset: Double) -> Double { origin - (offset - before) }
            let during = shown.filter { $0.t > began && $0.t <= lift && result.scrollRange.y.contains($0.y) }
            var run: [(content: Double, finger: Double)] = []
            var direction = 0.0
            var previous: (t: Double, y: Double, finger: Double)?
            for frame in during {
                guard let finger = stroke.finger(at: frame.t) else { continue }
                lags.append(abs(finger - standsFor(frame.y)))
                if let p = previous {
                    let step = standsFor(frame.y) - standsFor(p.y)
                    let sign: Double = step > 0 ? 1 : step < 0 ? -1 : direction
                    if sign != direction, !run.isEmpty { runs.append(run); run = [] }
                    direction = sign
                    run.append((abs(step), (finger - p.finger) * sign))
                }
                previous = (frame.t, frame.y, finger)
            }
            if !run.isEmpty { runs.append(run) }
            // Past the finger's last place before the lift, in the direction it moved.
            if let last = stroke.positions.last, stroke.positions.count >= 2 {
                let moving = last - stroke.positions[stroke.positions.count - 2]
                for frame in during where frame.t >= lift - 0.1 {
                    overshoot = max(overshoot, (standsFor(frame.y) - last) * (moving >= 0 ? 1 : -1))
                }
            }
        }
        // The steady part: each run of eight frames or more, less three at each end.
        var steady: [(content: Double, finger: Double)] = []
        for run in runs where run.count >= 8 { steady += run.dropFirst(3).dropLast(3) }
        frames = lags.count
        let sorted = lags.sorted()
        lagP50 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.5))]
        lagP95 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        judder = Self.spread(steady.map(\.content))
        fingerJudder = Self.spread(steady.map(\.finger))
        // What the pipeline adds: the content's steps against the finger's, over the finger's mean.
        let fingerMean = steady.isEmpty ? 0 : steady.map { abs($0.finger) }.reduce(0, +) / Double(steady.count)
        excessJudder = fingerMean > 0 ? Self.deviation(steady.map { $0.content - $0.finger }) / fingerMean : 0
        self.overshoot = overshoot > 0 ? overshoot : 0
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
