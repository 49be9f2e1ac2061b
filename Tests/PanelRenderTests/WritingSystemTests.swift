import Foundation
import Testing
@testable import PanelRender
import PanelUI

/// Text in every script for real: the 30 most used writing systems drawn with no missing-glyph
/// box, Thai broken between words, spaces beside emoji in the text's face, the text's language
/// in shaping, and the trailer's vertical text one cluster a line.
@Suite("Writing systems")
@MainActor
struct WritingSystemTests {
    @Test("the table holds 30 writing systems, each sample written in its own script")
    func table() {
        #expect(WritingSystem.all.count == 30)
        #expect(Set(WritingSystem.all.map(\.code)).count == 30)
        for system in WritingSystem.all {
            let own = system.sample.unicodeScalars.filter { WritingSystem.of($0.value) == system }
            #expect(own.count >= 2, "\(system.name)'s sample has \(own.count) characters of its script")
        }
    }

    /// Where `scripts/bootstrap` put the suggested Noto faces (not installed: installed, Noto
    /// Sans would become fontconfig's sans-serif for every other test).
    nonisolated static let suggestedFaces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".font-cache").path

    /// Glyph 0 is every OpenType face's `.notdef`, the missing-glyph box.
    @Test("a line of each of the 26 scripts the package depends on or recommends is drawn with no .notdef glyph",
          arguments: WritingSystem.all.filter { $0.delivery != .suggests })
    func noMissingGlyph(_ system: WritingSystem) throws {
        try drawnWhole(system, fonts: try FontLibrary())
    }

    @Test("a line of each of the 4 scripts only the suggested Noto covers is drawn with it, with no .notdef glyph",
          .enabled(if: FileManager.default.fileExists(atPath: suggestedFaces + "/.complete"),
                   "scripts/bootstrap puts fonts-noto-core's four faces in .font-cache"),
          arguments: WritingSystem.all.filter { $0.delivery == .suggests })
    func suggestedFaceDraws(_ system: WritingSystem) throws {
        // Without Noto the script is boxes, and the check says so; with its face, whole.
        #expect(!(try FontLibrary()).uncovered(in: system.sample).isEmpty, "\(system.name) has a face without fonts-noto-core")
        try drawnWhole(system, fonts: try FontLibrary(fontDirectories: [Self.suggestedFaces]))
    }

    private func drawnWhole(_ system: WritingSystem, fonts: FontLibrary) throws {
        let laid = fonts.layout(system.sample, font: .system(20), pixels: 20, width: .infinity, maxLines: 1)
        let glyphs = try #require(laid.lines.first).glyphs
        #expect(!glyphs.isEmpty)
        let boxes = glyphs.filter { $0.index == 0 }.map { laid.scalars[$0.cluster] }
        #expect(boxes.isEmpty, "\(system.name) shows boxes for \(boxes.map { "U+" + String($0.value, radix: 16) }); install \(system.package)")
        #expect(fonts.uncovered(in: system.sample).isEmpty)
    }

    @Test("Urdu's ہ (U+06C1) and ے (U+06D2) have a face")
    func urdu() throws {
        let fonts = try FontLibrary()
        #expect(fonts.canDraw("\u{06C1}", in: .system(17)))
        #expect(fonts.canDraw("\u{06D2}", in: .system(17)))
    }

    @Test("a character no face draws is named with its script and a package, and told once per script")
    func uncoveredReported() throws {
        let fonts = try FontLibrary()
        var told: [(String, UInt32, String)] = []
        fonts.onUncovered = { script, scalar, advice, _ in told.append((script, scalar, advice)) }
        // U+0378 is unassigned in Greek and Coptic: no face has it, and it is not drawn as
        // nothing either. A private-use character shows nothing to report.
        _ = fonts.layout("abc \u{0378} \u{0378}x", font: .system(17), pixels: 17, width: .infinity, maxLines: 1)
        #expect(told.isEmpty, "unassigned code points are not a script's: \(told)")
        #expect(WritingSystem.name(of: 0x0995) == "Bengali")
        #expect(WritingSystem.advice(for: 0x0995) == "fonts-lohit-beng-bengali")
        #expect(WritingSystem.advice(for: 0x06D2).contains("fonts-nafees"))
        #expect(WritingSystem.name(of: 0x16A0) == "script Runr")
    }

    // MARK: Thai

    /// Five long lines as libthai 0.1.29's `th_brk_wc_find_breaks` breaks them (a C program
    /// against libthai-dev gave these; each word was checked by eye: shop, of, we, have, goods,
    /// every, kind, ...). "ล่า|สุด" is the dictionary's, two words of its own.
    nonisolated static let thaiLines = [
        "ร้าน|ค้า|ของ|เรา|มี|สินค้า|ทุก|ชนิด|ให้|เลือก|ซื้อ|ใน|ราคา|ที่|เหมาะสม",
        "รถไฟ|ขบวน|ถัด|ไป|จะ|ออก|จาก|สถานี|กรุงเทพ|ใน|อีก|สิบ|นาที",
        "กรุณา|รอ|สัก|ครู่|ระบบ|กำลัง|โหลด|ข้อมูล|ล่า|สุด|จาก|เซิร์ฟเวอร์",
        "ประชาชน|สามารถ|ติดต่อ|สอบถาม|ข้อมูล|เพิ่มเติม|ได้|ที่|ศูนย์|บริการ",
        "วัน|นี้|อากาศ|ดี|มาก|เหมาะ|สำหรับ|การ|เดินทาง|ไป|เที่ยว|ทะเล",
    ]

    @Test("Thai breaks between the words of libthai's dictionary", arguments: thaiLines)
    func thaiWords(_ expected: String) throws {
        try #require(LineBreaks.thaiUnavailable == nil, "libthai0 and libthai-data are needed: \(LineBreaks.thaiUnavailable ?? "")")
        let scalars = expected.unicodeScalars.filter { $0 != "|" }.map(\.value)
        let breaks = LineBreaks.opportunities(scalars)
        var marked = ""
        for (i, scalar) in scalars.enumerated() {
            marked.unicodeScalars.append(Unicode.Scalar(scalar)!)
            if i < scalars.count - 1, breaks[i] == .allowed { marked += "|" }
        }
        #expect(marked == expected)
    }

    @Test("a wrapped Thai line ends between words, never inside one (\"ทุ|กชนิด\")")
    func thaiWraps() throws {
        try #require(LineBreaks.thaiUnavailable == nil)
        let fonts = try FontLibrary()
        let line = Self.thaiLines[0]
        let words = line.split(separator: "|").map(String.init)
        let text = words.joined()
        var starts = Set<Int>()
        var at = 0
        for word in words { starts.insert(at); at += word.unicodeScalars.count }
        // From the widest word's width on (a word wider than the line breaks between clusters).
        let widest = words.map { fonts.layout($0, font: .system(20), pixels: 20, width: .infinity, maxLines: 1).width }.max() ?? 0
        let whole = fonts.layout(text, font: .system(20), pixels: 20, width: .infinity, maxLines: 1).width
        for width in stride(from: widest.rounded(.up), to: whole, by: 7) {
            let laid = fonts.layout(text, font: .system(20), pixels: 20, width: width, maxLines: 20)
            #expect(laid.lines.count > 1)
            for line in laid.lines.dropFirst() {
                #expect(starts.contains(line.range.lowerBound), "at \(width) px a line starts inside a word at \(line.range.lowerBound)")
            }
        }
    }

    // MARK: Emoji and spaces

    @Test("a space beside an emoji takes the text's face, not the emoji's 1.25 em")
    func spaceBesideEmoji() throws {
        let fonts = try FontLibrary()
        let font = Font.system(20)
        let plain = fonts.layout("a b", font: font, pixels: 20, width: .infinity, maxLines: 1).width
            - fonts.layout("ab", font: font, pixels: 20, width: .infinity, maxLines: 1).width
        let emoji = try #require(fonts.layout("😀", font: font, pixels: 20, width: .infinity, maxLines: 1).lines.first)
        try #require(emoji.glyphs.first.map { fonts.loaded[$0.face].isColor } == true, "Noto Color Emoji is needed")
        for text in ["😀 b", "a 😀 b", "😀, b", "😀!"] {
            let laid = fonts.layout(text, font: font, pixels: 20, width: .infinity, maxLines: 1)
            let glyphs = try #require(laid.lines.first).glyphs
            for glyph in glyphs where !FontLibrary.prefersColor(laid.scalars[glyph.cluster].value) {
                #expect(!fonts.loaded[glyph.face].isColor, "\"\(laid.scalars[glyph.cluster])\" in \"\(text)\" is drawn by the emoji face")
            }
            if text == "😀 b" {
                let space = try #require(glyphs.first { laid.scalars[$0.cluster] == " " })
                #expect(abs(space.advance - plain) < 0.01, "the space is \(space.advance) px, the text's is \(plain)")
            }
        }
        // What belongs to the emoji stays with it: a ZWJ sequence and a skin tone.
        for text in ["👩‍👩‍👧", "👍🏽"] {
            let laid = fonts.layout(text, font: font, pixels: 20, width: .infinity, maxLines: 1)
            let faces = Set(try #require(laid.lines.first).glyphs.map(\.face))
            #expect(faces.count == 1 && faces.allSatisfy { fonts.loaded[$0].isColor }, "\(text) is split across faces")
        }
    }

    // MARK: Language

    /// DejaVu Sans has Serbian's б (its `locl` for SRB), which Russian does not take.
    @Test("shaping takes the text's language: Serbian Cyrillic б differs from Russian")
    func language() throws {
        let fonts = try FontLibrary()
        func glyph(_ font: Font) throws -> UInt32 {
            try #require(fonts.layout("б", font: font, pixels: 20, width: .infinity, maxLines: 1).lines.first?.glyphs.first).index
        }
        let russian = try glyph(Font(size: 20, language: "ru")), serbian = try glyph(Font(size: 20, language: "sr"))
        #expect(russian != serbian)
        // The library's language stands for a font without one: the panel's locale.
        fonts.language = "sr"
        #expect(try glyph(.system(20)) == serbian)
        fonts.language = "ru"
        #expect(try glyph(.system(20)) == russian)
        #expect(FontLibrary.languageTag(locale: "sr_RS.UTF-8@latin") == "sr-RS")
        #expect(FontLibrary.languageTag(locale: "ja_JP.UTF-8") == "ja-JP")
        #expect(FontLibrary.languageTag(locale: "C.UTF-8") == nil)
        #expect(FontLibrary.languageTag(locale: "") == nil)
    }

    @Test("fontconfig is asked in its own language codes: a script subtag (zh-Hans, as configuration.md's example) becomes the region that writes it, never a warning and a dropped language")
    func fontconfigLanguages() {
        let cases: [(String, String?)] = [("zh-Hans", "zh-cn"), ("zh-Hant", "zh-tw"), ("zh-Hant-HK", "zh-hk"), ("zh-TW", "zh-tw"),
                                          ("zh", "zh"), ("sr-Latn", "sr"), ("sr-Cyrl-RS", "sr-rs"), ("ja", "ja"), ("pt_BR", "pt-br"),
                                          ("", nil), ("x", nil), ("12-ab", nil)]
        for (tag, expected) in cases { #expect(FontLibrary.fontconfigLanguage(tag) == expected, "\(tag)") }
    }

    // MARK: Vertical text

    @Test("the trailer's vertical text: one cluster a line, an empty line between words")
    func stacked() throws {
        #expect(Label.stacked("Could not load more") == "C\no\nu\nl\nd\n\nn\no\nt\n\nl\no\na\nd\n\nm\no\nr\ne")
        #expect(Label.stacked("  a  b ") == "a\n\nb")
        // A letter with its marks and an emoji with its modifier are one line each.
        #expect(Label.stacked("น้ำ 👍🏽") == "น้ำ\n\n👍🏽")
        let fonts = try FontLibrary()
        for text in ["Could not load more", "Still loading: il tr"] {
            let laid = fonts.layout(Label.stacked(text), font: .system(14), pixels: 14, width: 14, maxLines: 256)
            let shown = laid.lines.indices.map { laid.text(ofLine: $0) }
            #expect(shown.filter { !$0.isEmpty }.allSatisfy { $0.count == 1 }, "\(shown)")
            let words = text.split(separator: " ").count
            #expect(shown.count == text.filter { $0 != " " }.count + words - 1)
        }
    }
}
