import CPNG
import PanelInput
import Glibc

/// Writes an animated PNG (APNG) from PNG files of equal size: the first frame's IDAT chunks
/// stay as they are, later frames' become fdAT chunks, with acTL/fcTL chunks around them.
/// Viewers without APNG support show the first frame.
public enum AnimatedPNG {
    private static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    private struct Chunk {
        var type: String
        var data: [UInt8]
    }

    private static func chunks(of bytes: [UInt8], path: String) throws -> [Chunk] {
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { throw RenderError.png(path: path, message: "not a PNG file") }
        var result: [Chunk] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard i + 12 + length <= bytes.count else { throw RenderError.png(path: path, message: "truncated chunk") }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            result.append(Chunk(type: type, data: Array(bytes[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
        }
        return result
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }

    private static func write(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(UInt32(data.count))
        out += typeBytes
        out += data
        var crc = crc32(0, typeBytes, UInt32(typeBytes.count))
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32(data.count)) }
        out += be32(UInt32(crc))
    }

    /// - Parameters: `delay` seconds per frame (as a fraction of 1/1000 s); loops forever.
    public static func write(frames paths: [String], delay: Double, to output: String) throws {
        guard let firstPath = paths.first else { throw RenderError.png(path: output, message: "no frames") }
        var out = signature
        var sequence: UInt32 = 0
        var header: Chunk?
        for (index, path) in paths.enumerated() {
            let bytes = try PNG.fileBytes(path)
            let parts = try chunks(of: bytes, path: path)
            guard let ihdr = parts.first(where: { $0.type == "IHDR" }), ihdr.data.count == 13 else {
                throw RenderError.png(path: path, message: "no IHDR chunk")
            }
            if let header, header.data != ihdr.data {
                throw RenderError.png(path: path, message: "frame differs in size or format from \(firstPath)")
            }
            if header == nil {
                header = ihdr
                write("IHDR", ihdr.data, into: &out)
                write("acTL", be32(UInt32(paths.count)) + be32(0), into: &out)
            }
            let width = Array(ihdr.data[0..<4]), height = Array(ihdr.data[4..<8])
            let milliseconds = UInt16(min(max((delay * 1000).rounded(), 1), 65535))
            // Built in steps: Swift 6.2 cannot type-check the nine-term sum in reasonable time.
            var control: [UInt8] = be32(sequence)
            control += width
            control += height
            control += be32(0) + be32(0)
            control += be16(milliseconds) + be16(1000)
            control += [0, 0]
            write("fcTL", control, into: &out)
            sequence += 1
            for chunk in parts where chunk.type == "IDAT" {
                if index == 0 {
                    write("IDAT", chunk.data, into: &out)
                } else {
                    write("fdAT", be32(sequence) + chunk.data, into: &out)
                    sequence += 1
                }
            }
        }
        write("IEND", [], into: &out)
        do throws(AtomicFile.Failure) {
            try OutputFile.write(out, to: output)
        } catch {
            throw RenderError.png(path: output, message: error.description)
        }
    }
}
