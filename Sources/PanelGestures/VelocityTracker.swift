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

    /// Only samples this recent count, seconds (100 ms, Android's VelocityTracker).
    public var horizon: Double = GestureConstants.velocityHorizon
    /// Samples kept (at least 1).
    public var historySize: Int = GestureConstants.velocityHistorySize
    /// Fewer samples than this give zero velocity (3: a quadratic fit needs three).
    public var minSamples: Int = GestureConstants.velocityMinSamples
    /// A pause this long before the newest sample means the finger stopped, seconds (40 ms).
    public var assumeStoppedAfter: Double = GestureConstants.assumeStoppedAfter

    /// A ring of the last `historySize` samples; `next` is where the next one goes.
    private var ring: [Sample] = []
    private var next = 0

    /// A tracker with no samples and the constants of ``GestureConstants``.
    public init() {}

    /// Adds a position (px) seen at `time` (s). A sample older than the newest one, or with a
    /// non-finite value, is dropped: a malformed stream must not poison the fit.
    public mutating func add(_ position: Point, at time: Double) {
        guard time.isFinite, position.x.isFinite, position.y.isFinite else { return }
        if let last = newest, time < last.time { return }
        let sample = Sample(time: time, position: position)
        let capacity = max(historySize, 1)
        if ring.count > capacity {
            // The size was lowered: keep the newest `capacity` samples, oldest first.
            ring = (0..<capacity).map { ring[(next - capacity + $0 + 2 * ring.count) % ring.count] }
            next = 0
        }
        if ring.count < capacity {
            ring.append(sample)
            next = ring.count % capacity
        } else {
            ring[next] = sample
            next = (next + 1) % capacity
        }
    }

    /// Forgets every sample (a new touch).
    public mutating func reset() {
        ring.removeAll(keepingCapacity: true)
        next = 0
    }

    private var newest: Sample? { ring.isEmpty ? nil : ring[(next - 1 + ring.count) % ring.count] }

    /// Velocity (px/s) at `time` (the lift, or the newest sample when nil).
    public func velocity(at time: Double? = nil) -> Point {
        guard let newest else { return .zero }
        if let time, time - newest.time > assumeStoppedAfter { return .zero }
        // Moments of t (in units of the horizon, in [-1, 0], which keeps the normal equations
        // well conditioned) and of x·t^k, y·t^k, summed newest to oldest without storage.
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var x0 = 0.0, x1 = 0.0, x2 = 0.0, y0 = 0.0, y1 = 0.0, y2 = 0.0
        var count = 0
        var previous = newest.time
        let n = ring.count
        for k in 0..<n {
            let sample = ring[(next - 1 - k + 2 * n) % n]
            let age = newest.time - sample.time
            if age > horizon || previous - sample.time > assumeStoppedAfter { break }
            previous = sample.time
            let t = -age / horizon, t2 = t * t
            s0 += 1; s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
            let x = sample.position.x, y = sample.position.y
            x0 += x; x1 += x * t; x2 += x * t2
            y0 += y; y1 += y * t; y2 += y * t2
            count += 1
        }
        guard count >= minSamples else { return .zero }
        let moments = Moments(s0: s0, s1: s1, s2: s2, s3: s3, s4: s4)
        guard let vx = moments.slope(x0, x1, x2), let vy = moments.slope(y0, y1, y2) else { return .zero }
        return Point(x: vx / horizon, y: vy / horizon)
    }

    /// Σt^k for k = 0...4: the normal equations' matrix.
    struct Moments {
        var s0, s1, s2, s3, s4: Double

        /// Linear coefficient of the least-squares quadratic with right side (b0, b1, b2), i.e.
        /// dv/dt at t = 0 (Cramer's rule). Falls back to a straight line when the quadratic's
        /// system is singular (samples at only two distinct times); nil when even that is.
        func slope(_ b0: Double, _ b1: Double, _ b2: Double) -> Double? {
            let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            let scale = max(s0, abs(s1), s2, abs(s3), s4)
            if det.isFinite, abs(det) > 1e-12 * scale * scale * scale {
                // Column 1 replaced by b.
                let d1 = s0 * (b1 * s4 - s3 * b2) - b0 * (s1 * s4 - s3 * s2) + s2 * (s1 * b2 - b1 * s2)
                return d1 / det
            }
            let det2 = s0 * s2 - s1 * s1
            guard abs(det2) > 1e-18 * max(1, s0 * s2) else { return nil }
            return (s0 * b1 - s1 * b0) / det2
        }
    }
}
