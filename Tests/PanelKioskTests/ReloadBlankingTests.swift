import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// A reload (SIGHUP) applies what it changed as a fresh start would: blanking turned on blanks
/// with the backlight the file names, a backlight named anew is the one turned off.
@MainActor
@Suite("A reload that changes blanking and the backlight")
struct ReloadBlankingTests {
    /// A folder standing for /sys/class/backlight with entries `names`, each at brightness 80 of 100.
    static func backlights(_ names: [String]) throws -> String {
        let root = try scratchDirectory("backlights")
        for name in names {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            try "80\n".write(toFile: root + "/" + name + "/brightness", atomically: false, encoding: .utf8)
            try "100\n".write(toFile: root + "/" + name + "/max_brightness", atomically: false, encoding: .utf8)
        }
        return root
    }

    static func brightness(_ root: String, _ name: String) throws -> String {
        String(decoding: try fileBytes(root + "/" + name + "/brightness"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("blanking off at the start, on after a reload: the panel blanks and the named backlight goes off; another named at the next reload is the one turned off")
    func reloadTurnsBlankingOn() throws {
        let root = try Self.backlights(["panel0", "panel1"])
        let dir = try scratchDirectory("reload-blanking")
        defer { for path in [root, dir] { try? FileManager.default.removeItem(atPath: path) } }
        var start = KioskConfiguration()
        start.source = .sample
        start.refreshSeconds = 0
        start.stateDirectory = dir
        let kiosk = try Kiosk.virtual(configuration: start, display: HeadlessDisplay(width: 320, height: 240), backlights: root)
        let host = kiosk.host
        kiosk.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        #expect(time.settle())
        #expect(host.stage.backlight == nil, "blank-after 0: no backlight is touched")

        // Reloads a file that blanks after 5 s with `name`; 6 s later the panel is blank, that
        // backlight off and the other at its brightness.
        func reloadBlanking(with name: String, other: String) throws {
            try "[display]\nblank-after = 5\nbacklight = \(name)\n[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
                .write(toFile: dir + "/config", atomically: true, encoding: .utf8)
            #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
            #expect(host.stage.backlight?.path == root + "/" + name)
            time.advance(by: 6)
            #expect(host.display.isBlank)
            #expect(try Self.brightness(root, name) == "0")
            #expect(try Self.brightness(root, other) == "80")
        }
        try reloadBlanking(with: "panel0", other: "panel1")

        // Another backlight named: a wake gives panel0 its light back; the next blank is panel1's.
        #expect(host.stage.wakeUp())
        #expect(try Self.brightness(root, "panel0") == "80")
        try reloadBlanking(with: "panel1", other: "panel0")
    }
}

extension ReloadBlankingTests {
    @Test("a reload that changes only blanking keeps the list and its place; one that changes the rows puts a new list on the same stage")
    func reloadKeepsWhatItDoesNotChange() throws {
        let dir = try scratchDirectory("reload-keep")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
        try base.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let kiosk = try Kiosk.virtual(configuration: try KioskConfiguration.load(path: dir + "/config"),
                                      display: HeadlessDisplay(width: 320, height: 240))
        let host = kiosk.host, stage = host.stage
        kiosk.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        #expect(time.settle())
        let session = kiosk.list
        session.list.setContentOffset(Point(x: 0, y: 300), animated: false)
        #expect(time.settle())

        try (base + "[display]\nblank-after = 5\n").write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(kiosk.list === session && stage.content === session, "only blanking changed: nothing is built again")
        #expect(stage.blankAfter == 5 && session.list.contentOffset.y == 300)
        time.advance(by: 6)
        #expect(host.display.isBlank, "the new blanking applies")

        // Blanking off again: the blank panel wakes, as a fresh start would show it.
        try base.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(kiosk.list === session && !host.display.isBlank && stage.blankAfter == 0)

        // The rows' title field changed: a new list over the new fields, on the same stage.
        try (base + "[rows]\ntitle = name\n").write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(host.stage === stage, "the stage is never built again")
        #expect(kiosk.list !== session && session.list.superview == nil && stage.content === kiosk.list)
        #expect(kiosk.configuration.rowFields.title == "name")
    }
}

@MainActor
@Suite("An app's own name")
struct AppNameTests {
    @Test("Configuration.appName tags the log lines (the program's stays panel-refresh); display.window-title is read")
    func appName() throws {
        #expect(Log.line("starting") == "panel-refresh: starting")
        var c = KioskConfiguration()
        c.appName = "departures"
        let saved = Log.name
        defer { Log.name = saved }
        Log.name = c.appName
        #expect(Log.line("starting, https://user:secret@example.org/") == "departures: starting, https://user:***@example.org/")
        let read = try KioskConfiguration.parse("[display]\nwindow-title = Departures, hall B\n", file: "test")
        #expect(read.windowTitle == "Departures, hall B")
        #expect(KioskConfiguration().windowTitle == nil)
    }
}
