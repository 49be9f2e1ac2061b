import CHarfBuzz
import Foundation
import Testing
@testable import PanelRender
import PanelUI
import PanelTestSupport

/// The strings of every script the panel is asked to show, checked against HarfBuzz's and
/// FriBidi's own command-line tools (libharfbuzz-bin, libfribidi-bin) on the same font files.
let referenceTexts: [(name: String, text: String)] = [
    ("Arabic with numbers and Latin", "تحديث القائمة 2026 (Swift) الآن"),
    ("Hebrew with punctuation", "שלום, עולם! (בדיקה) - 42."),
    ("Hindi with conjuncts", "क्षत्रिय नमस्ते हिन्दी श्रृंखला"),
    ("Thai", "สวัสดีครับ ภาษาไทย น้ำ"),
    ("mixed CJK", "中文 日本語のテキスト 한국어"),
    ("Latin with kerning", "AVAWAY To Ta."),
]

/// Where a tool is, or nil (the tests that need it then skip, visibly).
func tool(_ name: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
    }
    return nil
}

/// Runs `path` with `arguments` under the C.UTF-8 locale (glib reads the arguments in the locale's charset); its standard output.
func runTool(_ path: String, _ arguments: [String]) throws -> String {
    let (_, output, _) = try Child.run(path, arguments, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    return String(decoding: output, as: UTF8.self)
}

@MainActor
@Suite("Text as HarfBuzz and FriBidi's own tools give it")
struct TextReferenceTests {
    /// hb-shape's `--script` name of a HarfBuzz script (its ISO 15924 tag).
    func tag(_ script: hb_script_t) -> String {
        let value = hb_script_to_iso15924_tag(script)
        return String(decoding: [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }, as: UTF8.self).lowercased()
    }

    @Test("the glyph ids, clusters, offsets and advances drawn equal hb-shape's for each run, its font file and size",
          .enabled(if: tool("hb-shape") != nil, "needs hb-shape (libharfbuzz-bin; scripts/bootstrap installs it)"),
          arguments: referenceTexts.map(\.name))
    func shapingMatchesHBShape(_ name: String) throws {
        let hbShape = try #require(tool("hb-shape"))
        let text = referenceTexts.first { $0.name == name }!.text
        let fonts = try FontLibrary()
        let pixels = 14
        let (scalars, runs) = fonts.shapedRuns(text, font: .system(14), pixels: pixels)
        #expect(!runs.isEmpty)
        var glyphsChecked = 0
        for run in runs {
            let (path, index) = fonts.file(ofFace: run.face)
            func piece(_ r: Range<Int>) -> String { var v = String.UnicodeScalarView(); v.append(contentsOf: scalars[r]); return String(v) }
            let output = try runTool(hbShape, [
                "--font-funcs=ft", "--font-size=\(pixels * 64)", "--face-index=\(index)", "--no-glyph-names",
                "--output-format=json", "--direction=\(run.level % 2 == 1 ? "rtl" : "ltr")", "--script=\(tag(run.script))",
                "--text-before=\(piece(0..<run.range.lowerBound))", "--text-after=\(piece(run.range.upperBound..<scalars.count))",
                path, piece(run.range),
            ])
            let reference = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
            #expect(reference.count == run.glyphs.count, "\(name) run \(run.range) in \(path): \(reference.count) glyphs from hb-shape, \(run.glyphs.count) drawn")
            for (ours, theirs) in zip(run.glyphs, reference) {
                let expected = (g: theirs["g"] as? Int ?? -1, cl: theirs["cl"] as? Int ?? -1, ax: theirs["ax"] as? Int ?? -1,
                                dx: theirs["dx"] as? Int ?? -1, dy: theirs["dy"] as? Int ?? -1)
                #expect(Int(ours.index) == expected.g && ours.cluster - run.range.lowerBound == expected.cl
                        && Int((ours.advance * 64).rounded()) == expected.ax && Int((ours.dx * 64).rounded()) == expected.dx
                        && Int((ours.dy * 64).rounded()) == expected.dy,
                        "\(name): drawn \(ours) where hb-shape gives \(theirs)")
                glyphsChecked += 1
            }
        }
        #expect(glyphsChecked >= 5)
    }

    @Test("the order characters are drawn in, left to right, equals the fribidi tool's visual order",
          .enabled(if: tool("fribidi") != nil, "needs fribidi (libfribidi-bin; scripts/bootstrap installs it)"),
          arguments: referenceTexts.map(\.name))
    func orderMatchesFribidi(_ name: String) throws {
        let fribidi = try #require(tool("fribidi"))
        let text = referenceTexts.first { $0.name == name }!.text
        let fonts = try FontLibrary()
        let laid = fonts.layout(text, font: .system(14), pixels: 14, width: .infinity, maxLines: 1)
        #expect(laid.scalars.count == text.unicodeScalars.count)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fribidi-\(UUID().uuidString).txt")  // one per case: they run in parallel
        try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try runTool(fribidi, ["--nopad", "--nobreak", "--novisual", "--vtol", file.path])
        let visualToLogical = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(visualToLogical.count == laid.scalars.count)
        // Clusters as drawn: the glyphs' first characters, left to right, each once.
        let drawn = laid.lines[0].glyphs.map(\.cluster)
        var clusterOf = Array(0..<laid.scalars.count)
        let starts = Set(drawn).sorted()
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : laid.scalars.count
            for j in start..<end { clusterOf[j] = start }
        }
        var collapsed: [Int] = []
        for logical in visualToLogical where collapsed.last != clusterOf[logical] { collapsed.append(clusterOf[logical]) }
        var drawnOnce: [Int] = []
        for c in drawn where drawnOnce.last != c { drawnOnce.append(c) }
        #expect(drawnOnce == collapsed, "\(name): drawn \(drawnOnce), fribidi \(collapsed)")
        #expect(laid.isRightToLeft == (name.hasPrefix("Arabic") || name.hasPrefix("Hebrew")))
    }
}
