import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay
import PanelRefresh
@testable import PanelRender

/// The detail page sliding over the list, as the kiosk draws it, against Golden/*.png: halfway
/// through its push (the list dimming behind it), and following a back swipe's finger.
@MainActor
@Suite("Golden frames of a page over the list")
struct GoldenPageTests {
    static let items = (1...8).map { Item(id: "\($0)", title: "Item \($0)", subtitle: "Row \($0)", body: "The body of item \($0).") }

    /// Taps row 1 of `stage` and lets `seconds` pass.
    func open(_ stage: GoldenStateTests.Stage, _ time: VirtualTimeDriver, after seconds: Double) {
        var tap = GestureScript(start: stage.kiosk.host.clock.now + 0.1)
        tap.tap(at: Point(x: 200, y: 100))
        time.play(tap.frames)
        time.advance(by: seconds)
    }

    /// A stage whose rows open the detail page, and its driver.
    func stage(_ settings: [(String, String)] = []) throws -> (GoldenStateTests.Stage, VirtualTimeDriver) {
        let stage = try GoldenStateTests.Stage([("rows.tap", "detail")] + settings, first: .success(Self.items))
        return (stage, VirtualTimeDriver(stage.kiosk.host))
    }

    @Test("halfway through the push: the page comes in from the right over the dimming list")
    func pushing() throws {
        let (stage, time) = try stage()
        open(stage, time, after: 0.1)
        let x = try #require(stage.session.detailPage).frame.origin.x
        #expect(x > 40 && x < 300, "0.1 s of 0.35, eased out: \(x)")
        try stage.check("page-pushing")
    }

    @Test("a back swipe held a third of the way: the page under the finger, the list half dimmed")
    func swiping() throws {
        let (stage, time) = try stage()
        open(stage, time, after: 0.5)
        var swipe = GestureScript(start: stage.kiosk.host.clock.now + 0.1)
        swipe.drag(from: Point(x: 4, y: 200), to: Point(x: 134, y: 200), duration: 0.4, hold: 0.2, lift: false)
        time.play(swipe.frames)
        #expect(abs(try #require(stage.session.detailPage).frame.origin.x - 130) < 1)
        try stage.check("page-swiping")
    }

    @Test("right to left: the page comes in from the left")
    func pushingRightToLeft() throws {
        let (stage, time) = try stage([("appearance.locale", "he")])
        open(stage, time, after: 0.1)
        #expect(try #require(stage.session.detailPage).frame.origin.x < 0)
        try stage.check("page-pushing-rtl")
    }
}
