import Foundation
import PanelFuzz
import PanelInput
import PanelRender

/// `panel-refresh-bench decode FILE WxH`: one picture's thumbnail decoded, and what it cost in
/// memory: the peak resident set while decoding (VmHWM, its high-water mark reset first through
/// /proc/self/clear_refs) above the resident set before. `scripts/decode-memory` runs it under
/// `/usr/bin/time -v` beside a run that reads the header only (`0x0`).
/// `panel-refresh-bench make-picture KIND SIDE FILE` writes the test pictures it measures.
enum DecodeMemory {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2, let file = arguments.first else { throw BenchError.usage("decode FILE WxH") }
        let parts = arguments[1].split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw BenchError.usage("decode FILE WxH") }
        let bytes = try BoundedFile.read(file, limit: 64 << 20)
        let before = status("VmRSS")
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        var outcome = "header"
        if parts[0] > 0 && parts[1] > 0 {
            do {
                let bitmap = try ImageDecoder.thumbnail(bytes, path: file, width: parts[0], height: parts[1])
                outcome = "\(bitmap.width)x\(bitmap.height)"
            } catch {
                outcome = "refused"
                FileHandle.standardError.write(Data("decode: \(error)\n".utf8))
            }
        } else {
            outcome = ImageFormat.sniff(bytes).map { "\($0)" } ?? "unknown"
        }
        let peak = status("VmHWM")
        print("case=decode file=\((file as NSString).lastPathComponent) bytes=\(bytes.count) thumbnail=\(outcome) rss_before_kb=\(before) peak_kb=\(peak) rise_kb=\(peak - before)")
    }

    /// A field of /proc/self/status, kB.
    static func status(_ field: String) -> Int {
        let text = String(decoding: (try? BoundedFile.read("/proc/self/status", limit: 1 << 16)) ?? [], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// The pictures the memory figures are taken on: a photo-like gradient with quadrants,
    /// compressible as a real picture is.
    static func make(_ arguments: [String]) throws {
        guard arguments.count == 3, let side = Int(arguments[1]), side > 0, side <= 8192 else {
            throw BenchError.usage("make-picture png|jpeg|jpeg-progressive|webp-lossless|webp-lossy SIDE FILE")
        }
        let surface = TestPictures.quadrants(width: side, height: side)
        let bytes: [UInt8]
        switch arguments[0] {
        case "png":
            try PNG.write(surface, to: arguments[2])
            return
        case "jpeg": bytes = TestPictures.jpeg(surface, quality: 85)
        case "jpeg-progressive": bytes = TestPictures.jpeg(surface, quality: 85, progressive: true)
        case "webp-lossless": bytes = TestPictures.webp(surface)
        case "webp-lossy": bytes = TestPictures.webp(surface, lossless: false)
        default: throw BenchError.usage("make-picture png|jpeg|jpeg-progressive|webp-lossless|webp-lossy SIDE FILE")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: arguments[2]))
    }
}

/// A benchmark's command line was wrong.
enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self {
        case .usage(let text): return "usage: panel-refresh-bench \(text)"
        }
    }
}
