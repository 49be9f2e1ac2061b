/// UIScrollView's resistance when dragging past an edge.
///
/// b = x·d·c / (d + c·x): Grant Paul's 2012 reverse-engineering of UIScrollView, used by
/// UltraDrawerView `RubberBand.swift`, GitHawk `RubberBandDistance.swift` and BookPlayer
/// (docs/physics.md, "Scrolling"). At x = d the content has moved 0.355·d; it never
/// reaches d.
public struct RubberBand: Sendable, Equatable {
    /// Dimensionless stiffness; UIScrollView's is 0.55.
    public var coefficient: Double
    /// The viewport's size along the dragged axis, px.
    public var dimension: Double

    /// The UIScrollView coefficient, 0.55.
    public static let uiScrollViewCoefficient = 0.55

    /// A rubber band over a view `dimension` points long, with UIScrollView's coefficient by default.
    public init(coefficient: Double = RubberBand.uiScrollViewCoefficient, dimension: Double) {
        (self.coefficient, self.dimension) = (coefficient, dimension)
    }

    /// Displayed overscroll (px) for a finger that went `distance` px past the edge.
    /// Odd in `distance`, so either edge uses the same call.
    public func band(_ distance: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let x = abs(distance), d = dimension, c = coefficient
        let b = x * d * c / (d + c * x)
        return distance < 0 ? -b : b
    }

    /// Finger distance (px) that displays `overscroll` px: the inverse of `band`.
    /// Lets a drag that starts on an overscrolled view (caught mid-bounce) continue without a
    /// jump. Overscrolls at or beyond the asymptote `dimension` map to infinity.
    public func distance(forOverscroll overscroll: Double) -> Double {
        let b = abs(overscroll), d = dimension, c = coefficient
        guard b < d else { return overscroll < 0 ? -.infinity : .infinity }
        let x = b * d / (c * (d - b))
        return overscroll < 0 ? -x : x
    }
}
