import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost

/// SIGHUP on an app's host: its configuration file read again and applied in place; its views
/// are never built again; without a file or a hook of its own, nothing to reload.
@MainActor
@Suite("A reload of an app's host")
struct AppReloadTests {
    @MainActor final class Board { let label = Label() }

    @Test("an app's views are not built again by a reload: the controller and its text stay, the host's keys apply")
    func appViewsKept() throws {
        let dir = try scratchDirectory("reload-app")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[state]\ndirectory = \(dir)\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        var built = 0
        let host = try KioskHost.virtual(configuration: try Configuration.load(path: dir + "/config"),
                                         display: HeadlessDisplay(width: 320, height: 240))
        let board = try host.show { scene in
            built += 1
            let board = Board()
            board.label.frame = Rect(x: 10, y: 10, width: 200, height: 30)
            board.label.text = "built"
            scene.screen.rootView.addSubview(board.label)
            return board
        }
        host.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        board.label.text = "changed by the app"

        try "[state]\ndirectory = \(dir)\n[display]\nblank-after = 5\n[appearance]\nlocale = de\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        time.advance(by: 0.5)
        #expect(built == 1)
        #expect((host.stage.content as? AppViews<Board>)?.app === board && board.label.text == "changed by the app" && board.label.superview != nil)
        #expect(host.configuration.locale == "de" && host.stage.language == "de" && host.stage.blankAfter == 5)
        time.advance(by: 6)
        #expect(host.display.isBlank, "the reloaded blanking applies to the app's views")
    }

    @Test("SIGHUP calls the app's reload hook when it has one; without one and without a file, it says there is nothing to reload and goes on")
    func hookOrNothing() throws {
        let host = try KioskHost.virtual { scene in scene.screen.rootView.addSubview(Label()) }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled, "nothing to reload: handled, not fatal")
        var reloads = 0
        host.onReload = { reloads += 1 }
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(host.signal(SIGUSR1, at: host.now + 0.1) == .handled, "SIGUSR1 logs the frame timings")
        #expect(host.signal(SIGUSR2, at: host.now + 0.1) == .handled, "SIGUSR2 without a VT changes nothing")
        #expect(reloads == 1)
        #expect(!host.stage.isStopped)
    }
}

/// An app's configuration file: the host's keys only.
@Suite("An app's configuration")
struct AppConfigurationTests {
    @Test("the host's keys read as the program reads them; a key of the kiosk's is an unknown section or key, with its line")
    func hostKeysOnly() throws {
        let dir = try scratchDirectory("app-config")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[display]\nblank-after = 30\nrotation = 90\n[input]\nresample = off\n[appearance]\nlocale = ja\n[state]\ndirectory = /tmp\n[limits]\nimage-cache-mb = 8\n"
            .write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let c = try Configuration.load(path: dir + "/config")
        #expect(c.blankAfter == 30 && c.displayRotation == .clockwise90 && !c.resample && c.locale == "ja" && c.stateDirectory == "/tmp")
        #expect(c.imageCacheBytes == 8 << 20)
        try "[display]\nblank-after = 30\n[data]\nsource = http\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let section = try #require(throws: ConfigurationError.self) { try Configuration.load(path: dir + "/config") }
        #expect(section.line == 3 && "\(section)".contains("unknown section [data]"))
        try "[appearance]\nheader = state\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let key = try #require(throws: ConfigurationError.self) { try Configuration.load(path: dir + "/config") }
        #expect(key.line == 2 && "\(key)".contains("appearance.header"))
    }
}
