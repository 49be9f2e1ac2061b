/// A one-dimensional motion evaluated in closed form.
///
/// Times are seconds since the simulation started; positions are pixels (or points) and
/// velocities pixels per second. Simulations are immutable values: composing them (a fling
/// handing over to a spring) builds a new value, nothing is integrated step by step, so the
/// same time always gives the same answer whatever the frame rate.
public protocol Simulation: Sendable {
    /// Position at `t` seconds.
    func x(_ t: Double) -> Double
    /// Velocity at `t` seconds, in units per second.
    func dx(_ t: Double) -> Double
    /// Whether the motion has come to rest (within its tolerance) at `t` seconds.
    func isDone(_ t: Double) -> Bool
}

/// How close to the end a simulation must be to count as done.
public struct Tolerance: Sendable, Equatable {
    /// Distance in pixels under which two positions are the same.
    public var distance: Double
    /// Speed in pixels per second under which the motion has stopped.
    public var velocity: Double

    /// Motion counts as stopped within `distance` points of the end and below `velocity` points per second.
    public init(distance: Double, velocity: Double) { (self.distance, self.velocity) = (distance, velocity) }

    /// Tolerance for scrolling on a screen with `scale` pixels per point.
    ///
    /// Distance 0.5 px: under half a pixel nothing visible moves (ScrollMechanics'
    /// `SimpleScrollView` threshold 0.5/scale). Velocity 1/(0.050·scale) px/s: Flutter's
    /// `ScrollPhysics` tolerance, i.e. less than one pixel per 50 ms frame.
    public static func scroll(scale: Double = 1) -> Tolerance {
        Tolerance(distance: 0.5 / scale, velocity: 1 / (0.050 * scale))
    }
}
