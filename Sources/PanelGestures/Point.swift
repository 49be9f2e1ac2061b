/// A position or a displacement on the screen, in pixels (x right, y down).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal position, points (grows to the right).
    public var x: Double
    /// Vertical position, points (grows downwards).
    public var y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// The sum, component by component.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The difference, component by component.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both components times `s`.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// Adds `b` to `a`.
    public static func += (a: inout Point, b: Point) { a = a + b }

    /// Euclidean length, px.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// "(x, y)".
    public var description: String { "(\(x), \(y))" }
}

/// One of the two screen axes.
public enum Axis: Sendable, Hashable {
    /// Left to right; top to bottom.
    case horizontal, vertical
}
