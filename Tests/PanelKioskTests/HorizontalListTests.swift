import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh
import PanelRender
import PanelDisplay

@MainActor
@Suite("A horizontal list in the kiosk")
struct HorizontalListTests {
    @MainActor
    final class Horizontal {
        let display = HeadlessDisplay(width: 800, height: 300)
        let notifier = RecordingNotifier()
        let kiosk: VirtualKiosk
        var clock: ManualClock { kiosk.clock }
        var list: KioskList { kiosk.list }
        var stage: Stage { kiosk.stage }
        var states: [String] = []

        init(_ settings: [(String, String)]) throws {
            var configuration = KioskConfiguration()
            configuration.stateDirectory = try scratchDirectory("state")
            for (key, value) in settings { try configuration.set(key, value) }
            kiosk = try VirtualKiosk(configuration: configuration, display: display, notifier: notifier) { _, animator, _ in
                SampleItemSource(pages: 3, delay: 0.2, animator: animator)
            }
            kiosk.list.onTrace = { [unowned self] in
                if case let .state(_, component, from, to) = $0 { self.states.append("\(component) \(from.rawValue)->\(to.rawValue)") }
            }
            kiosk.start()
            run(for: 2)
        }

        func run(for seconds: Double) { kiosk.wait(seconds) }

        /// A slow swipe from right to left by `distance`, held before the lift (no fling).
        func swipeLeft(_ distance: Double) {
            var script = GestureScript(start: clock.now + 0.1)
            script.drag(from: Point(x: 780, y: 150), to: Point(x: 780 - distance, y: 150), duration: 0.5, hold: 0.2)
            kiosk.play(script.frames)
            run(for: 2)
        }
    }

    @Test("list.orientation = horizontal: items are columns rows.height wide; pulled past the last, the trailer loads the next page; STATUS counts them")
    func trailerLoads() throws {
        let kiosk = try Horizontal([("list.orientation", "horizontal"), ("rows.height", "200")])
        let list = kiosk.list.list
        #expect(kiosk.list.items.count == 20, "the first page loaded without a header")
        #expect(list.contentSize == Size(width: 4000, height: 300))
        #expect(list.rectForRow(3) == Rect(x: 600, y: 0, width: 200, height: 300))
        #expect(list.header == nil && list.footer == nil)
        let trailer = try #require(list.trailer)
        #expect(trailer is NormalTrailer)
        #expect(kiosk.notifier.messages.contains("STATUS=showing 20 items"))
        // To the end, then past it by more than the trailer's width.
        list.contentOffset = list.maximumContentOffset
        kiosk.run(for: 0.1)
        kiosk.swipeLeft(300)
        #expect(kiosk.states.contains("trailer idle->pulling") && kiosk.states.contains("trailer pulling->refreshing"))
        #expect(kiosk.list.items.count == 40)
        #expect(trailer.state == .idle)
        #expect(kiosk.notifier.messages.contains("STATUS=showing 40 items"))
        #expect(list.contentOffset.y == 0, "nothing moved across")
    }

    @Test("the last page leaves the trailer in noMoreData; appearance.trailer = none loads only the first page")
    func noMore() throws {
        let kiosk = try Horizontal([("list.orientation", "horizontal"), ("rows.height", "200"), ("data.page-size", "10")])
        let list = kiosk.list.list
        for _ in 0..<5 where list.trailer?.state != .noMoreData {
            list.contentOffset = list.maximumContentOffset
            kiosk.run(for: 0.1)
            kiosk.swipeLeft(300)
        }
        #expect(list.trailer?.state == .noMoreData)
        #expect(kiosk.list.items.count == 30, "the sample's three pages; the fourth came back empty")

        let bare = try Horizontal([("list.orientation", "horizontal"), ("appearance.trailer", "none")])
        #expect(bare.list.list.trailer == nil)
        bare.list.list.contentOffset = bare.list.list.maximumContentOffset
        bare.swipeLeft(300)
        #expect(bare.list.items.count == 20)
        #expect(!bare.states.contains { $0.hasPrefix("trailer") })
    }

