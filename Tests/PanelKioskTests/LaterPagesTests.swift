import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("A refresh while the reader is in page 2 keeps the pages loaded after the first")
struct LaterPagesTests {
    @Test("scrolled into page 2, SIGHUP's refresh (and the timer's) keeps page 2 and the reader's row where it was; a pull at the top starts again from page 1")
    func keepsLaterPages() throws {
        let (c, path) = try fileFed("[]", pageSize: 10)
        func write(_ ids: [Int]) throws {
            try Data(("[" + ids.map { #"{"id": \#($0), "title": "Item \#($0)"}"# }.joined(separator: ",") + "]").utf8)
                .write(to: URL(fileURLWithPath: path))
        }
        try write(Array(1...25))
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300))
        kiosk.start()
        kiosk.run(until: 2)
        let list = kiosk.list
        // Swipes up until page 2 is in.
        for _ in 0..<6 where list.items.count < 20 {
            var swipe = GestureScript(start: kiosk.clock.now + 0.1)
            swipe.drag(from: Point(x: 200, y: 260), to: Point(x: 200, y: 40), duration: 0.15)
            kiosk.play(swipe.frames)
            kiosk.run(until: kiosk.clock.now + 3)
        }
        #expect(list.items.count == 20)
        list.list.contentOffset = Point(x: 0, y: 72 * 14 + 10)
        kiosk.run(until: kiosk.clock.now + 0.5)
        let row = list.list.visibleRows.lowerBound
        let item = list.items[row].id
        let y = list.list.rectForRow(row).minY - list.list.contentOffset.y
        // The feed gains one at the top; the reload's refresh (and a timer's) comes while the reader is in page 2.
        try write([0] + Array(1...25))
        #expect(list.refreshAutomatically())
        kiosk.run(until: kiosk.clock.now + 2)
        // Item 10, pushed from page 1 into page 2 on the server, shows when page 2 is next loaded
        // (a refresh at the top): the loaded pages are not fetched again behind the reader.
        let expected: [String] = Array(0...9).map { String($0) } + Array(11...20).map { String($0) }
        #expect(list.items.map(\.id) == expected, "page 1 anew and page 2 as it was")
        let now = try #require(list.items.firstIndex { $0.id == item })
        #expect(list.list.rectForRow(now).minY - list.list.contentOffset.y == y, "the reader's row stays on the glass")
        #expect(list.footer.state != .noMoreData, "more can still be loaded")
        // At the top, a refresh starts again from page 1.
        try write([-1, 0] + Array(1...25))
        list.list.contentOffset = .zero
        kiosk.run(until: kiosk.clock.now + 0.5)
        #expect(list.refreshAutomatically())
        kiosk.run(until: kiosk.clock.now + 2)
        #expect(list.items.count == 10)
    }
}
