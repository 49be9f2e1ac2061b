import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("Burn-in care: while untouched the picture walks a pixel at a time around its place, and touch follows it")
struct BurnInTests {
    @Test("the walk: one pixel a step, never past ±pixels, every place of the square, back to its own place after a round", arguments: [1, 4, 16])
    func walk(pixels: Int) {
        var shift = PixelShift()
        shift.pixels = pixels
        let steps = (0...shift.period).map { shift.offset(atStep: $0) }
        #expect(steps.first == Point(x: 0, y: 0) && steps.last == Point(x: 0, y: 0))
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(abs(a.x - b.x) + abs(a.y - b.y) == 1, "\(a) → \(b)")
        }
        #expect(steps.allSatisfy { abs($0.x) <= Double(pixels) && abs($0.y) <= Double(pixels) })
        let side = 2 * pixels + 1
        #expect(Set(steps.map { "\($0.x),\($0.y)" }).count == side * side)
    }

    func kiosk(every: Double) throws -> (VirtualKiosk, HeadlessDisplay) {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("state")
        c.locale = "en"
        (c.shift.every, c.shift.pixels, c.homeAfter) = (every, 4, 0)
        let display = HeadlessDisplay(width: 400, height: 240)
        let kiosk = try VirtualKiosk(configuration: c, display: display) { animator in
            SampleItemSource(pages: 1, delay: 0.1, animator: animator)
        }
        return (kiosk, display)
    }

    @Test("every 300 s untouched the glass shows the picture one pixel further, drawn whole; the step is the only deadline; a touch starts the count again")
    func steps() throws {
        let (kiosk, display) = try kiosk(every: 300)
        kiosk.start()
        kiosk.run(until: 5)
        let before = try #require(display.glassSnapshot())
        let due = try #require(kiosk.stage.nextWakeUp)
        #expect(due == 300, "configured at 0: the first step at 300 s and nothing else due")
        kiosk.run(until: 301)
        let offset = kiosk.stage.shiftOffset
        #expect(abs(offset.x) + abs(offset.y) == 1, "\(offset)")
        #expect(display.lastDamage == [Rect(x: 0, y: 0, width: 400, height: 240)], "the whole glass is drawn")
        let after = try #require(display.glassSnapshot())
        // The picture itself moved: inside the edges, each pixel is the one beside it before.
        let (dx, dy) = (Int(offset.x), Int(offset.y))
        var differ = 0, moved = 0
        for y in 8..<232 {
            for x in 8..<392 {
                if after.pixels[y * 400 + x] != before.pixels[y * 400 + x] { differ += 1 }
                if after.pixels[y * 400 + x] != before.pixels[(y - dy) * 400 + x - dx] { moved += 1 }
            }
        }
        #expect(differ > 100 && moved == 0, "\(differ) pixels changed, \(moved) not where the shift puts them")
        #expect(kiosk.stage.nextWakeUp == 600)

        var tap = GestureScript(start: 400)
        tap.tap(at: Point(x: 200, y: 150))
        kiosk.play(tap.frames)
        kiosk.run(until: 401)
        let touched = try #require(kiosk.stage.lastTouch)
        #expect(kiosk.stage.nextShift == touched + 300)
        kiosk.run(until: touched + 299)
        #expect(kiosk.stage.shiftOffset == offset, "not under a reader")
        kiosk.run(until: touched + 301)
        #expect(kiosk.stage.shiftOffset != offset)
    }

    @Test("a tap lands on the row drawn under it when the picture is moved")
    func touchFollows() throws {
        let (kiosk, _) = try kiosk(every: 0)
        kiosk.start()
        kiosk.run(until: 2)
        let list = kiosk.list
        let rowHeight = list.list.rectForRow(1).minY
        // A shift as large as a row, so the row under the finger differs by one.
        kiosk.stage.scene.screen.contentShift = Point(x: 0, y: rowHeight)
        var selected: [Int] = []
        list.onTrace = { event in if case .select(_, let row) = event { selected.append(row) } }
        var tap = GestureScript(start: kiosk.clock.now + 0.1)
        tap.tap(at: Point(x: 200, y: rowHeight * 1.5))
        kiosk.play(tap.frames)
        kiosk.run(until: kiosk.clock.now + 1)
        #expect(selected == [0], "the first row is drawn under y \(rowHeight * 1.5)")
        #expect(kiosk.stage.nextWakeUp == nil && kiosk.stage.nextShift == nil, "off: nothing waits")
    }
}
