import Foundation
import PanelKiosk
import PanelFuzz
import PanelGestures
import PanelRender

/// The memory of a kiosk showing rows with pictures scrolled end to end (docs/deployment.md,
/// "Memory that comes back"): the configured list over `ROWS` items of a file, each with its own
/// JPEG (or none), on the 800x480 headless display in virtual time (pictures decoded as the
/// replays decode them), flung from the first row to the last, then left to settle. Prints the
/// peak and the end's resident set; `scripts/picture-memory` runs it under /usr/bin/time -v.
///
///     panel-refresh-bench pictures-memory ROWS CACHE_MB pictures|plain trim|keep
@MainActor
enum PictureMemory {
    static let usage = "pictures-memory ROWS CACHE_MB pictures|plain trim|keep"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 4, let rows = Int(arguments[0]), (1...100_000).contains(rows),
              let cache = Int(arguments[1]), (1...1024).contains(cache),
              ["pictures", "plain"].contains(arguments[2]), ["trim", "keep"].contains(arguments[3]) else {
            throw BenchError.usage(usage)
        }
        let pictures = arguments[2] == "pictures", trims = arguments[3] == "trim"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picture-memory-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each row its own file (the same 320x320 JPEG's bytes): each is decoded and kept as a
        // picture of its own, drawn as a 56-point thumbnail.
        let jpeg = Data(TestPictures.jpeg(TestPictures.quadrants(width: 320, height: 320), quality: 85))
        var items: [String] = []
        for row in 0..<rows {
            var item = "{\"title\": \"Row \(row)\", \"subtitle\": \"Platform \(row % 12)\""
            if pictures {
                let path = folder + "/\(row).jpg"
                try jpeg.write(to: URL(fileURLWithPath: path))
                item += ", \"image\": \"\(path)\""
            }
            items.append(item + "}")
        }
        try Data(("[" + items.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: folder + "/items.json"))
        let state = folder + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let configuration = try KioskConfiguration.parse("""
            [data]
            source = file
            file = \(folder)/items.json
            page-size = \(rows)
            [limits]
            picture-cache-mb = \(cache)
            [state]
            directory = \(state)
            """, file: "pictures-memory")
        let kiosk = try Kiosk.virtual(configuration: configuration, display: HeadlessDisplay(width: 800, height: 480))
        let host = kiosk.host, session = kiosk.list
        session.pictures?.returnsFreedMemory = trims
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        time.settle()
        let before = DecodeMemory.status("VmRSS")
        // Flings up until the last row shows: a 300-point drag in 60 ms, released moving.
        var flings = 0
        let list = session.list
        while list.contentOffset.y < list.maximumContentOffset.y - 1, flings < 1000 {
            var script = GestureScript(start: host.now + 0.1)
            script.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 0.06, hold: 0)
            time.play(script.frames)
            time.settle()
            flings += 1
        }
        // The scroll has ended: what the kiosk holds from now on.
        time.advance(by: 5)
        let end = DecodeMemory.status("VmRSS"), peak = DecodeMemory.status("VmHWM")
        // Of the end: anonymous memory (the heap, the thumbnails, the stacks) and file pages
        // (the code of the libraries used, among them the decoders' when rows have pictures).
        let anonymous = DecodeMemory.status("RssAnon"), files = DecodeMemory.status("RssFile")
        let kept = session.pictures.map { "\($0.bytesUsed / 1024)" } ?? "0"
        print("case=pictures-memory rows=\(rows) pictures=\(pictures ? "on" : "off") cache_mb=\(cache) trim=\(trims ? "on" : "off")"
              + " flings=\(flings) rss_before_kb=\(before) peak_kb=\(peak) end_kb=\(end) end_anon_kb=\(anonymous) end_file_kb=\(files) kept_kb=\(kept)")
    }
}
