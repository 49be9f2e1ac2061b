/// Estimates a finger's velocity from its recent positions.
///
/// Least-squares polynomial of degree 2 per axis over the samples of the last
/// `horizon` seconds (at most `historySize`, at least `minSamples`), as Flutter's
/// `VelocityTracker` and Android's LSQ2 strategy do; the velocity is the fit's linear
/// coefficient at the newest sample. A gap longer than `assumeStoppedAfter` between samples
/// ends the scan, and one before the lift gives zero: a finger that stopped before lifting
/// must not fling.
public struct VelocityTracker: Sendable {
    private struct Sample: Sendable { var time: Double; var position: Point }

    public var horizon: Double = GestureConstants.velocityHorizon
    public var historySize: Int = GestureConstants.velocityHistorySize
    public var minSamples: Int = GestureConstants.velocityMinSamples
    public var assumeStoppedAfter: Double = GestureConstants.assumeStoppedAfter

    private var samples: [Sample] = []

    public init() {}

    /// Adds a position (px) seen at `time` (s). Samples must come in time order.
    /// A sample older than the newest one, or with a non-finite value, is dropped: a
    /// malformed stream must not poison the fit.
    public mutating func add(_ position: Point, at time: Double) {
        guard time.isFinite, position.x.isFinite, position.y.isFinite else { return }
        if let last = samples.last, time < last.time { return }
        samples.append(Sample(time: time, position: position))
        if samples.count > historySize { samples.removeFirst(samples.count - historySize) }
    }

    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// Velocity (px/s) at `time` (the lift, or the newest sample when nil).
    public func velocity(at time: Double? = nil) -> Point {
        guard let newest = samples.last else { return .zero }
        if let time, time - newest.time > assumeStoppedAfter { return .zero }
        var ts: [Double] = [], xs: [Double] = [], ys: [Double] = []
        var previous = newest.time
        for sample in samples.reversed() {
            let age = newest.time - sample.time
            if age > horizon || previous - sample.time > assumeStoppedAfter { break }
            previous = sample.time
            // Time in units of the horizon, in [-1, 0]: keeps the normal equations well
            // conditioned (seconds would put Σt⁴ near 1e-8 beside Σ1 near 20).
            ts.append(-age / horizon)
            xs.append(sample.position.x)
            ys.append(sample.position.y)
        }
        guard ts.count >= minSamples else { return .zero }
        guard let vx = Self.slope(ts, xs), let vy = Self.slope(ts, ys) else { return .zero }
        return Point(x: vx / horizon, y: vy / horizon)
    }

    /// Linear coefficient of the least-squares quadratic through (t, v), i.e. dv/dt at t = 0.
    /// Falls back to a straight line when the quadratic's system is singular (samples at only
    /// two distinct times); nil when even that is (all at one time).
    static func slope(_ t: [Double], _ v: [Double]) -> Double? {
        var s = [Double](repeating: 0, count: 5)   // Σ t^k, k = 0...4
        var b = [Double](repeating: 0, count: 3)   // Σ v·t^k, k = 0...2
        for i in t.indices {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { b[k] += v[i] * p }
                p *= t[i]
            }
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        if let c = solve3(m, b) { return c[1] }
        let det = s[0] * s[2] - s[1] * s[1]
        guard abs(det) > 1e-18 * max(1, s[0] * s[2]) else { return nil }
        return (s[0] * b[1] - s[1] * b[0]) / det
    }

    /// Cramer's rule on a 3×3 system; nil when it is (numerically) singular.
    private static func solve3(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        let scale = m.flatMap { $0 }.map(abs).max() ?? 0
        guard abs(d) > 1e-12 * scale * scale * scale, d.isFinite else { return nil }
        var result = [Double]()
        for col in 0..<3 {
            var mc = m
            for row in 0..<3 { mc[row][col] = b[row] }
            result.append(det(mc) / d)
        }
        return result
    }
}
