import Testing
@testable import PanelUI

@MainActor
final class CountingSource: ListDataSource, ListDelegate {
    var rows: Int
    var countCalls = 0
    var configureCalls = 0
    var selected: [Int] = []
    init(rows: Int) { self.rows = rows }
    func numberOfRows(in list: ListView) -> Int {
        countCalls += 1
        return rows
    }
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        configureCalls += 1
        cell.titleLabel.text = "Row \(row)"
    }
    func list(_ list: ListView, didSelectRow row: Int) { selected.append(row) }
}

@MainActor
@Suite("List view")
struct ListViewTests {
    func makeList(rows: Int, height: RowHeight = .fixed(60)) -> (Scene, ListView, CountingSource) {
        let scene = Scene(size: Size(width: 800, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        let source = CountingSource(rows: rows)
        list.rowHeight = height
        list.dataSource = source
        list.delegate = source
        list.reloadData()
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        scene.frame()
        return (scene, list, source)
    }

    @Test("only the rows on screen exist as cells")
    func virtualised() {
        let (_, list, _) = makeList(rows: 1000)
        #expect(list.visibleRows == 0..<8)
        #expect(list.visibleCells.count == 8)
        #expect(list.contentSize.height == 60_000)
        #expect(list.visibleCells[3]?.titleLabel.text == "Row 3")
        #expect(list.totalDataCount == 1000)
    }

    @Test("scrolling reuses cells instead of making new ones")
    func reuse() {
        let (scene, list, source) = makeList(rows: 1000)
        let cells = Set(list.subviews.map { ObjectIdentifier($0) })
        source.configureCalls = 0
        list.contentOffset = Point(x: 0, y: 3030)
        scene.frame()
        #expect(list.visibleRows == 50..<59)
        #expect(list.visibleCells[50]?.titleLabel.text == "Row 50")
        // Every cell on screen before is reused; at most one more is made for the extra row.
        let after = Set(list.subviews.map { ObjectIdentifier($0) })
        #expect(cells.isSubset(of: after))
        #expect(after.count - cells.count <= 1)
        #expect(source.configureCalls == 9, "each of the nine rows now on screen configured once")
    }

    @Test("1,000,000 rows cost a frame what 100 rows cost", arguments: [RowHeight.fixed(60), .variable { 40 + Double($0 % 3) * 10 }])
    func costIndependentOfRows(height: RowHeight) {
        func frameCost(rows: Int) -> (configures: Int, cells: Int, views: Int) {
            let (scene, list, source) = makeList(rows: rows, height: height)
            list.contentOffset = Point(x: 0, y: 1234)
            scene.frame()
            source.configureCalls = 0
            list.contentOffset = Point(x: 0, y: 1500)
            scene.frame()
            return (source.configureCalls, list.visibleCells.count, list.subviews.count)
        }
        let small = frameCost(rows: 100), large = frameCost(rows: 1_000_000)
        #expect(small.configures == large.configures)
        #expect(small.cells == large.cells)
        #expect(small.views == large.views)
    }

    @Test("variable heights place rows by their running sum")
    func variableHeights() {
        let (_, list, _) = makeList(rows: 10, height: .variable { Double($0 + 1) * 10 })
        #expect(list.contentSize.height == 550)
        #expect(list.rectForRow(3) == Rect(x: 0, y: 60, width: 800, height: 40))
        #expect(list.row(at: Point(x: 5, y: 99)) == 3)
        #expect(list.row(at: Point(x: 5, y: 100)) == 4)
        #expect(list.row(at: Point(x: 5, y: 600)) == nil)
    }

    @Test("reloadData picks up new rows and refreshes visible cells")
    func reload() {
        let (scene, list, source) = makeList(rows: 3)
        #expect(list.visibleCells.count == 3)
        source.rows = 20
        list.reloadData()
        scene.frame()
        #expect(list.visibleCells.count == 8)
        #expect(list.contentSize.height == 1200)
    }

    @Test("a tap on a row selects it; a pan does not")
    func taps() {
        let (scene, list, source) = makeList(rows: 50)
        var script = GestureScript(start: 0.5)
        script.tap(at: Point(x: 200, y: 130))
        scene.play(script.frames)
        #expect(source.selected == [2])
        var drag = GestureScript(start: 1)
        drag.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 100), duration: 0.2)
        scene.play(drag.frames)
        #expect(source.selected == [2])
        #expect(list.contentOffset.y > 0)
    }

