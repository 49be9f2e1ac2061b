/// What a view's own drawing (`View.draw(in:)`) draws with: fills, rounded rectangles, lines,
/// convex polygons, arcs and sectors, images and text, in points of the view's own space (its top-left corner
/// is 0,0), as LVGL's draw events and Flutter's `CustomPainter` give. The renderer clips it
/// to the view's bounds and the frame's damage, applies the view's opacity, and draws it
/// after the view's background and before its subviews.
@MainActor
public protocol DrawingContext {
    /// The view's size, points.
    var size: Size { get }
    /// Fills `rect` with `color`; `cornerRadius` > 0 rounds its corners (anti-aliased).
    func fill(_ rect: Rect, color: Color, cornerRadius: Double)
    /// A straight line `width` points wide from `start` to `end`, square-ended.
    func line(from start: Point, to end: Point, width: Double, color: Color)
    /// Fills the convex polygon through `points` (a triangle fan from the first point).
    func fill(polygon points: [Point], color: Color)
    /// Strokes the arc of the circle about `center` of `radius` points from the angle `start`
    /// to `end` (radians, clockwise on screen from the positive x axis; `end` below `start`
    /// goes the other way; more than a whole turn draws the circle once), `width` points wide
    /// across the circle, ends cut square to it: a progress ring, a gauge.
    func stroke(arcAround center: Point, radius: Double, from start: Double, to end: Double, width: Double, color: Color)
    /// Fills the sector of the disc about `center` of `radius` points between the angles
    /// `start` and `end` (as ``stroke(arcAround:radius:from:to:width:color:)`` takes them): a
    /// pie chart's slice; a whole turn is the disc.
    func fill(sectorAround center: Point, radius: Double, from start: Double, to end: Double, color: Color)
    /// Draws `image` in `rect` as `contentMode` places it (a supplied picture, a file, or
    /// artwork tinted with `tint`).
    func draw(_ image: ImageReference, in rect: Rect, contentMode: ContentMode, tint: Color?)
    /// Draws `text` in `rect`: shaped in `font` (bidi, fallback faces), wrapped to at most
    /// `maxLines` lines (0: as many as fit), centred vertically, aligned across as `alignment`.
    func draw(text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment, maxLines: Int)
}

extension DrawingContext {
    /// Fills `rect` with `color`, square-cornered.
    public func fill(_ rect: Rect, color: Color) { fill(rect, color: color, cornerRadius: 0) }
    /// Draws `image` filling `rect` (scaled to fit, its aspect kept), artwork untinted.
    public func draw(_ image: ImageReference, in rect: Rect) { draw(image, in: rect, contentMode: .scaleAspectFit, tint: nil) }
    /// Draws one line of `text` in `rect`, at the leading edge.
    public func draw(text: String, in rect: Rect, font: Font, color: Color) {
        draw(text: text, in: rect, font: font, color: color, alignment: .natural, maxLines: 1)
    }
}
