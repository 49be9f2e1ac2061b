import CPNG
import CTurboJPEG
import CWebP
import PanelRender

/// Pictures made in memory for the image tests and the decoders' seed corpora: JPEG through
/// TurboJPEG's encoder, WebP through libwebp's, and an Exif orientation spliced in, so no
/// binary fixture has to be kept for each case.
public enum TestPictures {
    /// A `width` x `height` surface in four opaque quadrants: red top left, green top right,
    /// blue bottom left, yellow bottom right (which way a picture is turned shows at a glance).
    public static func quadrants(width: Int, height: Int, alpha: UInt32 = 255) -> Surface {
        let surface = Surface(width: width, height: height, format: .argb8888)
        for y in 0..<height {
            let row = (surface.pixels + y * surface.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let rgb: UInt32 = switch (x < width / 2, y < height / 2) {
                case (true, true): 0xff0000
                case (false, true): 0x00ff00
                case (true, false): 0x0000ff
                case (false, false): 0xffff00
                }
                // Premultiplied.
                let r = ((rgb >> 16) & 0xff) * alpha / 255, g = ((rgb >> 8) & 0xff) * alpha / 255, b = (rgb & 0xff) * alpha / 255
                row[x] = alpha << 24 | r << 16 | g << 8 | b
            }
        }
        return surface
    }

    /// The quadrant colour expected at a corner, 0xRRGGBB.
    public static let red: UInt32 = 0xff0000, green: UInt32 = 0x00ff00, blue: UInt32 = 0x0000ff, yellow: UInt32 = 0xffff00

    /// `surface` as a JPEG at `quality`: baseline 4:4:4, or progressive 4:2:0 (as cameras'
    /// web exports are).
    public static func jpeg(_ surface: Surface, quality: Int32 = 95, progressive: Bool = false) -> [UInt8] {
        guard let handle = tjInitCompress() else { return [] }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        guard tjCompress2(handle, surface.pixels.assumingMemoryBound(to: UInt8.self), Int32(surface.width), Int32(surface.stride),
                          Int32(surface.height), Int32(TJPF_BGRA.rawValue), &buffer, &size,
                          Int32(progressive ? TJSAMP_420.rawValue : TJSAMP_444.rawValue), quality, progressive ? TJFLAG_PROGRESSIVE : 0) == 0,
              let buffer else { return [] }
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// `surface` as WebP: lossless (alpha kept) or lossy at `quality`.
    public static func webp(_ surface: Surface, lossless: Bool = true, quality: Float = 90) -> [UInt8] {
        // libwebp's encoder takes straight alpha.
        var straight = [UInt8](repeating: 0, count: surface.width * surface.height * 4)
        for y in 0..<surface.height {
            let row = (surface.pixels + y * surface.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<surface.width {
                let p = row[x], a = p >> 24
                func un(_ c: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a)) }
                let at = (y * surface.width + x) * 4
                (straight[at], straight[at + 1], straight[at + 2], straight[at + 3]) = (un(p & 0xff), un((p >> 8) & 0xff), un((p >> 16) & 0xff), UInt8(a))
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = straight.withUnsafeBufferPointer { pixels in
            lossless ? WebPEncodeLosslessBGRA(pixels.baseAddress, Int32(surface.width), Int32(surface.height), Int32(surface.width * 4), &output)
                     : WebPEncodeBGRA(pixels.baseAddress, Int32(surface.width), Int32(surface.height), Int32(surface.width * 4), quality, &output)
        }
        guard size > 0, let output else { return [] }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A little-endian TIFF block holding one IFD0 entry: Orientation = `orientation`.
    static func tiff(orientation: Int) -> [UInt8] {
        [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0, 0]
    }

    /// `jpeg` with an Exif APP1 segment saying `orientation` right after its SOI marker.
    public static func withOrientation(jpeg: [UInt8], _ orientation: Int) -> [UInt8] {
        let body = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff(orientation: orientation)
        let length = body.count + 2
        return Array(jpeg[0..<2]) + [0xff, 0xe1, UInt8(length >> 8), UInt8(length & 0xff)] + body + Array(jpeg[2...])
    }

    /// `webp` (a simple lossless or lossy file) made an extended one that says `orientation`:
    /// a VP8X header announcing Exif (WebP container specification, "Extended File Format"),
    /// the image chunk, then the EXIF chunk, the RIFF size updated. A simple file cannot carry
    /// metadata: libwebpdemux finds an EXIF chunk only where VP8X announces it.
    public static func withOrientation(webp: [UInt8], _ orientation: Int) -> [UInt8] {
        var width: Int32 = 0, height: Int32 = 0
        _ = webp.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &width, &height) }
        let payload = tiff(orientation: orientation)
        let le24 = { (v: Int) in Array(le32(v).prefix(3)) }
        // Flags: bit 3 (0x08) Exif; alpha (0x10) when the image chunk is lossless and may have it.
        let flags: UInt8 = 0x08 | (Array(webp[12..<16]) == Array("VP8L".utf8) ? 0x10 : 0)
        let vp8x = Array("VP8X".utf8) + le32(10) + [flags, 0, 0, 0] + le24(Int(width) - 1) + le24(Int(height) - 1)
        let exif = Array("EXIF".utf8) + le32(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
        let body = Array("WEBP".utf8) + vp8x + Array(webp[12...]) + exif
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// `png` with an eXIf chunk saying `orientation` after its header (PNG 1.5, section
    /// 11.3.3.7: before the image data), its CRC computed, as a camera app's PNG carries it.
    public static func withOrientation(png: [UInt8], _ orientation: Int) -> [UInt8] {
        let payload = tiff(orientation: orientation)
        let typed = Array("eXIf".utf8) + payload
        let crc = UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        let chunk = be32(payload.count) + typed + be32(Int(crc))
        // The signature (8 bytes), then IHDR: length, type, 13 bytes, CRC.
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xff), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

    private static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8((v >> 24) & 0xff)] }

    /// `jpeg` with its frame header (SOF0) claiming `width` x `height`: a decompression bomb
    /// whose few bytes declare a huge picture.
    public static func jpegClaiming(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = jpeg
        var at = 2
        while at + 9 < out.count, out[at] == 0xff {
            let marker = out[at + 1], length = Int(out[at + 2]) << 8 | Int(out[at + 3])
            if marker == 0xc0 || marker == 0xc2 {
                (out[at + 5], out[at + 6]) = (UInt8(height >> 8), UInt8(height & 0xff))
                (out[at + 7], out[at + 8]) = (UInt8(width >> 8), UInt8(width & 0xff))
                return out
            }
            at += 2 + length
        }
        return out
    }
}
