import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// A reload that changes the list puts a new list on the stage: the screen, the frame
/// presenter, the statistics and blanking stay.
@MainActor
@Suite("A reload that changes the content")
struct ReloadContentTests {
    static let fonts = Result { try FontLibrary() }

    /// A sample kiosk at 320x240 reading `dir`/config, started and settled.
    static func kiosk(_ dir: String, _ text: String) throws -> (Kiosk, VirtualTimeDriver, HeadlessDisplay) {
        try text.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let display = HeadlessDisplay(width: 320, height: 240)
        let kiosk = try Kiosk.virtual(configuration: try KioskConfiguration.load(path: dir + "/config"), display: display,
                                      fonts: try fonts.get())
        kiosk.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(kiosk.host)
        kiosk.start(at: 0)
        #expect(time.settle())
        return (kiosk, time, display)
    }

    @Test("a refused reload is kept in ctl status (reloadRefused: why and when) and the metrics (config_last_reload_successful 0) until a reload is taken")
    func refusedReloadSaid() throws {
        let dir = try scratchDirectory("reload-refused")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
        let (kiosk, time, _) = try Self.kiosk(dir, base)
        let host = kiosk.host
        #expect(kiosk.status().json.contains(#""reloadRefused":null"#))
        try (base + "[display]\nblank-after = soon\n").write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        let refused = kiosk.status()
        #expect(refused.json.contains(#""reloadRefused":{"at":"#) && refused.json.contains("display.blank-after"), "\(refused.json)")
        #expect(MetricsExposition.prometheus.render(refused).contains("panel_refresh_config_last_reload_successful 0\n"))
        // Some seconds on, the news of a refresh does not hide it.
        time.advance(by: 5)
        #expect(kiosk.status().json.contains(#""reloadRefused":{"#))
        try base.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(kiosk.status().json.contains(#""reloadRefused":null"#))
        #expect(MetricsExposition.prometheus.render(kiosk.status()).contains("panel_refresh_config_last_reload_successful 1\n"))
    }

    @Test("new rows and a new locale: the same stage, scene and frame presenter, the frame count going on, and the frame a fresh start at that configuration draws")
    func newListOnTheSameStage() throws {
        let dir = try scratchDirectory("reload-content")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
        let (kiosk, time, display) = try Self.kiosk(dir, base)
        let host = kiosk.host, stage = host.stage
        let (scene, presenter, session) = (stage.scene, stage.presenter, kiosk.list)
        session.list.setContentOffset(Point(x: 0, y: 200), animated: false)
        #expect(time.settle())
        let frames = stage.frames
        #expect(frames > 0)
        var heard = 0
        kiosk.onList = { _ in heard += 1 }

        let changed = base + "[appearance]\nlocale = de\n[rows]\ntitle = name\n"
        try changed.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(host.stage === stage && stage.scene === scene && stage.presenter === presenter)
        let fresh = kiosk.list
        #expect(fresh !== session && session.list.superview == nil)
        #expect(scene.screen.rootView.subviews.contains { $0 === fresh.list })
        #expect(scene.dispatcher.scrollView === fresh.list)
        #expect(fresh.list.contentOffset.y == 0, "a new list starts at the top, as at a fresh start")
        #expect(!fresh.items.isEmpty)
        #expect(stage.frames > frames, "the statistics go on: \(stage.frames) frames after \(frames)")
        #expect(heard == 1, "onList hears the new list once")
        #expect(kiosk.configuration.locale == "de" && host.configuration.locale == "de")

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
        let base = "[data]\nsource = sample\nrefresh-seconds = 0\n[state]\ndirectory = \(dir)\n"
        let (kiosk, time, _) = try Self.kiosk(dir, base)
        let host = kiosk.host
        let session = kiosk.list
        session.list.setContentOffset(Point(x: 0, y: 120), animated: false)
        #expect(time.settle())
        let items = session.items

        // The second floor's picture is read when the header is made (check reads it too; a
        // file gone after the check is found here).
        try (base + "[appearance]\ntwo-level = \(dir)/missing.png\n").write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(host.signal(SIGHUP, at: host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(kiosk.list === session && host.stage.content === session && session.list.superview != nil)
        #expect(host.stage.scene.dispatcher.scrollView === session.list)
        #expect(session.items == items && session.list.contentOffset.y == 120)
        #expect(kiosk.configuration.twoLevelImage == nil, "the configuration in use stays")
    }
}
