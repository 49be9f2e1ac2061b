import Foundation
import Testing
@testable import PanelApp

/// A new screen size (a window resized, a panel back in another mode) lays the UI out again
/// and keeps everything the app and the list hold: nothing is built anew.
@MainActor
@Suite("Resizing keeps the app's state")
struct ResizeTests {
    static let fonts = Result { try FontLibrary() }

    @Test("an app's views are built once: resized, they keep their state, follow their masks, and the app hears the size")
    func appViews() throws {
        let display = HeadlessDisplay(width: 320, height: 240)
        var builds = 0
        var label: Label?
        let host = try KioskHost.virtual(configuration: Configuration(), display: display, fonts: try Self.fonts.get(), views: { scene in
            builds += 1
            let status = Label(frame: Rect(x: 0, y: 0, width: 320, height: 40))
            status.text = "ready"
            status.autoresizingMask = .flexibleWidth
            scene.screen.rootView.addSubview(status)
            label = status
        })
        var heard: [Size] = []
        host.onResize = { heard.append($0) }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.step(by: 1.0 / 60)
        let runtime = host.runtime
        let status = try #require(label)
        status.text = "row 7 selected"

        display.resize(width: 480, height: 320)
        host.displayEvents(at: 1)
        time.step(by: 1.0 / 60)
        #expect(builds == 1, "the views closure ran again")
        #expect(host.runtime === runtime)
        #expect(status.text == "row 7 selected" && status.superview != nil)
        #expect(status.frame.width == 480, "the flexible width followed: \(status.frame)")
        #expect(heard == [Size(width: 480, height: 320)])
        #expect(host.runtime.scene.screen.size == Size(width: 480, height: 320))
        #expect(display.framesPresented >= 2)
    }

    /// An app's controller: the list's data source, held by nothing but the host.
    final class Shelf: ListDataSource {
        let list: ListView
        init(scene: Scene) {
            list = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
            list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            scene.screen.rootView.addSubview(list)
            list.dataSource = self
            list.reloadData()
        }
        func numberOfRows(in list: ListView) -> Int { 30 }
        func list(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.titleLabel.text = "Shelf \(row)" }
    }

    @Test("what the views closure returns is kept by the host: a controller that is the list's weak data source stays alive")
    func appObjectKept() throws {
        weak var kept: Shelf?
        let host = try KioskHost.virtual(display: HeadlessDisplay(width: 320, height: 240), fonts: try Self.fonts.get()) { scene in
            let shelf = Shelf(scene: scene)
            kept = shelf
            return shelf
        }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        let shelf = try #require(kept, "the controller was let go")
        #expect(host.runtime.app as? Shelf === shelf)
        #expect(shelf.list.dataSource === shelf && shelf.list.numberOfRows == 30)
    }

    @Test("host.savePNG writes what the glass shows; before the first frame it says so")
    func savePNG() throws {
        let display = HeadlessDisplay(width: 320, height: 240)
        let host = try KioskHost.virtual(display: display, fonts: try Self.fonts.get()) { scene in Shelf(scene: scene) }
        let dir = try scratchDirectory("save-png")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: RenderError.self) { try host.savePNG(to: dir + "/early.png") }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        try host.savePNG(to: dir + "/shelf.png")
        let saved = try PNG.read(path: dir + "/shelf.png")
        #expect(saved.width == 320 && saved.height == 240)
        #expect(saved.pixel(x: 40, y: 30) & 0xffffff == display.backSurface.pixel(x: 40, y: 30) & 0xffffff)
    }

    @Test("the configured list resized keeps its items and position, and draws what a kiosk started at that size draws")
    func configuredList() throws {
        var c = Configuration()
        c.source = .sample
        c.refreshSeconds = 0
        let fonts = try Self.fonts.get()
        let display = HeadlessDisplay(width: 320, height: 240)
        let host = try KioskHost.virtual(configuration: c, display: display, fonts: fonts)
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        let session = try #require(host.runtime.session)
        let items = session.items
        #expect(!items.isEmpty)
        session.list.setContentOffset(Point(x: 0, y: 150), animated: false)
        #expect(time.settle())

        display.resize(width: 480, height: 360)
        host.displayEvents(at: host.now + 0.1)
        #expect(time.settle())
        #expect(host.runtime.session === session)
        #expect(session.items == items)
        #expect(session.list.contentOffset.y == 150, "the list kept its place: \(session.list.contentOffset)")
        #expect(session.list.frame.size == Size(width: 480, height: 360))

        // Back at the top, it is the list a kiosk started at 480x360 shows.
        session.list.setContentOffset(.zero, animated: false)
        #expect(time.settle())
        let fresh = HeadlessDisplay(width: 480, height: 360)
        let other = try KioskHost.virtual(configuration: c, display: fresh, fonts: fonts)
        let otherTime = VirtualTimeDriver(other)
        other.start(at: 0)
        #expect(otherTime.settle())
        otherTime.advance(to: host.now)
        #expect(otherTime.settle())
        var differing = 0
        for y in 0..<360 {
            for x in 0..<480 where display.backSurface.pixel(x: x, y: y) != fresh.backSurface.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ from a kiosk started at 480x360")
    }
}
