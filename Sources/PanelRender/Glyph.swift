import CFreeType
import CPixman
import Glibc

/// A rasterised glyph: an A8 coverage mask (pixman image over memory it owns) and metrics; or
/// a whole line of them added into one mask.
final class Glyph {
    /// The bitmap's size, pixels.
    let width, height: Int
    /// Offset of the bitmap from the pen position, pixels (FreeType's bitmap_left/top).
    let left, top: Int
    /// How far the pen moves after it, pixels.
    let advance: Double
    /// The coverage, nil when there is no ink.
    let mask: OpaquePointer?
    /// A colour glyph's pixels (an emoji's BGRA bitmap, premultiplied as FreeType gives it),
    /// drawn as an image instead of through the mask.
    let color: Surface?
    private let bits: UnsafeMutableRawPointer?

    init(slot: FT_GlyphSlot) {
        let bitmap = slot.pointee.bitmap
        width = Int(bitmap.width)
        height = Int(bitmap.rows)
        left = Int(slot.pointee.bitmap_left)
        top = Int(slot.pointee.bitmap_top)
        advance = Double(slot.pointee.advance.x) / 64
        color = nil
        guard width > 0, height > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else {
            bits = nil
            mask = nil
            return
        }
        // pixman wants rows on 4-byte boundaries; FreeType's pitch need not be.
        let stride = (width + 3) & ~3
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        for row in 0..<height {
            (memory + row * stride).copyMemory(from: buffer + row * Int(bitmap.pitch), byteCount: width)
        }
        bits = memory
        mask = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height),
                                        memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// A colour glyph: `image` (premultiplied ARGB) placed at `left`, `top` from the pen.
    init(color image: Surface, left: Int, top: Int, advance: Double) {
        (width, height, self.left, self.top, self.advance) = (image.width, image.height, left, top, advance)
        color = image
        mask = nil
        bits = nil
    }

    /// A line with no ink (spaces only).
    init(empty advance: Double) {
        width = 0; height = 0; left = 0; top = 0
        self.advance = advance
        mask = nil
        bits = nil
        color = nil
    }

    /// A line: the glyphs' masks added into one, each at (x, y) from its top-left corner.
    init(line glyphs: [(Glyph, Int, Int)], width: Int, height: Int, left: Int, top: Int, advance: Double) {
        (self.width, self.height, self.left, self.top, self.advance) = (width, height, left, top, advance)
        color = nil
        let stride = (width + 3) & ~3
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        bits = memory
        let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height),
                                             memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        mask = image
        for (glyph, x, y) in glyphs {
            guard let source = glyph.mask else { continue }
            pixman_image_composite32(PIXMAN_OP_ADD, source, nil, image, 0, 0, 0, 0, Int32(x), Int32(y),
                                     Int32(glyph.width), Int32(glyph.height))
        }
    }

    deinit {
        if let mask { pixman_image_unref(mask) }
        bits?.deallocate()
    }
}
