import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRender

/// An item's texts on the glass: its language, and the characters no installed face draws.
@Suite("Item texts: their language, and what no face draws")
struct ItemTextTests {
    @Test("an item's lang field is its texts' language; a value that is no language tag is ignored")
    func language() throws {
        let items = try ItemParser.parse(Data(#"""
        [{"id": "1", "title": "бели хлеб", "lang": "sr"}, {"id": "2", "title": "直", "lang": "ja-JP"},
         {"id": "3", "title": "x", "lang": "not a tag!"}, {"id": "4", "title": "y", "lang": 7}, {"id": "5", "title": "z"}]
        """#.utf8), source: "test")
        #expect(items.map(\.language) == ["sr", "ja-JP", "", "", ""])
        #expect(items.map(\.fontLanguage) == ["sr", "ja-JP", nil, nil, nil])
        var fields = ItemParser.Fields()
        fields.language = "locale"
        let renamed = try ItemParser.parse(Data(#"[{"title": "a", "locale": "uk"}]"#.utf8), source: "test", fields: fields)
        #expect(renamed.first?.language == "uk")
        #expect(try KioskConfiguration.parse("[rows]\nlang = locale\n", file: "test").rowFields.language == "locale")
    }

    /// A fontconfig configuration with DejaVu alone: what a panel without the recommended fonts has.
    static func dejaVuOnly() throws -> String {
        let dir = try scratchDirectory("fonts")
        try """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
        <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>\(dir)/cache</cachedir></fontconfig>
        """.write(toFile: dir + "/fonts.conf", atomically: true, encoding: .utf8)
        return dir + "/fonts.conf"
    }

    @Test("check --items names the items whose texts no installed face draws, with the script and the package",
          .enabled(if: programPath != nil))
    func checkItems() throws {
        let dir = try scratchDirectory("check-items")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"""
        {"id": "plain", "title": "Next train", "subtitle": "10:42"}
        {"id": "bn", "title": "পরবর্তী ট্রেন", "subtitle": "platform 2"}
        {"id": "thai", "title": "x", "body": "รถไฟขบวนถัดไป"}
        """#.write(toFile: dir + "/items.json", atomically: true, encoding: .utf8)
        // With the package's fonts every text can be drawn.
        let (code, out, _) = try runProgram(["check", "--items", dir + "/items.json"])
        #expect(code == 0, "\(String(decoding: out, as: UTF8.self))")
        #expect(String(decoding: out, as: UTF8.self).contains("every item's text can be drawn"))
        // With DejaVu alone, Bengali and Thai are boxes: named, with what draws them.
        let (bare, told, _) = try runProgram(["check", "--items", dir + "/items.json"],
                                             environment: ["FONTCONFIG_FILE": try Self.dejaVuOnly()])
        let text = String(decoding: told, as: UTF8.self)
        #expect(bare == 1)
        #expect(text.contains(#"item "bn": its title has U+09AA"#) && text.contains("(Bengali)") && text.contains("install fonts-lohit-beng-bengali"))
        #expect(text.contains(#"item "thai": its body has"#) && text.contains("install fonts-tlwg-garuda-ttf"))
        #expect(!text.contains(#"item "plain""#))
        #expect(text.contains("2 texts with characters no installed face draws"))
    }

    @Test("the kiosk says in the journal, once per script, which text shows boxes and what draws it",
          .enabled(if: programPath != nil))
    func journal() throws {
        let dir = try scratchDirectory("journal-boxes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"[{"id": "1", "title": "পরবর্তী ট্রেন"}, {"id": "2", "title": "দশ মিনিট"}, {"id": "3", "title": "ok"}]"#
            .write(toFile: dir + "/items.json", atomically: true, encoding: .utf8)
        try """
        [display]
        backend = headless
        headless-size = 320x240
        [data]
        source = file
        file = \(dir)/items.json
        [state]
        directory = \(dir)
        """.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let run = try ProgramRun(["run", "--config", dir + "/config"], environment: ["FONTCONFIG_FILE": try Self.dejaVuOnly()])
        defer { run.process.terminate(); _ = run.finish() }
        #expect(run.wait(for: "showing 3 items"))
        #expect(run.wait(for: "no installed face draws Bengali"))
        #expect(run.log.contains("install fonts-lohit-beng-bengali"))
        run.process.terminate()
        _ = run.finish()
        _ = run.wait(for: "never", timeout: 1)
        #expect(run.log.components(separatedBy: "no installed face draws").count == 2, "once per script: \(run.log)")
    }
}
