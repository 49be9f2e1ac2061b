import Foundation
import Testing
@testable import PanelApp
import PanelInput
import PanelRefresh

@Suite("Configuration")
struct ConfigurationTests {
    @Test("a full file sets every kind of value")
    func parse() throws {
        let text = """
        # panel
        [data]
        source = command
        command = /usr/bin/items --feed news
        page-size = 25
        timeout = 3.5
        [input]
        devices = /dev/input/event3, /dev/input/event4
        rotation = 270
        calibration = 0 1 0 -1 0 1
        invert-y = yes
        position-axes = 02,03
        [display]
        backend = headless
        mode = 1280x720
        ; colours
        [appearance]
        locale = ru_RU.UTF-8
        footer = back-normal
        label-color = #112233
        [rows]
        title = name
        """
        let c = try Configuration.parse(text, file: "panel.conf")
        #expect(c.source == .command && c.command == ["/usr/bin/items", "--feed", "news"])
        #expect(c.pageSize == 25 && c.timeout == 3.5)
        #expect(c.devices == ["/dev/input/event3", "/dev/input/event4"])
        #expect(c.rotation == .clockwise270 && c.invertY && c.calibration == CalibrationMatrix(0, 1, 0, -1, 0, 1))
        #expect(c.positionAxes?.x == AbsCode.z && c.positionAxes?.y == AbsCode.rx)
        #expect(c.backend == .headless && c.mode?.width == 1280)
        #expect(c.locale == "ru_RU.UTF-8" && c.footer == .backNormal && c.labelColor == Color(red: 0x11, green: 0x22, blue: 0x33))
        #expect(c.titleField == "name")
    }

    @Test("errors name the file and line", arguments: [
        ("[data]\nsource = ftp", 2, "is not one of"),
        ("[data]\npage-size = 0", 2, "whole number"),
        ("[nonsense]", 1, "unknown section"),
        ("[data]\ncolour = red", 2, "unknown key data.colour"),
        ("source = sample", 1, "outside any [section]"),
        ("[data]\npage-size = 20\npage-size = 30", 3, "set twice"),
        ("[input]\nrotation = 45", 2, "0, 90, 180 or 270"),
        ("[input]\ncalibration = 1 0 0", 2, "six numbers"),
        ("[appearance]\nbackground = blue", 2, "not a colour"),
        ("[data]\nfile = relative.json", 2, "absolute path"),
        ("[data]\nno equals sign", 2, "key = value"),
        ("[data]\nsource = http", 0, "needs data.url"),
        ("[appearance]\nheader = gif", 0, "gif-frames"),
    ])
    func errors(text: String, line: Int, message: String) {
        do {
            _ = try Configuration.parse(text, file: "/etc/panel-refresh/config")
            Issue.record("accepted \(text)")
        } catch let error as ConfigurationError {
            #expect(error.file == "/etc/panel-refresh/config")
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("command-line overrides go through the same checks")
    func overrides() throws {
        var c = Configuration()
        try c.set("input.rotation", "90")
        #expect(c.rotation == .clockwise90)
        #expect(throws: ConfigurationError.self) { try c.set("input.rotation", "91") }
        #expect(throws: ConfigurationError.self) { try c.set("nope.key", "1") }
    }

    @Test("docs/configuration.md documents every key")
    func documented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var section = ""
        var documented = Set<String>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## [") { section = String(line.dropFirst(4).dropLast()) }
            if line.hasPrefix("| `"), let name = line.split(separator: "`").dropFirst().first { documented.insert("\(section).\(name)") }
        }
        #expect(Set(Configuration.keys) == documented)
    }
}
