import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk

/// The configured list at a new screen size (a window resized, a panel back in another mode):
/// nothing is built anew.
@MainActor
@Suite("Resizing keeps the list")
struct ListResizeTests {
    static let fonts = Result { try FontLibrary() }

    @Test("the configured list resized keeps its items and position, and draws what a kiosk started at that size draws")
    func configuredList() throws {
        var c = KioskConfiguration()
        c.source = .sample
        c.refreshSeconds = 0
        let fonts = try Self.fonts.get()
        let display = HeadlessDisplay(width: 320, height: 240)
        let kiosk = try Kiosk.virtual(configuration: c, display: display, fonts: fonts)
        let host = kiosk.host
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        #expect(time.settle())
        let session = kiosk.list
        let items = session.items
        #expect(!items.isEmpty)
        session.list.setContentOffset(Point(x: 0, y: 150), animated: false)
        #expect(time.settle())

        display.resize(width: 480, height: 360)
        host.displayEvents(at: host.now + 0.1)
        #expect(time.settle())
        #expect(kiosk.list === session)
        #expect(session.items == items)
        #expect(session.list.contentOffset.y == 150, "the list kept its place: \(session.list.contentOffset)")
        #expect(session.list.frame.size == Size(width: 480, height: 360))

        // Back at the top, it is the list a kiosk started at 480x360 shows.
        session.list.setContentOffset(.zero, animated: false)
        #expect(time.settle())
        let fresh = HeadlessDisplay(width: 480, height: 360)
        let other = try Kiosk.virtual(configuration: c, display: fresh, fonts: fonts)
        let otherTime = VirtualTimeDriver(other.host)
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
