import PanelRefresh
import Glibc
import PanelDisplay

/// Frame timings over a window: touch-to-glass latency and render time percentiles, and the
/// frames that came late. What `run` logs every minute while touched and on SIGUSR1.
public struct FrameStatistics: Sendable {
    /// Seconds between vertical blanks (1/60 s unless the mode says otherwise).
    public var period: Double
    /// Frames recorded.
    public private(set) var frames = 0
    /// Frames that should have been on the glass but were not: a frame drawn as soon as the one
    /// before was presented, yet presented more than one period after it, missed
    /// `round(interval / period) - 1` vertical blanks.
    public private(set) var dropped = 0
    /// Touch-to-glass times of the frames that answered a touch, seconds.
    public private(set) var latencies: [Double] = []
    /// Drawing and copy times, seconds.
    public private(set) var renders: [Double] = []
    /// Seconds between one frame's presentation and the next's, where the next was started
    /// while the last was on the glass (back-to-back frames, as a drag draws them): on a card
    /// with a vblank, whole periods (`display.frame-window` at work), one period when none is
    /// missed.
    public private(set) var flipIntervals: [Double] = []
    /// Vblanks missed: frames on the glass after the vblank they were started for
    /// (`FrameTiming.missedVblanks`).
    public private(set) var missedVblanks = 0
    /// Whether the frames are paced by a vblank (their timings say how many they missed: a
    /// card), and the summary tells the flips' cadence and the vblanks missed.
    public private(set) var paced = false
    private var last: FrameTiming?

    /// Statistics for a panel refreshing every `period` seconds (a frame later than one period after its predecessor counts as dropped).
    public init(period: Double = 1.0 / 60) {
        self.period = period > 0 && period.isFinite ? period : 1.0 / 60
    }

    /// Adds one presented frame.
    public mutating func record(_ timing: FrameTiming) {
        frames += 1
        renders.append(timing.renderSeconds)
        // A latency below zero or above a minute is a clock mix-up, not a measurement.
        if let latency = timing.latency, latency >= 0, latency < 60 { latencies.append(latency) }
        if let last, timing.drawnAt - last.presentedAt < period / 2 {
            let missed = Int(((timing.presentedAt - last.presentedAt) / period).rounded()) - 1
            if missed > 0 { dropped += missed }
        }
        if let last, timing.drawnAt - last.presentedAt < period, timing.presentedAt > last.presentedAt {
            flipIntervals.append(timing.presentedAt - last.presentedAt)
        }
        if let missed = timing.missedVblanks {
            paced = true
            missedVblanks += missed
        }
        last = timing
    }

    /// The value below which `fraction` of `values` lie (nearest rank); nil for none.
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// One log line: `frames 120, dropped 1; touch to glass p50 14.2 ms, p95 ..., p99 ...
    /// (37 frames with touch); render p50 0.41 ms, p99 1.20 ms`, then, on a card that paces
    /// frames, `; flips p50 16.67 ms apart, p95 16.68 ms (40 back to back); 0 vblanks missed`.
    public var summary: String {
        func ms(_ v: Double?) -> String { v.map { TextFormat.fixed($0 * 1000, decimals: 2) + " ms" } ?? "-" }
        var line = "frames \(frames), dropped \(dropped)"
        if latencies.isEmpty {
            line += "; no frame answered a touch"
        } else {
            line += "; touch to glass p50 \(ms(Self.percentile(latencies, 0.5))), p95 \(ms(Self.percentile(latencies, 0.95))), "
                + "p99 \(ms(Self.percentile(latencies, 0.99))) (\(latencies.count) frames with touch)"
        }
        line += "; render p50 \(ms(Self.percentile(renders, 0.5))), p99 \(ms(Self.percentile(renders, 0.99)))"
        if paced, !flipIntervals.isEmpty {
            line += "; flips p50 \(ms(Self.percentile(flipIntervals, 0.5))) apart, p95 \(ms(Self.percentile(flipIntervals, 0.95)))"
                + " (\(flipIntervals.count) back to back); \(missedVblanks) vblank\(missedVblanks == 1 ? "" : "s") missed"
        }
        return line
    }

    /// Starts a new window.
    public mutating func reset() {
        frames = 0
        dropped = 0
        latencies.removeAll()
        renders.removeAll()
        flipIntervals.removeAll()
        missedVblanks = 0
        last = nil
    }
}
