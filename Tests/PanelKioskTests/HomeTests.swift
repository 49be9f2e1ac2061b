import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("Back to the start when idle: the page closes and the list returns to its top after home-after seconds without a touch")
struct HomeTests {
    func kiosk(_ set: (inout KioskConfiguration) -> Void = { _ in }) throws -> VirtualKiosk {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("state")
        c.locale = "en"
        c.tapAction = .detail
        set(&c)
        return try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 300)) { animator in
            SampleItemSource(pages: 2, delay: 0.2, animator: animator)
        }
    }

    func swipeUp(_ kiosk: VirtualKiosk) {
        var swipe = GestureScript(start: kiosk.clock.now + 0.1)
        swipe.drag(from: Point(x: 200, y: 260), to: Point(x: 200, y: 60), duration: 0.3, hold: 0.1)
        kiosk.play(swipe.frames)
        kiosk.run(until: kiosk.clock.now + 3)
    }

    @Test("read down the list and opened a row: 120 s after the last touch the page closes and the list is at its top; status says when; the deadline is the only wake-up")
    func returns() throws {
        let kiosk = try kiosk()
        kiosk.start()
        kiosk.run(until: 2)
        swipeUp(kiosk)
        var tap = GestureScript(start: kiosk.clock.now + 0.1)
        tap.tap(at: Point(x: 200, y: 150))
        kiosk.play(tap.frames)
        kiosk.run(until: kiosk.clock.now + 2)
        let list = kiosk.list
        #expect(list.detailPage != nil && list.list.contentOffset.y > 50)
        let touched = try #require(kiosk.stage.lastTouch)
        #expect(kiosk.stage.nextWakeUp == touched + 120, "nothing else is due")
        #expect(kiosk.kiosk.status().homeAt != nil)
        kiosk.run(until: touched + 119)
        #expect(list.detailPage != nil, "not before its time")
        kiosk.run(until: touched + 122)
        #expect(list.detailPage == nil && list.list.contentOffset.y == 0)
        #expect(kiosk.kiosk.status().homeAt == nil && kiosk.stage.nextWakeUp == nil, "home: nothing waits")
    }

    @Test("a finger on the glass holds it; home-after = 0 never returns")
    func holds() throws {
        let kiosk = try kiosk()
        kiosk.start()
        kiosk.run(until: 2)
        swipeUp(kiosk)
        let touched = try #require(kiosk.stage.lastTouch)
        // A finger comes down and rests without moving (a still finger sends no events) past the time.
        var rest = GestureScript(start: touched + 10)
        rest.drag(from: Point(x: 200, y: 150), to: Point(x: 200, y: 150), duration: 0.1, hold: 0)
        let frames = rest.frames
        kiosk.play([frames[0]])
        kiosk.run(until: touched + 10 + 125)
        #expect(kiosk.stage.scene.dispatcher.isTouching)
        #expect(kiosk.list.list.contentOffset.y > 50, "not under a finger")
        // It lifts: 120 s from then.
        kiosk.play([frames[frames.count - 1].delayed(by: kiosk.clock.now - frames[frames.count - 1].timestamp)])
        let lifted = kiosk.clock.now
        kiosk.run(until: lifted + 119)
        #expect(kiosk.list.list.contentOffset.y > 50)
        kiosk.run(until: lifted + 122)
        #expect(kiosk.list.list.contentOffset.y == 0)
        let never = try self.kiosk { $0.homeAfter = 0 }
        never.start()
        never.run(until: 2)
        swipeUp(never)
        never.run(until: never.clock.now + 600)
        #expect(never.list.list.contentOffset.y > 50 && never.stage.nextWakeUp == nil)
    }
}
