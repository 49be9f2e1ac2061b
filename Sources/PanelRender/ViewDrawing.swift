import Glibc
import PanelUI

/// The renderer's `DrawingContext`: a view's own drawing (`View.draw(in:)`) on the canvas, in
/// the view's points, at its place and opacity. Nothing is cleared or clipped for a view that
/// draws nothing (most views): the first primitive clears what the view may cover (its
/// extent, as the culling takes it, and two pixels for anti-aliasing) and clips the canvas to
/// the damage within the view's bounds.
@MainActor
final class ViewDrawing: DrawingContext {
    private unowned let renderer: Renderer
    private var canvas: Canvas?
    private var pending: PendingClear?
    /// The view's frame, points on the screen.
    private var frame = Rect.zero
    /// What the view may cover, points (its extent in screen space).
    private var extent = Rect.zero
    private var opacity = 1.0
    /// The frame's damage and the clip the view is drawn in, points: the canvas's clip is made
    /// from them only when the view draws (most views do not; no array is made for them).
    private var damage: [Rect] = []
    private var clip = Rect.zero
    /// Whether a primitive ran for the current view.
    private var used = false

    init(renderer: Renderer) { self.renderer = renderer }

    /// Sets the context up for one view; nothing is done to the canvas yet.
    func begin(frame: Rect, extent: Rect, opacity: Double, state: Renderer.DrawState) {
        (canvas, pending, self.frame, self.extent, self.opacity) = (state.canvas, state.pending, frame, extent, opacity)
        (damage, clip) = (state.damage, state.clip)
        used = false
    }

    /// Ends the view's drawing; true when the canvas's clip was changed.
    func end() -> Bool {
        canvas = nil
        pending = nil
        return used
    }

    /// Before the first primitive: clear under the view's content, clip to its damaged bounds.
    private func prepare() -> Canvas? {
        guard let canvas else { return nil }
        if !used {
            used = true
            let areas = clip.intersection(frame).map { inner in damage.compactMap { $0.intersection(inner) } } ?? []
            guard !areas.isEmpty else { self.canvas = nil; return nil }
            pending?.clear(Renderer.box(around: renderer.toPixels(extent), margin: 2), on: canvas)
            canvas.setClip(areas.map { Renderer.outward(renderer.toPixels($0)) })
        }
        return canvas
    }

    /// A point of the view's space on the canvas, pixels.
    private func pixel(_ p: Point) -> Point {
        Point(x: (frame.minX + p.x) * renderer.scale, y: (frame.minY + p.y) * renderer.scale)
    }

    /// A rectangle of the view's space on the canvas, pixels.
    private func pixels(_ r: Rect) -> Rect {
        Rect(origin: pixel(r.origin), size: Size(width: r.width * renderer.scale, height: r.height * renderer.scale))
    }

    var size: Size { frame.size }

    func fill(_ rect: Rect, color: Color, cornerRadius: Double) {
        guard let canvas = prepare(), rect.width > 0, rect.height > 0 else { return }
        if cornerRadius > 0 {
            canvas.fillRoundedRect(pixels(rect), radius: cornerRadius * renderer.scale, color: color, opacity: opacity)
        } else {
            canvas.fill(pixels(rect), color: color, opacity: opacity)
        }
    }

    func line(from start: Point, to end: Point, width: Double, color: Color) {
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, width > 0, let canvas = prepare() else { return }
        // The quad around the segment: half the width to each side, square ends.
        let nx = -dy / length * width / 2, ny = dx / length * width / 2
        let a = pixel(Point(x: start.x + nx, y: start.y + ny)), b = pixel(Point(x: end.x + nx, y: end.y + ny))
        let c = pixel(Point(x: end.x - nx, y: end.y - ny)), d = pixel(Point(x: start.x - nx, y: start.y - ny))
        canvas.fill(triangles: [Triangle(a, b, c), Triangle(a, c, d)], color: color, opacity: opacity)
    }

    func fill(polygon points: [Point], color: Color) {
        guard points.count >= 3, let canvas = prepare() else { return }
        let corners = points.map(pixel)
        let fan = (1..<corners.count - 1).map { Triangle(corners[0], corners[$0], corners[$0 + 1]) }
        canvas.fill(triangles: fan, color: color, opacity: opacity)
    }

    func stroke(arcAround center: Point, radius: Double, from start: Double, to end: Double, width: Double, color: Color) {
        guard radius > 0, width > 0, start != end, let canvas = prepare() else { return }
        let angles = arcAngles(radius: radius + width / 2, from: start, to: end)
        let inner = max(0, radius - width / 2), outer = radius + width / 2
        func at(_ r: Double, _ a: Double) -> Point { pixel(Point(x: center.x + r * cos(a), y: center.y + r * sin(a))) }
        var triangles: [Triangle] = []
        triangles.reserveCapacity(2 * (angles.count - 1))
        for (a, b) in zip(angles, angles.dropFirst()) {
            let (ai, ao, bi, bo) = (at(inner, a), at(outer, a), at(inner, b), at(outer, b))
            triangles += [Triangle(ai, ao, bo), Triangle(ai, bo, bi)]
        }
        canvas.fill(triangles: triangles, color: color, opacity: opacity)
    }

    func fill(sectorAround center: Point, radius: Double, from start: Double, to end: Double, color: Color) {
        guard radius > 0, start != end, let canvas = prepare() else { return }
        let rim = arcAngles(radius: radius, from: start, to: end).map { pixel(Point(x: center.x + radius * cos($0), y: center.y + radius * sin($0))) }
        let middle = pixel(center)
        canvas.fill(triangles: zip(rim, rim.dropFirst()).map { Triangle(middle, $0, $1) }, color: color, opacity: opacity)
    }

    /// The angles an arc of `radius` points from `start` to `end` is drawn through: a step
    /// every 2 pixels of its length or less (at least 2 steps, at most 720), at most a turn.
    private func arcAngles(radius: Double, from start: Double, to end: Double) -> [Double] {
        let turn = 2 * Double.pi
        let sweep = max(-turn, min(turn, end - start))
        let length = abs(sweep) * radius * renderer.scale
        let steps = min(720, max(2, Int((length / 2).rounded(.up))))
        return (0...steps).map { start + sweep * Double($0) / Double(steps) }
    }

    func draw(_ image: ImageReference, in rect: Rect, contentMode: ContentMode, tint: Color?) {
        guard let canvas = prepare() else { return }
        renderer.drawImage(image, mode: contentMode, rotation: 0, tint: tint, in: pixels(rect), opacity: opacity, canvas: canvas)
    }

    func draw(text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment, maxLines: Int) {
        guard !text.isEmpty, let canvas = prepare() else { return }
        renderer.drawText(text, font: font, maxLines: maxLines, alignment: alignment, color: color,
                          rightToLeftUI: renderer.layoutDirection == .rightToLeft, in: pixels(rect), opacity: opacity, canvas: canvas)
    }
}
