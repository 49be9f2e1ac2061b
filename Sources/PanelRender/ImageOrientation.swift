import CPNGRows
import CWebP

/// How a camera stored a picture relative to how it is shown: the Exif Orientation tag
/// (0x0112, Exif 2.32 section 4.6.4 A, values 1-8), read from a JPEG's APP1 segment, a WebP's
/// EXIF chunk or a PNG's eXIf chunk. Phones store portrait photos sideways and set 6.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// As stored.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned half a turn.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored about the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Stored turned a quarter counter-clockwise: shown turned a quarter clockwise.
    case right = 6
    /// Mirrored about the other diagonal.
    case rightMirrored = 7
    /// Stored turned a quarter clockwise: shown turned a quarter counter-clockwise.
    case left = 8

    /// Shown with width and height exchanged.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel shown at (x, y) of a picture shown `width` x `height`.
    func source(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, width - 1 - x)
        case .rightMirrored: return (height - 1 - y, width - 1 - x)
        case .left: return (height - 1 - y, x)
        }
    }

    /// The orientation `bytes` of `format` declare; `.up` where they declare none or the
    /// metadata cannot be read (a broken tag never makes the picture fail).
    public static func of(_ bytes: [UInt8], format: ImageFormat) -> ImageOrientation {
        let tiff: [UInt8]?
        switch format {
        case .jpeg: tiff = jpegExif(bytes).map { Array(bytes[$0]) }
        case .webp: tiff = webpExif(bytes)
        case .png: tiff = pngExif(bytes)
        }
        guard let tiff, let value = tiffOrientation(tiff) else { return .up }
        return ImageOrientation(rawValue: value) ?? .up
    }

    /// The most of an Exif block read: 64 KiB, all a JPEG's APP1 segment can hold (its length
    /// is 16 bits), which Exif writers keep to in the other formats too.
    private static let maxTIFFBytes = 1 << 16

    /// Segments of a JPEG searched for the Exif APP1: the first 64 (APP segments come right
    /// after SOI; the scan's data never needs walking).
    private static let maxSegments = 64

    /// The TIFF block of a JPEG's "Exif\0\0" APP1 segment.
    private static func jpegExif(_ b: [UInt8]) -> Range<Int>? {
        var at = 2
        for _ in 0..<maxSegments {
            guard at + 4 <= b.count, b[at] == 0xff else { return nil }
            let marker = b[at + 1]
            // Start of scan or end of image: no metadata after this.
            if marker == 0xda || marker == 0xd9 { return nil }
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2, at + 2 + length <= b.count else { return nil }
            let body = at + 4
            if marker == 0xe1, length >= 8, Array(b[body..<body + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return (body + 6)..<(at + 2 + length)
            }
            at += 2 + length
        }
        return nil
    }

    /// The EXIF chunk of a WebP, found by libwebpdemux.
    private static func webpExif(_ b: [UInt8]) -> [UInt8]? {
        b.withUnsafeBufferPointer { p -> [UInt8]? in
            var data = WebPData(bytes: p.baseAddress, size: p.count)
            guard let demux = WebPDemux(&data) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, "EXIF", 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let bytes = chunk.chunk.bytes else { return nil }
            return Array(UnsafeBufferPointer(start: bytes, count: min(chunk.chunk.size, maxTIFFBytes)))
        }
    }

    /// The eXIf chunk of a PNG, as libpng reads it before the image data.
    private static func pngExif(_ b: [UInt8]) -> [UInt8]? {
        // Room for the most an Exif block may hold, not zeroed: libpng writes what it found.
        let exif = [UInt8](unsafeUninitializedCapacity: maxTIFFBytes) { room, count in
            var width: UInt32 = 0, height: UInt32 = 0, interlaced: Int32 = 0, found = 0
            let read = b.withUnsafeBufferPointer {
                panel_png_rows_size($0.baseAddress, $0.count, &width, &height, &interlaced, room.baseAddress, room.count, &found, nil, 0)
            }
            count = read == 0 ? found : 0
        }
        return exif.isEmpty ? nil : exif
    }

    /// The Orientation entry of IFD0 in the TIFF block `b` (TIFF 6.0, section 2: a byte
    /// order mark "II" or "MM", 42, the offset of IFD0, then 12-byte entries).
    private static func tiffOrientation(_ b: [UInt8]) -> Int? {
        guard b.count >= 8 else { return nil }
        let little: Bool
        switch (b[0], b[1]) {
        case (0x49, 0x49): little = true
        case (0x4d, 0x4d): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= b.count else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ offset: Int) -> Int? {
            guard let a = u16(offset), let c = u16(offset + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<min(count, 256) {
            let entry = ifd + 2 + 12 * i
            guard let tag = u16(entry) else { return nil }
            // Orientation: type SHORT, count 1, the value in the entry's first two bytes.
            if tag == 0x0112 { return u16(entry + 8) }
        }
        return nil
    }
}
