/// A fling inside `leading...trailing` that hands over to a spring at an edge.
///
/// The composition of Flutter's `BouncingScrollSimulation` (widgets/scroll_simulation.dart):
/// friction while in range; when the friction path crosses an edge, a spring towards that
/// edge starts with the velocity the fling had there (capped at `maxSpringTransferVelocity`);
/// a start outside the range springs straight back.
public struct BouncingScrollSimulation: Simulation {
    /// Flutter's `maxSpringTransferVelocity`, 5000 px/s: a very fast fling must not carry
    /// the content a whole screen past the edge.
    public static let maxSpringTransferVelocity: Double = 5000

    private enum Phases: Sendable {
        case friction(FrictionSimulation)
        case spring(SpringSimulation)
        /// Friction until `at` seconds, then the spring (its time starts at 0 there).
        case frictionThenSpring(FrictionSimulation, SpringSimulation, at: Double)
    }

    /// The smallest offset in range, points.
    public let leading: Double
    /// The largest offset in range, points.
    public let trailing: Double
    private let phases: Phases

    /// A fling from `position` that may cross the range's edges.
    /// - Parameters:
    ///   - position: offset at t = 0, px.
    ///   - velocity: velocity at t = 0, px/s.
    ///   - leading: the smallest offset in range, px.
    ///   - trailing: the largest offset in range (`leading <= trailing`), px.
    ///   - spring: the bounce at an edge.
    ///   - rate: the friction while in range.
    ///   - tolerance: when motion counts as stopped.
    public init(position: Double, velocity: Double, leading: Double, trailing: Double,
                spring: SpringDescription = .scrollBounce,
                rate: DecelerationRate = .normal,
                tolerance: Tolerance = .scroll()) {
        let trailing = max(leading, trailing)
        (self.leading, self.trailing) = (leading, trailing)
        func transfer(_ v: Double) -> Double {
            min(max(v, -Self.maxSpringTransferVelocity), Self.maxSpringTransferVelocity)
        }
        if position < leading || position > trailing {
            let edge = position < leading ? leading : trailing
            phases = .spring(SpringSimulation(spring: spring, start: position, end: edge,
                                              velocity: transfer(velocity), tolerance: tolerance))
            return
        }
        let fling = FrictionSimulation(start: position, velocity: velocity, rate: rate, tolerance: tolerance)
        let rest = fling.restPosition
        let edge: Double? = rest < leading ? leading : (rest > trailing ? trailing : nil)
        if let edge, let t = fling.time(atPosition: edge) {
            let bounce = SpringSimulation(spring: spring, start: edge, end: edge,
                                          velocity: transfer(fling.dx(t)), tolerance: tolerance)
            phases = .frictionThenSpring(fling, bounce, at: t)
        } else {
            phases = .friction(fling)
        }
    }

    /// Position at `t` seconds: friction in range, then the spring past an edge.
    public func x(_ t: Double) -> Double {
        switch phases {
        case .friction(let f): return f.x(t)
        case .spring(let s): return s.x(t)
        case .frictionThenSpring(let f, let s, let at): return t < at ? f.x(t) : s.x(t - at)
        }
    }

    /// Velocity at `t` seconds, points per second.
    public func dx(_ t: Double) -> Double {
        switch phases {
        case .friction(let f): return f.dx(t)
        case .spring(let s): return s.dx(t)
        case .frictionThenSpring(let f, let s, let at): return t < at ? f.dx(t) : s.dx(t - at)
        }
    }

    /// Whether the phase running at `t` has come to rest.
    public func isDone(_ t: Double) -> Bool {
        switch phases {
        case .friction(let f): return f.isDone(t)
        case .spring(let s): return s.isDone(t)
        case .frictionThenSpring(let f, let s, let at): return t < at ? f.isDone(t) : s.isDone(t - at)
        }
    }

    /// Time (s) at which a spring takes over: 0 when starting out of range, nil when the
    /// fling comes to rest inside the range.
    public var springStartTime: Double? {
        switch phases {
        case .friction: return nil
        case .spring: return 0
        case .frictionThenSpring(_, _, let at): return at
        }
    }
}
