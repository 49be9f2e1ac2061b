import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("An untouched board pages: every page-every seconds the list moves on by a screen, and from its end back to its top")
struct PagingTests {
    func kiosk(pages: Int = 2, pageEvery: Double = 10, pageSize: Int = 20) throws -> VirtualKiosk {
        var c = KioskConfiguration()
        c.pageSize = pageSize
        c.stateDirectory = try scratchDirectory("state")
        c.locale = "en"
        (c.pageEvery, c.homeAfter) = (pageEvery, 0)
        return try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300)) { animator in
            SampleItemSource(pages: pages, delay: 0.2, animator: animator)
        }
    }

    /// The first row wholly on screen, and the last one the screen shows any of.
    func shown(_ kiosk: VirtualKiosk) -> (first: Int, last: Int) {
        let list = kiosk.list.list
        let top = list.contentOffset.y + list.contentInset.top
        let rows = list.visibleRows
        let first = rows.first { list.rectForRow($0).minY >= top - 0.5 } ?? rows.lowerBound
        return (first, rows.upperBound - 1)
    }

    @Test("the row the screen's end cut comes to its start at each move; a touch starts the count again; past the last page back to the top; each move is a deadline")
    func pages() throws {
        let kiosk = try kiosk()
        kiosk.start()
        kiosk.run(until: 2)
        let list = kiosk.list
        #expect(list.items.count == 20 && list.list.contentOffset.y == 0)
        let due = try #require(list.nextPage)
        #expect(kiosk.stage.nextWakeUp == due, "the move is the only thing due")
        #expect(kiosk.kiosk.status().pageAt != nil)
        let cut = shown(kiosk).last
        kiosk.run(until: due - 0.1)
        #expect(list.list.contentOffset.y == 0, "not before its time")
        kiosk.run(until: due + 2)
        #expect(shown(kiosk).first == cut, "row \(cut), cut at the end, is the first now (\(shown(kiosk)))")

        // A touch: the next move is page-every after it.
        var tap = GestureScript(start: kiosk.clock.now + 0.1)
        tap.drag(from: Point(x: 200, y: 150), to: Point(x: 200, y: 150), duration: 0.05, hold: 0)
        kiosk.play(tap.frames)
        kiosk.run(until: kiosk.clock.now + 1)
        let touched = try #require(kiosk.stage.lastTouch)
        #expect(list.nextPage == touched + 10)

        // On through both pages (the second loaded at the end, as a reader's scroll loads it),
        // then the top again.
        var offsets: [Double] = []
        for _ in 0..<30 {
            kiosk.run(until: try #require(list.nextPage) + 2)
            offsets.append(list.list.contentOffset.y)
            if offsets.last == 0 { break }
        }
        #expect(list.items.count == 40, "the next page came at the end")
        #expect(offsets.last == 0, "back at the top: \(offsets)")
        #expect(offsets.dropLast().allSatisfy { $0 > 0 } && zip(offsets.dropLast(), offsets.dropLast().dropFirst()).allSatisfy { $0 < $1 },
                "each move went further down: \(offsets)")
        #expect(offsets.dropLast().last == list.list.maximumContentOffset.y, "the last move showed the end")
    }

    @Test("page-every = 0: the list never moves by itself; a list that fits its screen waits for nothing")
    func still() throws {
        let off = try kiosk(pageEvery: 0)
        off.start()
        off.run(until: 100)
        #expect(off.list.list.contentOffset.y == 0 && off.list.nextPage == nil && off.stage.nextWakeUp == nil)

        let fits = try kiosk(pages: 1, pageSize: 3)
        fits.start()
        fits.run(until: 100)
        #expect(fits.list.items.count == 3 && fits.list.nextPage == nil)
        #expect(fits.list.list.contentOffset.y == 0)
    }
}
