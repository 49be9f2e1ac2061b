import Foundation
import PanelInput
import PanelKiosk

/// `panel-refresh-bench parse-memory FILE`: an item document parsed as every data source parses
/// it (`ItemParser.parse`), and what it cost in memory: the peak resident set while parsing
/// (VmHWM, its high-water mark reset first) above the resident set before, and what stays
/// resident while the items are held. `scripts/parse-memory` runs it in a memory group as the
/// unit sets it (`MemoryMax=256M`); `ParseMemoryTests` holds the bound.
enum ParseMemory {
    static let usage = "parse-memory FILE"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 1, let file = arguments.first else { throw BenchError.usage(usage) }
        let bytes = try BoundedFile.read(file, limit: ItemParser.maxBytes)
        let before = DecodeMemory.status("VmRSS")
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        var outcome: String
        var items: [Item] = []
        do {
            items = try ItemParser.parse(bytes, source: (file as NSString).lastPathComponent)
            outcome = "items"
        } catch {
            outcome = "refused"
            FileHandle.standardError.write(Data("parse-memory: \(error)\n".utf8))
        }
        let peak = DecodeMemory.status("VmHWM"), kept = DecodeMemory.status("VmRSS")
        print("case=parse-memory file=\((file as NSString).lastPathComponent) bytes=\(bytes.count) outcome=\(outcome)"
              + " items=\(items.count) rss_before_kb=\(before) peak_kb=\(peak) rise_kb=\(peak - before) kept_kb=\(kept - before)")
    }
}