    @Test("a vertical list (the default) keeps header and footer and has no trailer")
    func vertical() throws {
        let kiosk = try Horizontal([])
        let list = kiosk.list.list
        #expect(list.orientation == .vertical && list.trailer == nil && list.header != nil && list.footer != nil)
        #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("[list]\norientation = diagonal\n", file: "t") }
        #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("[appearance]\ntrailer = big\n", file: "t") }
    }
}

/// `[rows] title-lines`, `subtitle-lines` and an Arabic kiosk's direction, as the program sets them.
@MainActor
@Suite("Rows and direction from the configuration")
struct RowTextConfigurationTests {
    @Test("title-lines above 1 makes rows automatic, as tall as their wrapped texts and at least rows.height; one line keeps them fixed")
    func titleLines() throws {
        let wrapped = try HorizontalListTests.Horizontal([("list.orientation", "vertical"), ("rows.title-lines", "3"),
                                                     ("rows.subtitle-lines", "2"), ("rows.height", "50")])
        let list = wrapped.list.list
        guard case .automatic(let estimated) = list.rowHeight else {
            Issue.record("rows are \(list.rowHeight), not automatic")
            return
        }
        #expect(estimated == 50)
        let cell = try #require(list.visibleCells[0])
        #expect(cell.titleLabel.numberOfLines == 3 && cell.subtitleLabel.numberOfLines == 2)
        #expect(list.rowsMeasured > 0 && list.rectForRow(0).height >= 50)
        let plain = try HorizontalListTests.Horizontal([("list.orientation", "vertical")])
        guard case .fixed(72) = plain.list.list.rowHeight else {
            Issue.record("default rows are \(plain.list.list.rowHeight)")
            return
        }
    }

    @Test("appearance.locale = ar lays the screen out right to left, and a horizontal list mirrored; en does not")
    func arabicDirection() throws {
        let arabic = try HorizontalListTests.Horizontal([("list.orientation", "horizontal"), ("appearance.locale", "ar")])
        #expect(arabic.stage.scene.screen.layoutDirection == .rightToLeft)
        #expect(arabic.list.list.mirrorsSubviews)
        let english = try HorizontalListTests.Horizontal([("list.orientation", "horizontal"), ("appearance.locale", "en")])
        #expect(english.stage.scene.screen.layoutDirection == .leftToRight)
        #expect(!english.list.list.mirrorsSubviews)
    }

    @Test("[refresh] footer- and trailer- trigger distances and maximum drags reach the components and the scroll view")
    func footerAndTrailerDistances() throws {
        let vertical = try HorizontalListTests.Horizontal([("list.orientation", "vertical"), ("appearance.footer", "back-normal"),
                                                      ("refresh.footer-trigger-distance", "30"), ("refresh.footer-max-drag", "90")])
        let footer = vertical.list.footer
        #expect(footer.triggerDistance == 30 && footer.maxDragDistance == 90)
        #expect(vertical.list.list.maximumOverscroll.bottom == 90)
        let horizontal = try HorizontalListTests.Horizontal([("list.orientation", "horizontal"),
                                                        ("refresh.trailer-trigger-distance", "25"), ("refresh.trailer-max-drag", "70")])
        let trailer = try #require(horizontal.list.trailer)
        #expect(trailer.triggerDistance == 25 && trailer.maxDragDistance == 70)
        #expect(horizontal.list.list.maximumOverscroll.right == 70)
        let plain = try HorizontalListTests.Horizontal([("list.orientation", "horizontal")])
        #expect(plain.list.trailer?.triggerDistance == nil && plain.list.trailer?.maxDragDistance == nil)
        var configuration = KioskConfiguration()
        #expect(throws: ConfigurationError.self) { try configuration.set("refresh.trailer-max-drag", "5000") }
    }
}
