#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exponential friction: the velocity decays by `rate` every millisecond.
///
/// Closed forms from ScrollMechanics `DecelerationTimingParameters.swift`, with
/// k = 1000·ln(rate): x(t) = x₀ + v₀·(e^(kt) − 1)/k, v(t) = v₀·e^(kt), rest point x₀ − v₀/k.
public struct FrictionSimulation: Simulation {
    /// Offset at time 0, points.
    public let start: Double
    /// Velocity at time 0, points per second.
    public let velocity: Double
    /// The share of velocity kept each millisecond.
    public let rate: DecelerationRate
    /// When motion counts as stopped.
    public let tolerance: Tolerance
    private let k: Double

    /// - Parameters:
    ///   - start: position at t = 0, px.
    ///   - velocity: velocity at t = 0, px/s.
    ///   - rate: velocity multiplier per ms.
    ///   - tolerance: when motion counts as stopped.
    public init(start: Double, velocity: Double, rate: DecelerationRate = .normal,
                tolerance: Tolerance = .scroll()) {
        (self.start, self.velocity, self.rate, self.tolerance) = (start, velocity, rate, tolerance)
        self.k = rate.decayPerSecond
    }

    /// Position at `t` seconds: start + v·(e^(kt) − 1)/k.
    public func x(_ t: Double) -> Double { start + velocity * (exp(k * t) - 1) / k }
    /// Velocity at `t` seconds: v·e^(kt).
    public func dx(_ t: Double) -> Double { velocity * exp(k * t) }
    /// Whether the speed at `t` is below the tolerance.
    public func isDone(_ t: Double) -> Bool { abs(dx(t)) < tolerance.velocity }

    /// Where the motion ends as t → ∞, px.
    public var restPosition: Double { start - velocity / k }

    /// Seconds until the speed falls below `threshold` px/s (0 if it already is).
    public func timeToStop(threshold: Double? = nil) -> Double {
        let limit = threshold ?? tolerance.velocity
        guard abs(velocity) > limit else { return 0 }
        return log(limit / abs(velocity)) / k
    }

    /// The first time the motion reaches `position`, or nil if it never does.
    public func time(atPosition position: Double) -> Double? {
        if position == start { return 0 }
        // e^(kt) = 1 + (p − x₀)·k/v₀ must lie in (0, 1] for a decaying motion.
        guard velocity != 0 else { return nil }
        let e = 1 + (position - start) * k / velocity
        guard e > 0, e <= 1 else { return nil }
        return log(e) / k
    }
}
