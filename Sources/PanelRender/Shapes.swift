import Glibc
import PanelUI

/// The vector artwork, as triangles: MJRefresh draws bitmaps (arrow@2x.png, the spinner);
/// we draw shapes, so they are sharp at any scale and need no copied assets.
public enum Shapes {
    /// A convex polygon as a triangle fan.
    public static func fan(_ points: [Point]) -> [Triangle] {
        guard points.count >= 3 else { return [] }
        return (1..<(points.count - 1)).map { Triangle(points[0], points[$0], points[$0 + 1]) }
    }

    /// Rounded rectangle outline: each corner a quarter circle of `segments` steps.
    public static func roundedRect(_ r: Rect, radius: Double, segments: Int = 6) -> [Triangle] {
        let radius = min(radius, r.width / 2, r.height / 2)
        var points: [Point] = []
        let corners = [(r.maxX - radius, r.minY + radius, -Double.pi / 2),
                       (r.maxX - radius, r.maxY - radius, 0),
                       (r.minX + radius, r.maxY - radius, Double.pi / 2),
                       (r.minX + radius, r.minY + radius, Double.pi)]
        for (cx, cy, start) in corners {
            points += arc(around: Point(x: cx, y: cy), radius: radius, from: start, segments: segments)
        }
        return fan(points)
    }

