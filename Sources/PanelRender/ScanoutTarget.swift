import CPixman
import CStream
import Glibc
import PanelUI

/// A whole-pixel rectangle.
public struct PixelRect: Sendable, Hashable {
    /// The rectangle's left, top, width and height, pixels.
    public var x: Int, y: Int, width: Int, height: Int
    /// A rectangle at (`x`, `y`) of `width` by `height` pixels.
    public init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }

    /// The whole pixels `rect` touches (edges rounded outwards), inside `width`×`height`; nil
    /// when nothing is left.
    public init?(covering rect: Rect, width: Int, height: Int) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        let x0 = max(0, min(width, Int(rect.minX.rounded(.down)))), y0 = max(0, min(height, Int(rect.minY.rounded(.down))))
        let x1 = max(0, min(width, Int(rect.maxX.rounded(.up)))), y1 = max(0, min(height, Int(rect.maxY.rounded(.up))))
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The right edge (exclusive).
    public var maxX: Int { x + width }
    /// The bottom edge (exclusive).
    public var maxY: Int { y + height }
    /// Pixels covered.
    public var area: Int { width * height }

    /// Whether `other` lies inside.
    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The smallest rectangle around both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Where this rectangle of a picture `pictureWidth`×`pictureHeight` lands on the glass when
    /// the picture is turned by `rotation` clockwise.
    public func rotated(_ rotation: Rotation, pictureWidth w: Int, pictureHeight h: Int) -> PixelRect {
        switch rotation {
        case .none: return self
        case .clockwise90: return PixelRect(x: h - maxY, y: x, width: height, height: width)
        case .upsideDown: return PixelRect(x: w - maxX, y: h - maxY, width: width, height: height)
        case .clockwise270: return PixelRect(x: y, y: w - maxX, width: height, height: width)
        }
    }
}

/// Memory on its way to the glass: a mapped dumb buffer or a framebuffer device. On real
/// boards it is write-combined or uncached, so a read from it costs many times a read from RAM:
/// it is never drawn into and never read. The one thing it does is take rectangles of a
/// shadow surface, turned as the picture is turned, written row after row (memcpy for an
/// unturned picture; a tiled turn for 32-bit pixels; pixman's nearest-neighbour rotation
/// with the SRC operator, which does not read the destination, for 16-bit ones).
public final class ScanoutTarget {
    /// Pixels of the glass.
    public let width: Int
    /// Rows of the memory.
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// How a pixel is stored.
    public let format: PixelFormat
    private let pixels: UnsafeMutableRawPointer
    /// The same memory as 32-bit pixels, for turned copies (written, never read).
    var pixelBase: UnsafeMutablePointer<UInt32> { pixels.assumingMemoryBound(to: UInt32.self) }
    private let image: OpaquePointer
    /// Bytes written so far (statistics and tests).
    public private(set) var bytesWritten = 0

    /// The widest streaming store this CPU has, asked once (`panel_stream_pick`: 3 AVX-512,
    /// 2 AVX2, 1 SSE2 or the only one there is).
    nonisolated static let streamWidth = panel_stream_pick()

    /// `pixels` stays owned by the caller (a mapping) and must outlive the target.
    public init(pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        (self.pixels, self.width, self.height, self.stride, self.format) = (pixels, width, height, stride, format)
        image = pixman_image_create_bits(format.pixman, Int32(width), Int32(height),
                                         pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    deinit { pixman_image_unref(image) }

    /// Copies `rect` (picture pixels) of `shadow` to where `rotation` puts it on the glass.
    /// The shadow's size is the picture's: the glass's with width and height exchanged for
    /// 90 and 270 degrees.
    public func store(_ rect: PixelRect, from shadow: Surface, rotation: Rotation) {
        guard let rect = PixelRect(covering: Rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height)),
                                   width: shadow.width, height: shadow.height) else { return }
        let target = rect.rotated(rotation, pictureWidth: shadow.width, pictureHeight: shadow.height)
        guard target.x >= 0, target.y >= 0, target.maxX <= width, target.maxY <= height, shadow.format == format else { return }
        let bpp = format.bytesPerPixel
        bytesWritten += target.area * bpp
        if rotation == .none {
            let bytes = rect.width * bpp
            if rect.x == 0, rect.width == width, stride == shadow.stride, stride == bytes {
                // Whole rows of equal layout: one run.
                panel_stream_copy(pixels + rect.y * stride, shadow.pixels + rect.y * shadow.stride, UInt(bytes * rect.height), Self.streamWidth)
            } else {
                for row in rect.y..<rect.maxY {
                    panel_stream_copy(pixels + row * stride + rect.x * bpp, shadow.pixels + row * shadow.stride + rect.x * bpp, UInt(bytes), Self.streamWidth)
                }
            }
            panel_stream_fence()
            return
        }
        if format.bytesPerPixel == 4 {
            storeTurned(target, from: shadow, rotation: rotation)
            return
        }
        // pixman maps destination pixels to source pixels (centres at +0.5): the inverse turn.
        let w = Double(shadow.width), h = Double(shadow.height)
        let m: (Double, Double, Double, Double, Double, Double)
        switch rotation {
        case .none: m = (1, 0, 0, 0, 1, 0)
        case .clockwise90: m = (0, 1, 0, -1, 0, h)
        case .upsideDown: m = (-1, 0, w, 0, -1, h)
        case .clockwise270: m = (0, -1, w, 1, 0, 0)
        }
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        var transform = pixman_transform_t(matrix: (
            (fixed(m.0), fixed(m.1), fixed(m.2)),
            (fixed(m.3), fixed(m.4), fixed(m.5)),
            (0, 0, fixed(1))))
        pixman_image_set_transform(shadow.image, &transform)
        pixman_image_set_filter(shadow.image, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, shadow.image, nil, image, Int32(target.x), Int32(target.y), 0, 0,
                                 Int32(target.x), Int32(target.y), Int32(target.width), Int32(target.height))
        pixman_image_set_transform(shadow.image, nil)
    }
}

