import CPixman
import Glibc
import PanelUI

/// Drawing operations on a surface, in pixels, all through pixman: solid and translucent
/// fills, anti-aliased polygons (as triangles), masks and images, clipped to a region.
public final class Canvas {
    /// Where it draws.
    public let surface: Surface
    /// The clip set last, as pixman holds it (whole pixels, rounded outwards), kept until the
    /// next: a frame asks what of a box is inside it for most views it draws (`clipped`), and
    /// building it again each time was a region made and freed per view.
    private let clipRegion = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)
    /// Whether a clip is set (`clipRegion` holds it); none: the whole surface.
    private var hasClip = false

    /// A canvas on `surface`.
    public init(surface: Surface) {
        self.surface = surface
        pixman_region32_init(clipRegion)
    }

    deinit {
        pixman_region32_fini(clipRegion)
        clipRegion.deallocate()
    }

    /// Limits drawing to `rects` (pixels); empty: the whole surface.
    public func setClip(_ rects: [Rect]) {
        hasClip = !rects.isEmpty
        guard hasClip else {
            pixman_image_set_clip_region32(surface.image, nil)
            return
        }
        // The boxes on the stack: the clip changes for most views a frame draws, and an array
        // each time was an allocation, a retain and a release per view (docs/benchmarks.md).
        withUnsafeTemporaryAllocation(of: pixman_box32_t.self, capacity: rects.count) { boxes in
            for (i, r) in rects.enumerated() { boxes[i] = Self.box(r) }
            pixman_region32_fini(clipRegion)
            pixman_region32_init_rects(clipRegion, boxes.baseAddress, Int32(rects.count))
        }
        // pixman copies the region into the image.
        pixman_image_set_clip_region32(surface.image, clipRegion)
    }

    /// Makes `out` the part of `box` that drawing reaches now (inside the clip; no clip: all
    /// of it). The caller finishes `out` (`pixman_region32_fini`).
    func clipped(_ box: pixman_box32_t, into out: inout pixman_region32_t) {
        guard hasClip else {
            var b = box
            pixman_region32_init_rects(&out, &b, 1)
            return
        }
        pixman_region32_init(&out)
        pixman_region32_intersect_rect(&out, clipRegion, box.x1, box.y1,
                                       UInt32(max(0, box.x2 - box.x1)), UInt32(max(0, box.y2 - box.y1)))
    }

    /// The box of a rectangle of pixels, rounded outwards: what the clip holds of it.
    static func box(_ r: Rect) -> pixman_box32_t {
        pixman_box32_t(x1: Int32(r.minX.rounded(.down)), y1: Int32(r.minY.rounded(.down)),
                       x2: Int32(r.maxX.rounded(.up)), y2: Int32(r.maxY.rounded(.up)))
    }

    /// pixman works in premultiplied colour; `opacity` multiplies the colour's alpha.
    static func pixmanColor(_ c: Color, opacity: Double = 1) -> pixman_color_t {
        let a = Double(c.alpha) / 255 * min(max(opacity, 0), 1)
        func channel(_ v: UInt8) -> UInt16 { UInt16((Double(v) / 255 * a * 65535).rounded()) }
        return pixman_color_t(red: channel(c.red), green: channel(c.green), blue: channel(c.blue),
                              alpha: UInt16((a * 65535).rounded()))
    }

    /// Moves the pixels of `area` by (−dx, −dy): the pixel at (x, y) becomes the one that was
    /// at (x + dx, y + dy). Within this surface rows are moved with memmove in an order that
    /// never reads what was already overwritten; from another surface pixman copies. Ignores
    /// the clip.
    public func move(_ area: Rect, dx: Int, dy: Int, from source: Surface? = nil) {
        let x0 = max(0, Int(area.minX.rounded())), y0 = max(0, Int(area.minY.rounded()))
        let x1 = min(surface.width, Int(area.maxX.rounded())), y1 = min(surface.height, Int(area.maxY.rounded()))
        // Destination: the part of the area whose source is inside the area too.
        let dx0 = max(x0, x0 - dx), dx1 = min(x1, x1 - dx)
        let dy0 = max(y0, y0 - dy), dy1 = min(y1, y1 - dy)
        guard dx1 > dx0, dy1 > dy0 else { return }
        if let source, source !== surface {
            pixman_image_composite32(PIXMAN_OP_SRC, source.image, nil, surface.image, Int32(dx0 + dx), Int32(dy0 + dy),
                                     0, 0, Int32(dx0), Int32(dy0), Int32(dx1 - dx0), Int32(dy1 - dy0))
            return
        }
        let bpp = surface.format.bytesPerPixel
        let bytes = (dx1 - dx0) * bpp
        let rows = dy > 0 ? Array(dy0..<dy1) : Array((dy0..<dy1).reversed())
        for y in rows {
            let destination = surface.pixels + y * surface.stride + dx0 * bpp
            let from = surface.pixels + (y + dy) * surface.stride + (dx0 + dx) * bpp
            memmove(destination, from, bytes)
        }
    }

    /// Fills `rect` (pixels; fractional edges are rounded outwards to whole pixels).
    public func fill(_ rect: Rect, color: Color, opacity: Double = 1) {
        guard !rect.isEmpty else { return }
        var pc = Canvas.pixmanColor(color, opacity: opacity)
        let opaque = color.alpha == 255 && opacity >= 1
        var box = pixman_box32_t(x1: Int32(rect.minX.rounded()), y1: Int32(rect.minY.rounded()),
                                 x2: Int32(rect.maxX.rounded()), y2: Int32(rect.maxY.rounded()))
        pixman_image_fill_boxes(opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, surface.image, &pc, 1, &box)
    }

    /// Fills the triangles (pixel coordinates), anti-aliased.
    public func fill(triangles: [Triangle], color: Color, opacity: Double = 1) {
        guard !triangles.isEmpty else { return }
        var pc = Canvas.pixmanColor(color, opacity: opacity)
        guard let source = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(source) }
        var tris = triangles.map { $0.pixman }
        pixman_composite_triangles(PIXMAN_OP_OVER, source, surface.image, PIXMAN_a8, 0, 0, 0, 0, Int32(tris.count), &tris)
    }

    /// A rectangle with rounded corners, anti-aliased.
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color, opacity: Double = 1) {
        guard radius > 0 else { return fill(rect, color: color, opacity: opacity) }
        let r = min(radius, rect.width / 2, rect.height / 2)
        // Only the corners need rasterised coverage. They are cut at whole pixels (the nearest
        // lines past the arcs), so the rest is three boxes whose inner sides are whole and whose
        // outer sides, when fractional, are one row or column of pixels at the share they
        // cover: pixman's solid fill, a fraction of rasterising a fan of triangles over the
        // whole area (a 300x120 card cost 1.2 M instructions a frame that way).
        let left = (rect.minX + r).rounded(.up), right = (rect.maxX - r).rounded(.down)
        let top = (rect.minY + r).rounded(.up), bottom = (rect.maxY - r).rounded(.down)
        guard left <= right, top <= bottom else {
            return fill(triangles: Shapes.roundedRect(rect, radius: radius), color: color, opacity: opacity)
        }
        fill(covering: Rect(x: left, y: rect.minY, width: right - left, height: rect.height), color: color, opacity: opacity)
        fill(covering: Rect(x: rect.minX, y: top, width: left - rect.minX, height: bottom - top), color: color, opacity: opacity)
        fill(covering: Rect(x: right, y: top, width: rect.maxX - right, height: bottom - top), color: color, opacity: opacity)
        fill(triangles: Shapes.roundedCorners(rect, radius: r, cutAt: (left, top, right, bottom)), color: color, opacity: opacity)
    }

    /// Fills `rect` (pixels) with its fractional edges anti-aliased: the whole pixels inside
    /// at `opacity`, each partial row, column and corner pixel at the share of it covered.
    func fill(covering rect: Rect, color: Color, opacity: Double) {
        guard rect.width > 0, rect.height > 0 else { return }
        let x0 = rect.minX.rounded(.up), x1 = rect.maxX.rounded(.down), y0 = rect.minY.rounded(.up), y1 = rect.maxY.rounded(.down)
        guard x0 <= x1, y0 <= y1 else {
            // Inside one pixel across or down: its coverage over the pixels it touches.
            let bx = rect.minX.rounded(.down), by = rect.minY.rounded(.down)
            let box = Rect(x: bx, y: by, width: rect.maxX.rounded(.up) - bx, height: rect.maxY.rounded(.up) - by)
            return fill(box, color: color, opacity: opacity * rect.width * rect.height / (box.width * box.height))
        }
        // (Column, share) pairs: the partial column before, the whole ones, the partial after.
        let columns = [(rect.minX.rounded(.down), x0, x0 - rect.minX), (x0, x1, 1.0), (x1, x1 + 1, rect.maxX - x1)]
        let rows = [(rect.minY.rounded(.down), y0, y0 - rect.minY), (y0, y1, 1.0), (y1, y1 + 1, rect.maxY - y1)]
        for (cx0, cx1, cover) in columns where cx1 > cx0 && cover > 0 {
            for (ry0, ry1, share) in rows where ry1 > ry0 && share > 0 {
                fill(Rect(x: cx0, y: ry0, width: cx1 - cx0, height: ry1 - ry0), color: color, opacity: opacity * cover * share)
            }
        }
    }

    /// Runs `body` with a solid source of `color` (one per text line, not per glyph).
    func withSolidSource(_ color: Color, opacity: Double, _ body: (OpaquePointer) -> Void) {
        var pc = Canvas.pixmanColor(color, opacity: opacity)
        guard let source = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(source) }
        body(source)
    }

    /// Composites `source` through an A8 coverage `mask` with its top-left at (x, y) (glyphs).
    func composite(_ source: OpaquePointer, mask: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
        pixman_image_composite32(PIXMAN_OP_OVER, source, mask, surface.image, 0, 0, 0, 0,
                                 Int32(x), Int32(y), Int32(width), Int32(height))
    }

    /// Draws `image` into `rect` (scaled to it), rotated by `rotation` radians about the
    /// rect's centre, with `opacity`. Bilinear filtering when scaled or rotated.
    public func draw(image: Surface, in rect: Rect, rotation: Double = 0, opacity: Double = 1, filter: ImageFilter = .bilinear) {
        guard !rect.isEmpty else { return }
        // At its own size on whole pixels (a thumbnail decoded at its drawn size): a plain
        // composite, no transform and no filter, which pixman runs on its fast paths. With an
        // identity transform it still took the general transformed path: about 20
        // instructions a pixel.
        if rotation == 0, rect.width == Double(image.width), rect.height == Double(image.height),
           rect.minX == rect.minX.rounded(), rect.minY == rect.minY.rounded(), abs(rect.minX) < 1e6, abs(rect.minY) < 1e6 {
            var mask: OpaquePointer?
            if opacity < 1 {
                var pc = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(min(max(opacity, 0), 1) * 65535))
                mask = pixman_image_create_solid_fill(&pc)
            }
            defer { if let mask { pixman_image_unref(mask) } }
            pixman_image_composite32(PIXMAN_OP_OVER, image.image, mask, surface.image, 0, 0, 0, 0,
                                     Int32(rect.minX), Int32(rect.minY), Int32(image.width), Int32(image.height))
            return
        }
        let sx = Double(image.width) / rect.width, sy = Double(image.height) / rect.height
        // pixman transforms map destination to source: translate to the rect's centre,
        // rotate back, scale to the image, translate to the image's centre.
        let c = cos(-rotation), s = sin(-rotation)
        let cx = rect.midX, cy = rect.midY
        let m00 = c * sx, m01 = -s * sx, m10 = s * sy, m11 = c * sy
        let tx = Double(image.width) / 2 - (m00 * cx + m01 * cy)
        let ty = Double(image.height) / 2 - (m10 * cx + m11 * cy)
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        var transform = pixman_transform_t(matrix: (
            (fixed(m00), fixed(m01), fixed(tx)),
            (fixed(m10), fixed(m11), fixed(ty)),
            (0, 0, fixed(1))))
        pixman_image_set_transform(image.image, &transform)
        switch filter {
        case .bilinear:
            pixman_image_set_filter(image.image, PIXMAN_FILTER_BILINEAR, nil, 0)
        case .good:
            // A box filter over the source pixels each destination pixel covers (cairo's GOOD
            // filter for downscaling): bilinear reads 4 source pixels whatever the scale, so a
            // large image shrunk far with it aliases.
            var count: Int32 = 0
            if let params = pixman_filter_create_separable_convolution(&count, fixed(max(sx, 1)), fixed(max(sy, 1)),
                                                                     PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX,
                                                                     PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 2, 2) {
                pixman_image_set_filter(image.image, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
                free(params)
            } else {
                pixman_image_set_filter(image.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            }
        }
        defer { pixman_image_set_transform(image.image, nil) }
        // The area the rotated rect covers.
        let half = (w: rect.width / 2, h: rect.height / 2)
        let ex = abs(cos(rotation)) * half.w + abs(sin(rotation)) * half.h
        let ey = abs(sin(rotation)) * half.w + abs(cos(rotation)) * half.h
        let x0 = Int32((cx - ex).rounded(.down)), y0 = Int32((cy - ey).rounded(.down))
        let x1 = Int32((cx + ex).rounded(.up)), y1 = Int32((cy + ey).rounded(.up))
        var mask: OpaquePointer?
        if opacity < 1 {
            var pc = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(min(max(opacity, 0), 1) * 65535))
            mask = pixman_image_create_solid_fill(&pc)
        }
        defer { if let mask { pixman_image_unref(mask) } }
        pixman_image_composite32(PIXMAN_OP_OVER, image.image, mask, surface.image, x0, y0, 0, 0, x0, y0, x1 - x0, y1 - y0)
    }
}

/// How an image is sampled when drawn at another size.
public enum ImageFilter: Sendable {
    /// Four source pixels per destination pixel: fast, and right near 1:1 (every frame).
    case bilinear
    /// Every source pixel a destination pixel covers: for scaling down once (cached images).
    case good
}

/// A triangle in pixel coordinates.
public struct Triangle: Sendable, Hashable {
    /// The first corner.
    public var a: Point
    /// The second corner.
    public var b: Point
    /// The third corner.
    public var c: Point

    /// A triangle with these corners.
    public init(_ a: Point, _ b: Point, _ c: Point) { (self.a, self.b, self.c) = (a, b, c) }

    var pixman: pixman_triangle_t {
        func p(_ q: Point) -> pixman_point_fixed_t {
            pixman_point_fixed_t(x: pixman_fixed_t((q.x * 65536).rounded()), y: pixman_fixed_t((q.y * 65536).rounded()))
        }
        return pixman_triangle_t(p1: p(a), p2: p(b), p3: p(c))
    }

    /// Twice the signed area (positive when clockwise on screen).
    public var doubleArea: Double { (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) }
}
