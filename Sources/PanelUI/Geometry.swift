import PanelGestures

/// A size in points; with `Screen.scale` = 1 (the default on panels) points are pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Points across.
    public var width: Double
    /// Points down.
    public var height: Double

    /// A size of `width` by `height` points.
    public init(width: Double, height: Double) { (self.width, self.height) = (width, height) }

    /// No size.
    public static let zero = Size(width: 0, height: 0)
    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in points, origin at the top left.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner, points.
    public var origin: Point
    /// The width and height, points.
    public var size: Size

    /// A rectangle at `origin` of `size`.
    public init(origin: Point, size: Size) { (self.origin, self.size) = (origin, size) }

    /// A rectangle at (`x`, `y`) of `width` by `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge (exclusive).
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge (exclusive).
    public var maxY: Double { origin.y + size.height }
    /// The horizontal middle.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical middle.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width.
    public var width: Double { size.width }
    /// The height.
    public var height: Double { size.height }
    /// Whether it covers no area.
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Whether `p` is inside (the right and bottom edges are outside).
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }

    /// The rectangle moved by `dx`, `dy` points.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The overlap, or nil when the two do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both; an empty one does not count.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// "(x, y, width, height)".
    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}

/// Margins on the four edges, in points.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Inset at the top, points.
    public var top: Double
    /// Inset at the left, points.
    public var left: Double
    /// Inset at the bottom, points.
    public var bottom: Double
    /// Inset at the right, points.
    public var right: Double

    /// Insets of these amounts, points.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    /// No insets.
    public static let zero = EdgeInsets()

    /// The insets added side by side.
    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    /// The four insets, named.
    public var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }
}

/// A colour with 8-bit sRGB channels and straight (not premultiplied) alpha.
public struct Color: Hashable, Sendable {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8
    /// Opacity, 0 (clear) to 255 (opaque).
    public var alpha: UInt8

    /// A colour; opaque by default.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// UIKit's `lightGrayColor`-like separator, (200, 199, 204).
    public static let separator = Color(red: 200, green: 199, blue: 204)
    /// UIKit's `grayColor`, used for the spinner's default tint (128, 128, 128).
    public static let gray = Color(red: 128, green: 128, blue: 128)
}
