import Foundation
import Glibc
import Testing
@testable import PanelApp

/// A reload that changes the list puts a new list on the runtime's stage: the screen, the frame
/// driver, the statistics and blanking stay; an app's own views are never built again.
@MainActor
@Suite("A reload that changes the content")
struct ReloadContentTests {
    static let fonts = Result { try FontLibrary() }

    /// A sample kiosk at 320x240 reading `dir`/config, started and settled.
    static func kiosk(_ dir: String, _ text: String) throws -> (KioskHost, VirtualTimeDriver, HeadlessDisplay) {
        try text.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let display = HeadlessDisplay(width: 320, height: 240)
        let host = try KioskHost.virtual(configuration: try Configuration.load(path: dir + "/config"), display: display,
                                         fonts: try fonts.get())
        host.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        return (host, time, display)
    }

    @Test("new rows and a new locale: the same runtime, scene and frame driver, the frame count going on, and the frame a fresh start at that configuration draws")
    func newListOnTheSameStage() throws {
        let dir = try scratchDirectory("reload-content")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
        let (host, time, display) = try Self.kiosk(dir, base)
        let runtime = host.runtime
        let (scene, driver, session) = (runtime.scene, runtime.driver, try #require(runtime.session))
        session.list.setContentOffset(Point(x: 0, y: 200), animated: false)
        #expect(time.settle())
        let frames = runtime.frames
        #expect(frames > 0)
        var heard = 0
        host.onRuntime = { _ in heard += 1 }

        let changed = base + "[appearance]\nlocale = de\n[rows]\ntitle = name\n"
        try changed.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(host.runtime === runtime && runtime.scene === scene && runtime.driver === driver)
        let fresh = try #require(runtime.session)
        #expect(fresh !== session && session.list.superview == nil)
        #expect(scene.screen.rootView.subviews.contains { $0 === fresh.list })
        #expect(scene.dispatcher.scrollView === fresh.list)
        #expect(fresh.list.contentOffset.y == 0, "a new list starts at the top, as at a fresh start")
        #expect(!fresh.items.isEmpty)
        #expect(runtime.frames > frames, "the statistics go on: \(runtime.frames) frames after \(frames)")
        #expect(heard == 1, "onRuntime hears the new content once")
        #expect(host.configuration.locale == "de")

        // What it draws is what a kiosk started with the new file draws.
        let other = try Self.kiosk(try scratchDirectory("reload-content-fresh"), changed.replacingOccurrences(of: dir, with: dir + "-fresh"))
        defer { try? FileManager.default.removeItem(atPath: dir + "-fresh") }
        other.1.advance(to: host.now)
        #expect(other.1.settle())
        var differing = 0
        for y in 0..<240 {
            for x in 0..<320 where display.backSurface.pixel(x: x, y: y) != other.2.backSurface.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ from a kiosk started with the new configuration")
    }

    @Test("new content whose header cannot be made is refused before the list in use is touched: the list, its items and its place stay")
    func refusedContentKeepsTheList() throws {
        let dir = try scratchDirectory("reload-refused")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (host, time, _) = try Self.kiosk(dir, "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n")
        let runtime = host.runtime
        let session = try #require(runtime.session)
        session.list.setContentOffset(Point(x: 0, y: 120), animated: false)
        #expect(time.settle())
        let items = session.items

        // Configuration.load checks the picture; one removed after the check is found here.
        var c = host.configuration
        c.twoLevelImage = dir + "/missing.png"
        #expect(throws: (any Error).self) {
            try runtime.replaceContent(configuration: c, content: .list(source: { RunCommand.source(for: c, animator: $0, inline: true) }))
        }
        #expect(time.settle())
        #expect(runtime.session === session && session.list.superview != nil)
        #expect(runtime.scene.dispatcher.scrollView === session.list)
        #expect(session.items == items && session.list.contentOffset.y == 120)
    }

    @Test("an app's views are not built again by a reload: the controller and its text stay")
    func appViewsKept() throws {
        let dir = try scratchDirectory("reload-app")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[state]\ndirectory = \(dir)\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        @MainActor final class Board { let label = Label() }
        var built = 0
        let host = try KioskHost.virtual(configuration: try Configuration.load(path: dir + "/config"),
                                         display: HeadlessDisplay(width: 320, height: 240), fonts: try Self.fonts.get()) { scene in
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
        let board = try #require(host.runtime.app as? Board)
        board.label.text = "changed by the app"

        try "[state]\ndirectory = \(dir)\n[rows]\ntitle = name\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(built == 1)
        #expect(host.runtime.app as? Board === board && board.label.text == "changed by the app" && board.label.superview != nil)
        #expect(host.configuration.rowFields.title == "name")
    }
}
