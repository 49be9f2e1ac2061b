import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("New rows made visible: the chip over a reader's kept place, new and changed rows marked")
struct NewRowsTests {
    func feed(_ ids: [Int], changed: Int? = nil) -> String {
        "[" + ids.map { #"{"id": \#($0), "title": "Item \#($0)", "subtitle": "\#($0 == changed ? "changed" : "as it was")"}"# }.joined(separator: ",") + "]"
    }

    @Test("a refresh that adds rows above the reader's place shows \"3 new ↑\"; tapped, the list goes to its top and the chip goes; new and changed rows are marked for 3 s")
    func chip() throws {
        let (c, path) = try fileFed(feed(Array(1...30)), pageSize: 100)
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300))
        kiosk.start()
        kiosk.run(until: 2)
        let list = kiosk.list
        #expect(list.items.count == 30 && list.newChip == nil)
        list.list.contentOffset = Point(x: 0, y: 72 * 10)
        kiosk.run(until: 3)
        // Three new at the top, item 12 (on screen) changed.
        try Data(feed([-3, -2, -1] + Array(1...30), changed: 12).utf8).write(to: URL(fileURLWithPath: path))
        #expect(list.refreshAutomatically())
        kiosk.run(until: 4)
        let chip = try #require(list.newChip)
        #expect(!chip.isHidden && chip.titleLabel.text == "3 new ↑")
        #expect(list.list.visibleRows.lowerBound == 13, "the reader's place kept: item 11 still at the top")
        let status = kiosk.kiosk.status()
        #expect(status.json.contains(#""newAbove":3"#) && status.json.contains(#""newRows":3"#))
        #expect(status.statusLine.hasSuffix("; 3 new above the reader's place"))
        let marked = Color(red: 255, green: 244, blue: 204)
        #expect(list.list.visibleCells[list.items.firstIndex { $0.id == "12" } ?? -1]?.backgroundColor == marked, "the changed row is marked")
        #expect(list.list.visibleCells[list.items.firstIndex { $0.id == "11" } ?? -1]?.backgroundColor == .white)
        // The marks go by a deadline of their own.
        #expect(abs((kiosk.stage.nextWakeUp ?? 0) - (3 + KioskList.markSeconds)) < 0.5)
        kiosk.run(until: 7.5)
        #expect(list.list.visibleCells.values.allSatisfy { $0.backgroundColor == .white })
        // Tapped: to the top, where the new rows are.
        var tap = GestureScript(start: kiosk.clock.now + 0.1)
        tap.tap(at: Point(x: chip.frame.midX, y: chip.frame.midY))
        kiosk.play(tap.frames)
        kiosk.run(until: kiosk.clock.now + 2)
        #expect(list.list.contentOffset.y <= 0.5 && chip.isHidden)
        #expect(list.list.visibleCells[0].map { $0.titleLabel.text } == "Item -3")
        #expect(kiosk.kiosk.status().json.contains(#""newAbove":0"#))
    }

    @Test("at the top, new rows show where they come: no chip, but they are marked")
    func atTop() throws {
        let (c, path) = try fileFed(feed(Array(1...10)))
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300))
        kiosk.start()
        kiosk.run(until: 2)
        try Data(feed([0] + Array(1...10)).utf8).write(to: URL(fileURLWithPath: path))
        kiosk.list.refreshAutomatically()
        kiosk.run(until: 3)
        #expect(kiosk.list.newChip == nil)
        #expect(kiosk.list.list.visibleCells[0]?.backgroundColor == Color(red: 255, green: 244, blue: 204))
        #expect(KioskList.newRowsText(2, language: .german) == "2 neu ↑" && KioskList.newRowsText(5, language: .japanese) == "5件の新着 ↑")
    }

    @Test("a refresh that changes every row (a feed that stamps each item) marks none: nothing would stand out")
    func allChanged() throws {
        let (c, path) = try fileFed(feed(Array(1...10)))
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300))
        kiosk.start()
        kiosk.run(until: 2)
        let stamped = "[" + (1...10).map { #"{"id": \#($0), "title": "Item \#($0)", "subtitle": "at 12:01"}"# }.joined(separator: ",") + "]"
        try Data(stamped.utf8).write(to: URL(fileURLWithPath: path))
        kiosk.list.refreshAutomatically()
        kiosk.run(until: 3)
        #expect(kiosk.list.items.first?.subtitle == "at 12:01")
        #expect(kiosk.list.markedRows.isEmpty && kiosk.list.list.visibleCells.values.allSatisfy { $0.backgroundColor == .white })
        #expect(kiosk.stage.nextWakeUp == nil, "no mark's deadline")
    }
}
