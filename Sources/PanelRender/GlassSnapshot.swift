/// What the glass showed at one moment: its pixels as 0xRRGGBB words (the top byte unused),
/// row after row, in the glass's own orientation (a picture turned on the glass is turned
/// here too). A value: it is taken on the run loop and encoded elsewhere (`PNG.encode`).
public struct GlassSnapshot: Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// `width` x `height` pixels, 0x00RRGGBB.
    public let pixels: [UInt32]

    /// A snapshot of `pixels` (`width` x `height`, 0xRRGGBB words).
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "a snapshot has every pixel")
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    /// The pixels of `width` x `height` in memory at `base`, `stride` bytes a row, stored as
    /// `format` (16-bit ones widened, 8-bit channels kept).
    public init(base: UnsafeRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = base + y * stride
                switch format {
                case .xrgb8888, .argb8888:
                    let words = row.assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width { out[y * width + x] = words[x] & 0x00ff_ffff }
                case .rgb565:
                    let halves = row.assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width {
                        let p = UInt32(halves[x])
                        // 5 and 6 bits widened by repeating their top bits (0x1f -> 0xff).
                        let r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f
                        out[y * width + x] = ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
                    }
                }
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixels of `surface` (a headless display's, which is its glass).
    public init(_ surface: Surface) {
        self.init(base: surface.pixels, width: surface.width, height: surface.height, stride: surface.stride, format: surface.format)
    }
}

extension ScanoutTarget {
    /// What this memory holds now. It is read, once, for an operator's screenshot: the one read
    /// of scan-out memory the program makes (it is slow on write-combined memory, and rare).
    public func snapshot() -> GlassSnapshot {
        GlassSnapshot(base: UnsafeRawPointer(pixelBase), width: width, height: height, stride: stride, format: format)
    }
}
