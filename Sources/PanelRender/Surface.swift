import CPixman
import Glibc

/// Pixels in memory: the renderer's own buffer, or one it is lent (a DRM dumb buffer).
public final class Surface {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// Bytes per row (a multiple of 4, as pixman requires).
    public let stride: Int
    /// How a pixel is stored.
    public let format: PixelFormat
    /// The first pixel.
    public let pixels: UnsafeMutableRawPointer
    let image: OpaquePointer
    private let storage: Storage

    /// Where the pixels live, for the deinitializer.
    private enum Storage {
        /// From the Swift allocator (small surfaces).
        case heap
        /// A mapping of its own of `bytes` (frame-sized surfaces): munmap gives it back.
        case mapped(bytes: Int)
        /// Someone else's (a DRM dumb buffer).
        case borrowed
    }

    /// A surface with its own zeroed memory: from `ownMappingBytes` up in an anonymous mapping
    /// of its own, below that from malloc.
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        precondition(width > 0 && height > 0, "a surface has pixels")
        (self.width, self.height, self.format) = (width, height, format)
        stride = (width * format.bytesPerPixel + 3) & ~3
        let bytes = stride * height
        if bytes >= Self.hugePage, let (mapped, length) = Self.mapAligned(bytes) {
            // A frame-sized surface in 2 MiB pages where the kernel offers them (transparent
            // huge pages, "madvise" mode): a turned copy walks the picture by columns, and
            // with 4 KiB pages every few rows cost a TLB miss (a costly one under a hypervisor).
            // Its own mapping, exactly its size: a block from malloc keeps its header in the
            // 2 MiB before it, which a kernel in "always" mode (Debian's) may back with a huge
            // page of its own at the header's first write: 2 MiB for 16 bytes (seen in the VM,
            // docs/deployment.md). An anonymous mapping starts zeroed.
            pixels = mapped
            _ = madvise(pixels, length, MADV_HUGEPAGE)
            storage = .mapped(bytes: length)
        } else if bytes >= Self.ownMappingBytes, let (mapped, length) = Self.map(bytes) {
            pixels = mapped
            storage = .mapped(bytes: length)
        } else {
            pixels = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            pixels.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            storage = .heap
        }
        image = pixman_image_create_bits(format.pixman, Int32(width), Int32(height),
                                         pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// A private anonymous mapping of `bytes` rounded up to whole pages (zeroed, as every
    /// anonymous mapping starts); nil where the kernel refuses.
    private static func map(_ bytes: Int) -> (UnsafeMutableRawPointer, Int)? {
        let page = max(4096, sysconf(Int32(_SC_PAGESIZE)))
        let length = (bytes + page - 1) / page * page
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        return (raw, length)
    }

    /// A private anonymous mapping of `bytes` (rounded up to whole pages) that starts on a
    /// `hugePage` boundary: a larger one is mapped and what lies outside the aligned range is
    /// unmapped. nil where the kernel refuses (the caller takes the allocator's memory).
    private static func mapAligned(_ bytes: Int) -> (UnsafeMutableRawPointer, Int)? {
        let page = max(4096, sysconf(Int32(_SC_PAGESIZE)))
        let length = (bytes + page - 1) / page * page
        let span = length + hugePage
        guard let raw = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let start = UInt(bitPattern: raw)
        let aligned = (start + UInt(hugePage) - 1) & ~(UInt(hugePage) - 1)
        let head = Int(aligned - start)
        if head > 0 { munmap(raw, head) }
        let tail = span - head - length
        if tail > 0 { munmap(raw + head + length, tail) }
        return (raw + head, length)
    }

    /// Wraps memory that someone else owns (it must outlive the surface); `stride` in bytes.
    public init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        (self.width, self.height, self.stride, self.format, self.pixels) = (width, height, stride, format, pixels)
        storage = .borrowed
        image = pixman_image_create_bits(format.pixman, Int32(width), Int32(height),
                                         pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// Whether the pixels are in an anonymous mapping of the surface's own.
    var isOwnMapping: Bool { if case .mapped = storage { true } else { false } }

    /// Bytes from which a surface has a mapping of its own, which goes back to the system with
    /// the surface: 8 KiB, two pages. Pictures are decoded, scaled and kept in caches that
    /// evict them; from malloc, their freed blocks stayed resident as holes between live ones,
    /// which `malloc_trim` could not hand back (3.5 MiB over the goal at a 2 MiB picture cache;
    /// within it since: docs/deployment.md, "Memory that comes back"). Below two pages a
    /// mapping's rounding would cost more than the hole.
    static let ownMappingBytes = 8192

    /// Bytes of a huge page on x86-64 and arm64 with 4 KiB base pages.
    static let hugePage = 2 << 20

    deinit {
        pixman_image_unref(image)
        switch storage {
        case .heap: pixels.deallocate()
        case .mapped(let bytes): munmap(pixels, bytes)
        case .borrowed: break
        }
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
