/// Decoded pixels that can cross threads: a thumbnail decoded by a worker, handed to the run
/// loop. Premultiplied BGRA bytes (little-endian A8R8G8B8, the renderer's `argb8888`), rows of
/// `width * 4` bytes with no padding.
public struct Bitmap: Sendable, Hashable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// `width * height * 4` bytes, premultiplied BGRA.
    public let pixels: [UInt8]

    /// Bytes the pixels take.
    public var bytes: Int { pixels.count }

    /// The pixels of `surface` (an `argb8888` one; other formats are read as if they were).
    public init(surface: Surface) {
        (width, height) = (surface.width, surface.height)
        let row = surface.width * 4
        var bytes = [UInt8](repeating: 0, count: row * surface.height)
        bytes.withUnsafeMutableBytes { out in
            for y in 0..<surface.height {
                (out.baseAddress! + y * row).copyMemory(from: surface.pixels + y * surface.stride, byteCount: row)
            }
        }
        pixels = bytes
    }

    /// A surface of its own holding these pixels.
    public func surface() -> Surface {
        let surface = Surface(width: width, height: height, format: .argb8888)
        let row = width * 4
        pixels.withUnsafeBytes { raw in
            for y in 0..<height {
                (surface.pixels + y * surface.stride).copyMemory(from: raw.baseAddress! + y * row, byteCount: row)
            }
        }
        return surface
    }
}