extension Surface {
    /// This picture as the glass shows it when turned by `rotation` clockwise: a new surface
    /// with width and height exchanged for 90 and 270 degrees (the copy a display turned by
    /// `display.rotation` makes); itself when not turned.
    public func onGlass(turnedBy rotation: Rotation) -> Surface {
        guard rotation != .none else { return self }
        let (w, h) = rotation.swapsSides ? (height, width) : (width, height)
        let glass = Surface(width: w, height: h, format: format)
        ScanoutTarget(pixels: glass.pixels, width: w, height: h, stride: glass.stride, format: format)
            .store(PixelRect(x: 0, y: 0, width: width, height: height), from: self, rotation: rotation)
        return glass
    }
}

extension ScanoutTarget {
    /// Side of the square tiles a turned copy walks, pixels. The glass is written row by row
    /// inside a tile (runs of whole cache lines, what write-combined memory needs); the
    /// picture is read a short run per row. 64 measured best at 1280x720 on x86-64
    /// (docs/benchmarks.md: `copy-rot90`).
    static let tile = 64

    /// A turned copy of 32-bit pixels: glass pixel (gx, gy) is picture pixel
    /// `origin + gy * down + gx * across`. The quarter turns move 4x4 blocks through a transpose
    /// in registers (`panel_stream_turn`), tile by tile.
    func storeTurned(_ target: PixelRect, from shadow: Surface, rotation: Rotation) {
        let source = UnsafePointer(shadow.pixels.assumingMemoryBound(to: UInt32.self))
        let sourceStride = shadow.stride / 4
        let destinationStride = stride / 4
        let w = shadow.width, h = shadow.height
        let origin: Int, down: Int, across: Int
        switch rotation {
        case .clockwise90:
            // Picture (gy, h - 1 - gx): one picture row up per glass pixel.
            (origin, down, across) = ((h - 1) * sourceStride, 1, -sourceStride)
        case .clockwise270:
            // Picture (w - 1 - gy, gx): one picture row down per glass pixel.
            (origin, down, across) = (w - 1, -1, sourceStride)
        case .upsideDown:
            (origin, down, across) = ((h - 1) * sourceStride + w - 1, -sourceStride, -1)
        case .none:
            (origin, down, across) = (0, sourceStride, 1)
        }
        var ty = target.y
        while ty < target.maxY {
            let tyEnd = min(ty + Self.tile, target.maxY)
            var tx = target.x
            while tx < target.maxX {
                let txEnd = min(tx + Self.tile, target.maxX)
                panel_stream_turn(pixelBase, destinationStride, source + origin, down, across, tx, txEnd, ty, tyEnd)
                tx = txEnd
            }
            ty = tyEnd
        }
        panel_stream_fence()
    }
}

/// Rectangles that still have to reach one scanout buffer, kept few: one that lies inside
/// another is dropped, and past `limit` they become their bounding box (copying a little more
/// costs less than many small copies and commits).
public struct PixelRegion: Sendable, Hashable {
    /// The rectangles, at most `limit`.
    public private(set) var rects: [PixelRect] = []
    /// Beyond this many rectangles, the nearest two are merged.
    public static let limit = 8

    /// No rectangles.
    public init() {}

    /// Whether there are none.
    public var isEmpty: Bool { rects.isEmpty }

    /// Adds `rect`, merging the two closest when there would be more than `limit`.
    public mutating func add(_ rect: PixelRect) {
        guard rect.width > 0, rect.height > 0 else { return }
        if rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        rects.append(rect)
        if rects.count > Self.limit {
            rects = [rects.dropFirst().reduce(rects[0]) { $0.union($1) }]
        }
    }

    /// Forgets every rectangle.
    public mutating func removeAll() { rects.removeAll() }
}
