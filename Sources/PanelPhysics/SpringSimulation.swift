#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped spring: m·x'' + c·x' + k·(x − end) = 0.
public struct SpringDescription: Sendable, Equatable {
    /// Mass, arbitrary units (only ratios matter).
    public var mass: Double
    /// Stiffness k, force per unit of displacement.
    public var stiffness: Double
    /// Damping c, force per unit of velocity.
    public var damping: Double

    /// A spring of `mass`, `stiffness` (per second squared per unit mass) and `damping` (per second).
    public init(mass: Double, stiffness: Double, damping: Double) {
        precondition(mass > 0 && stiffness > 0 && damping >= 0, "a spring needs mass, stiffness > 0")
        (self.mass, self.stiffness, self.damping) = (mass, stiffness, damping)
    }

    /// A spring from its damping ratio ζ: c = ζ·2·√(m·k).
    public init(mass: Double, stiffness: Double, dampingRatio: Double) {
        self.init(mass: mass, stiffness: stiffness,
                  damping: dampingRatio * 2 * (mass * stiffness).squareRoot())
    }

    /// ζ = c / (2·√(m·k)).
    public var dampingRatio: Double { damping / (2 * (mass * stiffness).squareRoot()) }

    /// The scroll bounce-back spring: mass 1, stiffness 100, critically damped (ζ = 1).
    /// Source: ScrollMechanics `ScrollExample/Sources/SimpleScrollView.swift`
    /// (docs/physics.md, "Scrolling"); no overshoot, settles in about 0.6 s.
    public static let scrollBounce = SpringDescription(mass: 1, stiffness: 100, dampingRatio: 1)

    /// Flutter's `ScrollPhysics._kDefaultSpring`: mass 0.5, stiffness 100, ζ 1.1.
    public static let flutterDefault = SpringDescription(mass: 0.5, stiffness: 100, dampingRatio: 1.1)
}

/// Closed-form motion of a damped spring from `start` towards `end`.
public struct SpringSimulation: Simulation {
    /// How the spring comes to rest: without crossing its end fastest, oscillating, or slowly without crossing.
    public enum Kind: Sendable, Equatable {
        /// Damping ratio 1: back to the end fastest without crossing it.
        case criticallyDamped
        /// Damping ratio below 1: oscillates about the end, the swings dying away.
        case underDamped
        /// Damping ratio above 1: creeps to the end without crossing it.
        case overDamped
    }

    /// The spring's mass, stiffness and damping.
    public let spring: SpringDescription
    /// Position at time 0, points.
    public let start: Double
    /// The position it comes to rest at, points.
    public let end: Double
    /// Velocity at time 0, points per second.
    public let velocity: Double
    /// When motion counts as stopped.
    public let tolerance: Tolerance
    /// The regime its damping ratio gives.
    public let kind: Kind
    // Solution coefficients of y = x − end; meaning depends on `kind`.
    private let r1: Double, r2: Double, c1: Double, c2: Double, w: Double

    /// - Parameters: positions in px, `velocity` in px/s at t = 0.
    public init(spring: SpringDescription, start: Double, end: Double, velocity: Double,
                tolerance: Tolerance = .scroll()) {
        (self.spring, self.start, self.end, self.velocity, self.tolerance) = (spring, start, end, velocity, tolerance)
        let m = spring.mass, c = spring.damping, k = spring.stiffness
        let y0 = start - end
        let discriminant = c * c - 4 * m * k
        // A ratio computed through a square root lands a few ulps off 1: treat a
        // discriminant that small relative to its terms as exactly critical.
        if abs(discriminant) <= 1e-9 * (c * c + 4 * m * k) {
            kind = .criticallyDamped
            r1 = -c / (2 * m); r2 = r1; w = 0
            c1 = y0
            c2 = velocity - r1 * y0
        } else if discriminant > 0 {
            kind = .overDamped
            let root = discriminant.squareRoot()
            r1 = (-c - root) / (2 * m)
            r2 = (-c + root) / (2 * m)
            w = 0
            c2 = (velocity - r1 * y0) / (r2 - r1)
            c1 = y0 - c2
        } else {
            kind = .underDamped
            w = (4 * m * k - c * c).squareRoot() / (2 * m)
            r1 = -c / (2 * m); r2 = r1
            c1 = y0
            c2 = (velocity - r1 * y0) / w
        }
    }

    /// Position at `t` seconds, from the closed form of the spring's regime.
    public func x(_ t: Double) -> Double {
        switch kind {
        case .criticallyDamped: return end + (c1 + c2 * t) * exp(r1 * t)
        case .overDamped: return end + c1 * exp(r1 * t) + c2 * exp(r2 * t)
        case .underDamped: return end + exp(r1 * t) * (c1 * cos(w * t) + c2 * sin(w * t))
        }
    }

    /// Velocity at `t` seconds, the derivative of `x`.
    public func dx(_ t: Double) -> Double {
        switch kind {
        case .criticallyDamped:
            return exp(r1 * t) * (c2 + r1 * (c1 + c2 * t))
        case .overDamped:
            return c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)
        case .underDamped:
            let e = exp(r1 * t)
            return e * ((c1 * r1 + c2 * w) * cos(w * t) + (c2 * r1 - c1 * w) * sin(w * t))
        }
    }

    /// Whether position and velocity at `t` are within the tolerance of the end.
    public func isDone(_ t: Double) -> Bool {
        abs(x(t) - end) < tolerance.distance && abs(dx(t)) < tolerance.velocity
    }
}
