import Foundation
import Testing
import PanelTestSupport
@testable import PanelKiosk

/// The memory a parse of an item document takes grows with the document by a stated factor
/// (docs/reliability.md, "Memory of a parse"): 3 MB of `[{}, {}, …]` peaked at 818 MB and a
/// valid 3.9 MB list of 280,000 items kept 264 MB resident, each killed under the unit's
/// `MemoryMax=256M`.
@Suite("Memory of a parse")
struct ParseMemoryTests {
    /// `panel-refresh-bench` beside the test bundle, nil when it is not there.
    static let bench: String? = {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("panel-refresh-bench").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// `count` copies of `unit`, comma-separated, between `open` and `close`.
    static func document(_ open: String, _ unit: String, _ count: Int, _ close: String) -> String {
        open + Array(repeating: unit, count: count).joined(separator: ",") + close
    }

    /// The bench's `key=value` fields for a parse of `text` in a process of its own.
    func measured(_ text: String, in dir: String, name: String) throws -> [String: String] {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try shell(try #require(Self.bench), ["parse-memory", path])
        #expect(run.status == 0, "\(run.output)")
        let line = run.output.split(separator: "\n").last { $0.hasPrefix("case=parse-memory") } ?? ""
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    @Test("hostile and large documents: a parse's peak rises at most 16 times the document and 8 MiB, and what stays at most twice it and 8 MiB",
          .enabled(if: bench != nil, "needs panel-refresh-bench beside the tests (swift build)"),
          .disabled(if: Sanitizer.isActive, "memory figures under a sanitizer's shadow memory are not the program's"))
    func bounded() throws {
        let dir = try scratchDirectory("parse-memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(name: String, text: String, outcome: String, items: Int)] = [
            ("empty-objects", Self.document("[", "{}", 1_000_000, "]"), "refused", 0),
            ("titles", Self.document("[", #"{"title":"a"}"#, 280_000, "]"), "items", ItemParser.maxItems),
            ("one-item-of-objects", Self.document(#"[{"title":"a","x":["#, "{}", 1_000_000, "]}]"), "refused", 0),
            ("numbers", Self.document("[", "1", 2_000_000, "]"), "refused", 0),
            // Within one item's budget: its tree is made, read and freed.
            ("one-item-of-strings", Self.document(#"[{"title":"a","x":["#, "\"abcdefghijklmnop\"", 220_000, "]}]"), "items", 1),
            ("lines", Array(repeating: #"{"title":"a","n":[1,2,3]}"#, count: 150_000).joined(separator: "\n"), "items", ItemParser.maxItems),
        ]
        for c in cases {
            let fields = try measured(c.text, in: dir, name: c.name + ".json")
            let bytes = c.text.utf8.count
            #expect(fields["outcome"] == c.outcome, "\(c.name): \(fields)")
            #expect(fields["items"] == String(c.items), "\(c.name): \(fields)")
            let rise = try #require(fields["rise_kb"].flatMap { Int($0) }) * 1024
            let kept = try #require(fields["kept_kb"].flatMap { Int($0) }) * 1024
            #expect(rise <= 16 * bytes + (8 << 20), "\(c.name): the peak rose \(rise >> 20) MiB for \(bytes >> 10) KiB")
            #expect(kept <= 2 * bytes + (8 << 20), "\(c.name): \(kept >> 20) MiB stayed for \(bytes >> 10) KiB")
        }
    }

    @Test("items past maxItems are left out while parsing, in an array and in JSON lines")
    func itemCap() throws {
        let array = try ItemParser.parse(Data(Self.document("[", #"{"title":"a"}"#, ItemParser.maxItems + 5, "]").utf8), source: "t")
        #expect(array.count == ItemParser.maxItems)
        let lines = Array(repeating: #"{"title":"b"}"#, count: ItemParser.maxItems + 1).joined(separator: "\n")
        #expect(try ItemParser.parse(Data(lines.utf8), source: "t").count == ItemParser.maxItems)
        // Past the cap nothing is parsed: an item that is not one is not looked at.
        let tail = Self.document("[", #"{"title":"a"}"#, ItemParser.maxItems, #",{"no title":1}]"#)
        #expect(try ItemParser.parse(Data(tail.utf8), source: "t").count == ItemParser.maxItems)
    }

    @Test("one item whose tree would take more than its budget is refused, with why; the array's frame is checked as JSON")
    func itemBudgetAndFrame() throws {
        let heavy = Self.document(#"[{"title":"a"},{"title":"b","x":["#, "{}", 10_000, "]}]")
        #expect(throws: DataSourceError.malformed(source: "t", reason: "item 2 is not JSON (10001 objects and 1 arrays in 30019 bytes would take about 12 MiB to hold (at most 16 times the text and 1 MiB))")) {
            try ItemParser.parse(Data(heavy.utf8), source: "t")
        }
        for (text, reason) in [
            (#"[{"title":"a"},]"#, "not a JSON array: a value expected at byte 15"),
            (#"[{"title":"a"}"#, "not a JSON array: the text ends inside it at byte 14"),
            (#"[{"title":"a"} {"title":"b"}]"#, "not a JSON array: a comma or ] expected at byte 15"),
            (#"[{"title":"a"}] x"#, "not a JSON array: more after the array at byte 16"),
            (#"[{"title":"a"},{"title":"b]"#, "not a JSON array: the text ends inside it at byte 15"),
        ] {
            #expect(throws: DataSourceError.malformed(source: "t", reason: reason), "\(text)") { try ItemParser.parse(Data(text.utf8), source: "t") }
        }
        // Brackets, commas and quotes inside strings are text.
        let tricky = try ItemParser.parse(Data(#"[ {"title":"a],[{\"x"} , {"title":"\\"} ]"#.utf8), source: "t")
        #expect(tricky.map(\.title) == ["a],[{\"x", "\\"])
        #expect(tricky[0].json == Array(#"{"title":"a],[{\"x"}"#.utf8), "an item keeps its object as compact JSON")
    }

    @Test("a shape counts objects, arrays and separators outside strings; a value's end is found without parsing it")
    func shape() {
        let text = Array(#"{"a":[1,2,{"b":"],{,"}],"c":"\"[","d":{}}"#.utf8)
        #expect(JSONShape.of(text[...]) == JSONShape(objects: 3, arrays: 1, separators: 4, bytes: text.count))
        for (value, end) in [("12 ,", 2), ("\"a\\\"b\",", 6), ("[1,[2]] ", 7), ("{\"x\":\"}\"}]", 9), ("true]", 4), ("nul", 3)] {
            var shape = JSONShape()
            let bytes = Array(value.utf8)
            #expect(shape.valueEnd(in: bytes[...], from: 0) == end, "\(value)")
        }
        var open = JSONShape()
        #expect(open.valueEnd(in: Array("[1,2".utf8)[...], from: 0) == nil)
        #expect(open.valueEnd(in: Array("\"abc".utf8)[...], from: 0) == nil)
    }
}
