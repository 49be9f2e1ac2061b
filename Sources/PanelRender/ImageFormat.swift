/// The image formats a row's picture may come in, told by their first bytes, not by the
/// file's name or the server's content type (a PNG named .jpg is still a PNG; an HTML error
/// page named .png is none of them).
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG: the 8-byte signature 89 50 4E 47 0D 0A 1A 0A (PNG spec, 5.2).
    case png
    /// JPEG: the SOI marker FF D8 followed by another marker's FF (ITU T.81, B.1.1).
    case jpeg
    /// WebP: "RIFF", a 4-byte size, then "WEBP" (RFC 9649, 2.5).
    case webp

    /// The format whose signature `bytes` start with, if any.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return .png }
        if starts([0xff, 0xd8, 0xff]) { return .jpeg }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }
}
