import PanelGestures
/// Timing curve of a duration-based animation: maps elapsed fraction to progress.
public enum AnimationCurve: Sendable, Equatable {
    /// Constant speed.
    case linear
    /// Core Animation's `kCAMediaTimingFunctionEaseIn`, cubic Bézier (0.42, 0, 1, 1).
    case easeIn
    /// `kCAMediaTimingFunctionEaseOut`, (0, 0, 0.58, 1).
    case easeOut
    /// `kCAMediaTimingFunctionEaseInEaseOut`, (0.42, 0, 0.58, 1): UIView animations' default,
    /// and so MJRefresh's.
    case easeInOut
    /// Any cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2).
    case cubicBezier(Double, Double, Double, Double)

    /// Progress at elapsed fraction `t` in [0, 1].
    public func progress(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .linear: return t
        case .easeIn: return Self.bezier(0.42, 0, 1, 1, t)
        case .easeOut: return Self.bezier(0, 0, 0.58, 1, t)
        case .easeInOut: return Self.bezier(0.42, 0, 0.58, 1, t)
        case let .cubicBezier(x1, y1, x2, y2): return Self.bezier(x1, y1, x2, y2, t)
        }
    }

    /// y at the Bézier parameter whose x is `x`: Newton steps, bisection if they stall.
    private static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func coord(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = x
        for _ in 0..<8 {
            let error = coord(x1, x2, s) - x
            if abs(error) < 1e-7 { return coord(y1, y2, s) }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-6 { break }
            s -= error / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<40 {
            let value = coord(x1, x2, s)
            if abs(value - x) < 1e-7 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return coord(y1, y2, s)
    }
}
