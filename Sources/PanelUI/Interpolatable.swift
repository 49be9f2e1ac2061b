import PanelGestures

/// A value an animation can move between two ends.
public protocol Interpolatable {
    /// `a` at `f` = 0, `b` at `f` = 1; `f` may leave [0, 1] for curves that overshoot.
    static func interpolate(_ a: Self, _ b: Self, _ f: Double) -> Self
}

extension Double: Interpolatable {
    /// `a` + (`b` − `a`)·`f`.
    public static func interpolate(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
}

extension Point: Interpolatable {
    /// Each coordinate interpolated.
    public static func interpolate(_ a: Point, _ b: Point, _ f: Double) -> Point {
        Point(x: .interpolate(a.x, b.x, f), y: .interpolate(a.y, b.y, f))
    }
}

extension EdgeInsets: Interpolatable {
    /// Each inset interpolated.
    public static func interpolate(_ a: EdgeInsets, _ b: EdgeInsets, _ f: Double) -> EdgeInsets {
        EdgeInsets(top: .interpolate(a.top, b.top, f), left: .interpolate(a.left, b.left, f),
                   bottom: .interpolate(a.bottom, b.bottom, f), right: .interpolate(a.right, b.right, f))
    }
}