    /// A quarter circle's `segments` + 1 points about `center`, from the angle `start`
    /// (radians, clockwise on screen) a quarter turn on.
    static func arc(around center: Point, radius: Double, from start: Double, segments: Int) -> [Point] {
        (0...segments).map { i in
            let angle = start + Double(i) / Double(segments) * Double.pi / 2
            return Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }

    /// The corners of `roundedRect` alone, each cut at the whole-pixel lines `cutAt` (left,
    /// top, right, bottom: at or inside the arcs' ends): the quarter disc over the same arc
    /// points the whole fan uses, and the strips between the arc and the cut, as a fan from the
    /// corner of the cut. The rest of the rectangle is filled otherwise.
    public static func roundedCorners(_ r: Rect, radius: Double, cutAt cut: (left: Double, top: Double, right: Double, bottom: Double),
                                      segments: Int = 6) -> [Triangle] {
        let radius = min(radius, r.width / 2, r.height / 2)
        // Each corner: the arc's centre and start, the cut's corner, and the cut's points on
        // the edges before and after the arc.
        let corners = [(Point(x: r.minX + radius, y: r.minY + radius), Double.pi, Point(x: cut.left, y: cut.top),
                        Point(x: r.minX, y: cut.top), Point(x: cut.left, y: r.minY)),
                       (Point(x: r.maxX - radius, y: r.minY + radius), -Double.pi / 2, Point(x: cut.right, y: cut.top),
                        Point(x: cut.right, y: r.minY), Point(x: r.maxX, y: cut.top)),
                       (Point(x: r.maxX - radius, y: r.maxY - radius), 0, Point(x: cut.right, y: cut.bottom),
                        Point(x: r.maxX, y: cut.bottom), Point(x: cut.right, y: r.maxY)),
                       (Point(x: r.minX + radius, y: r.maxY - radius), Double.pi / 2, Point(x: cut.left, y: cut.bottom),
                        Point(x: cut.left, y: r.maxY), Point(x: r.minX, y: cut.bottom))]
        var triangles: [Triangle] = []
        triangles.reserveCapacity(4 * (segments + 2))
        for (center, start, corner, before, after) in corners {
            triangles += fan([corner, before] + arc(around: center, radius: radius, from: start, segments: segments) + [after])
        }
        return triangles
    }

    /// Rotates `p` by `angle` radians (clockwise on screen) about `center`.
    static func rotate(_ p: Point, about center: Point, by angle: Double) -> Point {
        let c = cos(angle), s = sin(angle)
        let d = p - center
        return Point(x: center.x + d.x * c - d.y * s, y: center.y + d.x * s + d.y * c)
    }

    /// MJRefresh's arrow in `rect` (15×40 pt at its natural size): a shaft and a head pointing
    /// down, turned by `rotation` about the centre (π: up).
    public static func arrow(in rect: Rect, rotation: Double) -> [Triangle] {
        let w = rect.width, h = rect.height
        let shaftWidth = max(w * 0.2, 1.5)
        let headHeight = min(h * 0.35, w * 1.1)
        let cx = rect.midX
        let shaftTop = rect.minY + h * 0.02, shaftBottom = rect.maxY - headHeight + 1
        let shaft = [Point(x: cx - shaftWidth / 2, y: shaftTop), Point(x: cx + shaftWidth / 2, y: shaftTop),
                     Point(x: cx + shaftWidth / 2, y: shaftBottom), Point(x: cx - shaftWidth / 2, y: shaftBottom)]
        let head = [Point(x: rect.minX, y: rect.maxY - headHeight), Point(x: rect.maxX, y: rect.maxY - headHeight),
                    Point(x: cx, y: rect.maxY)]
        let center = Point(x: rect.midX, y: rect.midY)
        return (fan(shaft) + fan(head)).map {
            Triangle(rotate($0.a, about: center, by: rotation), rotate($0.b, about: center, by: rotation),
                     rotate($0.c, about: center, by: rotation))
        }
    }

    /// MJRefresh's trailer arrow (20×20 pt): a chevron pointing left, turned by `rotation`.
    public static func trailArrow(in rect: Rect, rotation: Double) -> [Triangle] {
        let w = rect.width, h = rect.height
        let t = max(w * 0.14, 1.5)
        let tip = Point(x: rect.minX + w * 0.22, y: rect.midY)
        let top = Point(x: rect.maxX - w * 0.25, y: rect.minY + h * 0.12)
        let bottom = Point(x: rect.maxX - w * 0.25, y: rect.maxY - h * 0.12)
        func bar(_ from: Point, _ to: Point) -> [Triangle] {
            let d = to - from
            let length = max(d.length, 0.001)
            let n = Point(x: -d.y / length * t / 2, y: d.x / length * t / 2)
            return fan([from + n, to + n, to - n, from - n])
        }
        let center = Point(x: rect.midX, y: rect.midY)
        return (bar(top, tip) + bar(tip, bottom)).map {
            Triangle(rotate($0.a, about: center, by: rotation), rotate($0.b, about: center, by: rotation),
                     rotate($0.c, about: center, by: rotation))
        }
    }

    /// One spoke of a spinner of `spokes` in `rect`: a rounded bar from 45 % to 95 % of the
    /// radius, at angle index `index` (0 at the top, clockwise).
    public static func spinnerSpoke(in rect: Rect, index: Int, spokes: Int) -> [Triangle] {
        let radius = min(rect.width, rect.height) / 2
        let width = max(radius * 0.18, 1.2)
        let center = Point(x: rect.midX, y: rect.midY)
        let spoke = Rect(x: center.x - width / 2, y: center.y - radius * 0.95, width: width, height: radius * 0.5)
        let angle = Double(index) / Double(spokes) * 2 * Double.pi
        return roundedRect(spoke, radius: width / 2, segments: 3).map {
            Triangle(rotate($0.a, about: center, by: angle), rotate($0.b, about: center, by: angle),
                     rotate($0.c, about: center, by: angle))
        }
    }

    /// A picture's placeholder in `rect` (square): a frame, a sun and two hills, as the
    /// platforms' "photo" symbols draw it; `broken` strikes it through from corner to corner.
    public static func picture(in rect: Rect, broken: Bool) -> [Triangle] {
        let w = rect.width, h = rect.height
        let t = max(min(w, h) * 0.07, 1)
        func bar(_ from: Point, _ to: Point) -> [Triangle] {
            let d = to - from
            let length = max(d.length, 0.001)
            let n = Point(x: -d.y / length * t / 2, y: d.x / length * t / 2)
            return fan([from + n, to + n, to - n, from - n])
        }
        let inner = Rect(x: rect.minX + t / 2, y: rect.minY + h * 0.12, width: w - t, height: h * 0.76)
        let corners = [Point(x: inner.minX, y: inner.minY), Point(x: inner.maxX, y: inner.minY),
                       Point(x: inner.maxX, y: inner.maxY), Point(x: inner.minX, y: inner.maxY)]
        var triangles = (0..<4).flatMap { bar(corners[$0], corners[($0 + 1) % 4]) }
        // The sun: a twelve-sided disc in the upper right.
        let sun = Point(x: inner.minX + inner.width * 0.72, y: inner.minY + inner.height * 0.3), r = inner.height * 0.12
        triangles += fan((0..<12).map { i in
            let a = Double(i) / 12 * 2 * Double.pi
            return Point(x: sun.x + r * cos(a), y: sun.y + r * sin(a))
        })
        // The hills, standing on the frame's bottom.
        let ground = inner.maxY - t / 2
        triangles.append(Triangle(Point(x: inner.minX + t / 2, y: ground), Point(x: inner.minX + inner.width * 0.35, y: inner.minY + inner.height * 0.4),
                                  Point(x: inner.minX + inner.width * 0.7, y: ground)))
        triangles.append(Triangle(Point(x: inner.minX + inner.width * 0.45, y: ground), Point(x: inner.minX + inner.width * 0.7, y: inner.minY + inner.height * 0.58),
                                  Point(x: inner.maxX - t / 2, y: ground)))
        if broken { triangles += bar(Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.maxY)) }
        return triangles
    }
}
