import CPixman
import PanelUI

/// The damaged pixels not yet drawn over in a frame, cleared only where something that is not
/// an opaque fill draws on them, and at the end where nothing did. A full redraw of opaque
/// rows then writes each of their pixels once (the rows' backgrounds), not twice (the clear,
/// then the backgrounds): the clear was 0.4 M instructions of a 720p frame (benchmarks.md).
/// The region arithmetic is pixman's.
final class PendingClear {
    /// Its own memory: pixman works on the region in place (destination and source one).
    private let region = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)
    /// What the clear fills with (the renderer's `clearColor`).
    let color: Color

    /// All of `areas` (whole pixels) pending.
    init(_ areas: [Rect], color: Color) {
        self.color = color
        var boxes = areas.map(Canvas.box)
        pixman_region32_init_rects(region, &boxes, Int32(boxes.count))
    }

    deinit {
        pixman_region32_fini(region)
        region.deallocate()
    }

    /// An opaque fill writes every pixel of `box` inside the canvas's clip: those need no
    /// clear.
    func cover(_ box: pixman_box32_t, on canvas: Canvas) {
        var written = pixman_region32_t()
        canvas.clipped(box, into: &written)
        pixman_region32_subtract(region, region, &written)
        pixman_region32_fini(&written)
    }

    /// Something that blends is about to draw inside `box` (and the canvas's clip): what is
    /// pending there is cleared first.
    func clear(_ box: pixman_box32_t, on canvas: Canvas) {
        var area = pixman_region32_t()
        canvas.clipped(box, into: &area)
        var due = pixman_region32_t()
        pixman_region32_init(&due)
        pixman_region32_intersect(&due, &area, region)
        pixman_region32_fini(&area)
        if pixman_region32_not_empty(&due) != 0 {
            fill(&due, on: canvas)
            pixman_region32_subtract(region, region, &due)
        }
        pixman_region32_fini(&due)
    }

    /// The frame is drawn: what nothing drew on is cleared.
    func clearRest(on canvas: Canvas) {
        fill(&region.pointee, on: canvas)
        pixman_region32_clear(region)
    }

    private func fill(_ area: inout pixman_region32_t, on canvas: Canvas) {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(&area, &count) else { return }
        for i in 0..<Int(count) {
            let b = boxes[i]
            canvas.fill(Rect(x: Double(b.x1), y: Double(b.y1), width: Double(b.x2 - b.x1), height: Double(b.y2 - b.y1)), color: color)
        }
    }
}
