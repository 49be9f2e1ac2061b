import CPixman
import FoundationEssentials
import Glibc

/// Pixels in memory: the renderer's own buffer, or one it is lent (a DRM dumb buffer).
public final class Surface {
    public let width: Int
    public let height: Int
    /// Bytes per row (a multiple of 4, as pixman requires).
    public let stride: Int
    public let format: PixelFormat
    /// The first pixel.
    public let pixels: UnsafeMutableRawPointer
    let image: OpaquePointer
    private let owned: Bool

    /// A surface with its own zeroed memory.
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        precondition(width > 0 && height > 0, "a surface has pixels")
        self.width = width
        self.height = height
        self.format = format
        stride = (width * format.bytesPerPixel + 3) & ~3
        let bytes = stride * height
        if bytes >= Self.hugePage {
            // A frame-sized surface in 2 MiB pages where the kernel offers them (transparent
            // huge pages, "madvise" mode): a turned copy walks the picture by columns, and
            // with 4 KiB pages every few rows cost a TLB miss (a costly one under a hypervisor).
            pixels = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.hugePage)
            _ = madvise(pixels, bytes, MADV_HUGEPAGE)
        } else {
            pixels = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        }
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        owned = true
        image = pixman_image_create_bits(format.pixman, Int32(width), Int32(height),
                                         pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// Wraps memory that someone else owns (it must outlive the surface); `stride` in bytes.
    public init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.pixels = pixels
        owned = false
        image = pixman_image_create_bits(format.pixman, Int32(width), Int32(height),
                                         pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// Bytes of a huge page on x86-64 and arm64 with 4 KiB base pages.
    static let hugePage = 2 << 20

    deinit {
        pixman_image_unref(image)
        if owned { pixels.deallocate() }
    }

    /// The pixel at (x, y) as 0xAARRGGBB (alpha 0xff for formats without alpha; RGB565
    /// expanded to 8 bits per channel).
    public func pixel(x: Int, y: Int) -> UInt32 {
        let row = pixels + y * stride
        switch format {
        case .xrgb8888: return row.load(fromByteOffset: x * 4, as: UInt32.self) | 0xff00_0000
        case .argb8888: return row.load(fromByteOffset: x * 4, as: UInt32.self)
        case .rgb565:
            let v = UInt32(row.load(fromByteOffset: x * 2, as: UInt16.self))
            let r = (v >> 11) & 0x1f, g = (v >> 5) & 0x3f, b = v & 0x1f
            return 0xff00_0000 | ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
        }
    }

    /// Copies `other` (same size) into this surface, converting the format (pixman SRC).
    public func copy(from other: Surface) {
        pixman_image_composite32(PIXMAN_OP_SRC, other.image, nil, image, 0, 0, 0, 0, 0, 0,
                                 Int32(min(width, other.width)), Int32(min(height, other.height)))
    }
}