    @Test("a tap that catches a fling only stops it (UIScrollView's catch); the next tap selects")
    func catchStopsOnly() {
        let (scene, list, source) = makeList(rows: 500)
        list.contentOffset = Point(x: 0, y: 3000)
        var fling = GestureScript(start: 0.5)
        fling.drag(from: Point(x: 200, y: 400), to: Point(x: 200, y: 100), duration: 0.1)
        scene.play(fling.frames)
        scene.wait(0.1)
        #expect(list.isDecelerating)
        var catchTap = GestureScript(start: scene.clock.now + 0.02)
        catchTap.tap(at: Point(x: 200, y: 130))
        scene.play(catchTap.frames)
        #expect(!list.isDecelerating, "the catch stopped the fling")
        #expect(source.selected.isEmpty, "the catch opened nothing")
        let stopped = list.contentOffset
        scene.wait(0.5)
        #expect(list.contentOffset == stopped)
        var tap = GestureScript(start: scene.clock.now + 0.1)
        tap.tap(at: Point(x: 200, y: 130))
        scene.play(tap.frames)
        #expect(source.selected == [Int((stopped.y + 130) / 60)])
    }
}

@MainActor
@Suite("Scene")
struct SceneTests {
    @Test("no frames are drawn while nothing moves")
    func idle() {
        let scene = Scene(size: Size(width: 100, height: 100))
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        scene.screen.rootView.addSubview(view)
        scene.frame()
        let frames = scene.frameCount
        scene.wait(10)
        #expect(scene.frameCount == frames)
        scene.animator.animate(nil, from: 0.0, to: 1.0, duration: 0.5, apply: { view.alpha = $0 })
        scene.wait(1)
        #expect(scene.frameCount - frames >= 30 && scene.frameCount - frames <= 32)
    }
}

@MainActor
@Suite("Horizontal list")
struct HorizontalListViewTests {
    @Test("rows become columns as high as the list; the visible ones follow the x offset; a tap selects the column; separators run down")
    func columns() {
        let scene = Scene(size: Size(width: 800, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        let source = CountingSource(rows: 1000)
        list.rowHeight = .fixed(200)
        list.dataSource = source
        list.delegate = source
        list.orientation = .horizontal
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        scene.frame()
        #expect(list.contentSize == Size(width: 200_000, height: 480))
        #expect(list.visibleRows == 0..<4)
        #expect(list.canScrollHorizontally && !list.canScrollVertically)
        list.contentOffset = Point(x: 1_000, y: 0)
        scene.frame()
        #expect(list.visibleRows == 5..<9)
        #expect(list.visibleCells[6]?.frame == Rect(x: 1_200, y: 0, width: 200, height: 480))
        #expect(list.visibleCells[6]?.titleLabel.text == "Row 6")
        #expect(list.visibleCells.count == 4, "only the columns on screen exist")
        let separator = list.visibleCells[6]!.separator.frame
        #expect(separator.width == 1 && separator.minX == 199 && separator.height > 400)
        #expect(list.row(at: Point(x: 1_450, y: 10)) == 7)
        var tap = GestureScript(start: scene.clock.now + 0.1)
        tap.tap(at: Point(x: 450, y: 240))
        scene.play(tap.frames)
        #expect(source.selected == [7])
        // A sideways swipe scrolls it.
        var swipe = GestureScript(start: scene.clock.now + 0.1)
        swipe.drag(from: Point(x: 700, y: 240), to: Point(x: 300, y: 240), duration: 0.4, hold: 0.2)
        scene.play(swipe.frames)
        #expect(list.contentOffset.x > 1_300 && list.contentOffset.y == 0)
    }
}
