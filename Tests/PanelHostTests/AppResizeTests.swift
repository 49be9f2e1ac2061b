import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost

/// A new screen size (a window resized, a panel back in another mode) lays an app's views out
/// again and keeps everything the app holds: nothing is built anew.
@MainActor
@Suite("Resizing keeps the app's state")
struct AppResizeTests {
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
        let stage = host.stage, content = host.stage.content
        let status = try #require(label)
        status.text = "row 7 selected"

        display.resize(width: 480, height: 320)
        host.displayEvents(at: 1)
        time.step(by: 1.0 / 60)
        #expect(builds == 1, "the views closure ran again")
        #expect(host.stage === stage && host.stage.content === content)
        #expect(status.text == "row 7 selected" && status.superview != nil)
        #expect(status.frame.width == 480, "the flexible width followed: \(status.frame)")
        #expect(heard == [Size(width: 480, height: 320)])
        #expect(host.stage.scene.screen.size == Size(width: 480, height: 320))
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

    @Test("what the views closure returns is kept by the host and handed back typed: a controller that is the list's weak data source stays alive")
    func appObjectKept() throws {
        weak var kept: Shelf?
        let host = try KioskHost.virtual(display: HeadlessDisplay(width: 320, height: 240), fonts: try Self.fonts.get())
        let handed: Shelf = try host.show { scene in
            let shelf = Shelf(scene: scene)
            kept = shelf
            return shelf
        }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        let shelf = try #require(kept, "the controller was let go")
        #expect(handed === shelf)
        #expect((host.stage.content as? AppViews<Shelf>)?.app === shelf, "the stage keeps it with the views")
        #expect(shelf.list.dataSource === shelf && shelf.list.numberOfRows == 30)
    }

    @Test("a virtual host resized at a test's word lays the views out again and tells the app")
    func virtualResize() throws {
        let host = try KioskHost.virtual(display: HeadlessDisplay(width: 320, height: 240), fonts: try Self.fonts.get())
        let shelf = try host.show { scene in Shelf(scene: scene) }
        var heard: [Size] = []
        host.onResize = { heard.append($0) }
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        #expect(time.settle())
        host.resize(width: 400, height: 300, at: host.now + 0.1)
        #expect(time.settle())
        #expect(heard == [Size(width: 400, height: 300)])
        #expect(shelf.list.frame.size == Size(width: 400, height: 300), "the flexible list followed")
        #expect(host.display.width == 400 && host.display.height == 300)
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
}
