import Testing
@testable import PanelUI

@MainActor
@Suite("Scroll indicators")
struct ScrollIndicatorTests {
    final class Source: ListDataSource {
        let rows: Int
        init(_ rows: Int) { self.rows = rows }
        func numberOfRows(in list: ListView) -> Int { rows }
        func list(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.titleLabel.text = "\(row)" }
    }

    /// The lists' sources (held weakly by the lists).
    let sources = Sources()
    final class Sources { var all: [Source] = [] }

    func list(rows: Int, orientation: Axis = .vertical) -> (Scene, ListView) {
        let scene = Scene(size: Size(width: 800, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        let source = Source(rows)
        sources.all.append(source)
        list.dataSource = source
        list.orientation = orientation
        list.rowHeight = .fixed(orientation == .vertical ? 60 : 200)
        list.reloadData()
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        scene.frame()
        return (scene, list)
    }

    @Test("while a drag moves the rows the bar shows at the trailing edge, as long as the visible share; it fades after the content rests")
    func vertical() {
        let (scene, list) = list(rows: 40)
        #expect(list.verticalIndicator == nil, "nothing before the content moves")
        var script = GestureScript(start: 0.1)
        script.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 0.5, hold: 0.3, lift: false)
        scene.play(script.frames)
        let bar = try! #require(list.verticalIndicator)
        #expect(!bar.isHidden && bar.alpha == 1)
        let onScreen = bar.convert(Rect(origin: .zero, size: bar.frame.size), to: nil)
        #expect(onScreen.maxX == 800 - 3 && onScreen.width == 3)
        // 480 of 2400 points show: the bar is a fifth of the track.
        #expect(abs(onScreen.height - (480 - 6) * 480 / 2400) <= 1)
        #expect(onScreen.minY > 3, "moved down the track with the offset")
        #expect(list.horizontalIndicator == nil, "nothing to scroll across")
        scene.wait(0.3)
        #expect(bar.alpha == 1, "held still under the finger it stays")
        var lift = GestureScript(start: scene.clock.now)
        lift.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 100), duration: 0.01)
        scene.play(lift.frames)
        scene.wait(2)
        #expect(bar.isHidden && bar.alpha == 0, "faded once the content rested")
    }

    @Test("a list whose rows fit shows no bar; a plain assignment of the offset shows none")
    func fits() {
        let (scene, list) = list(rows: 5)
        var script = GestureScript(start: 0.1)
        script.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 300), duration: 0.5, hold: 0.1)
        scene.play(script.frames)
        #expect(list.verticalIndicator?.isHidden ?? true)
        let (_, long) = self.list(rows: 40)
        long.contentOffset = Point(x: 0, y: 500)
        #expect(long.verticalIndicator == nil)
    }

    @Test("a horizontal list's bar runs along the bottom; mirrored right to left it starts at the right")
    func horizontal() {
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            let (scene, list) = list(rows: 20, orientation: .horizontal)
            scene.screen.layoutDirection = direction
            var script = GestureScript(start: 0.1)
            let (from, to) = direction == .leftToRight ? (700.0, 600.0) : (100.0, 200.0)
            script.drag(from: Point(x: from, y: 240), to: Point(x: to, y: 240), duration: 0.5, hold: 0.3, lift: false)
            scene.play(script.frames)
            let bar = try! #require(list.horizontalIndicator)
            #expect(list.verticalIndicator == nil)
            let onScreen = list.convert(list.reflected(bar.frame), to: nil)
            #expect(onScreen.maxY == 480 - 3 && onScreen.height == 3)
            if direction == .leftToRight { #expect(onScreen.minX < 100, "near the start, at the left") }
            else { #expect(onScreen.maxX > 700, "near the start, at the right: \(onScreen)") }
        }
    }
}
