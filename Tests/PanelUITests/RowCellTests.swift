import Testing
@testable import PanelUI

/// An app's own row: a colour swatch and a price, nothing of `ListCell`'s.
@MainActor
final class SwatchCell: RowCell {
    let swatch = View()
    let price = Label()
    var configured = 0
    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        addSubview(swatch)
        addSubview(price)
    }
    override func prepareForReuse() {
        super.prepareForReuse()
        price.text = ""
    }
    override func layoutSubviews() {
        super.layoutSubviews()
        swatch.frame = Rect(x: 8, y: 8, width: frame.height - 16, height: frame.height - 16)
        price.frame = Rect(x: frame.height, y: 0, width: frame.width - frame.height, height: frame.height)
    }
}

@MainActor
@Suite("Rows of the app's own type, selection and reloading single rows")
struct RowCellTests {
    func makeList(rows: Int) -> (Scene, ListView, CountingSource) {
        let scene = Scene(size: Size(width: 800, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        let source = CountingSource(rows: rows)
        list.rowHeight = .fixed(60)
        list.dataSource = source
        list.delegate = source
        scene.screen.rootView.addSubview(list)
        return (scene, list, source)
    }

    @Test("a registered cell type is made and configured typed; the data source's ListCell configure is not asked; only its own subviews")
    func typedRegistration() throws {
        let (scene, list, source) = makeList(rows: 100)
        var prices: [Int: String] = [:]
        list.register({ SwatchCell() }) { cell, row in
            cell.price.text = "\(row * 10) kr"
            cell.swatch.backgroundColor = row.isMultiple(of: 2) ? .black : .white
            cell.configured += 1
            prices[row] = cell.price.text
        }
        list.reloadData()
        scene.frame()
        #expect(source.configureCalls == 0)
        #expect(list.visibleCells.isEmpty, "no ListCell was made")
        let third = try #require(list.rowCells[3] as? SwatchCell)
        #expect(third.price.text == "30 kr" && third.subviews.count == 2)
        #expect(prices.count == 8)
        // Scrolled, the same cells are reused and filled for their new rows.
        let made = Set(list.rowCells.values.map(ObjectIdentifier.init))
        list.contentOffset = Point(x: 0, y: 3000)
        scene.frame()
        #expect(list.rowCells[50].map { ($0 as? SwatchCell)?.price.text } == "500 kr")
        #expect(made.isSubset(of: Set(list.subviews.map(ObjectIdentifier.init))))
    }

    @Test("reloadRows fills only the rows named again, on screen; the offset and the other rows stay")
    func reloadRows() {
        let (scene, list, source) = makeList(rows: 100)
        list.reloadData()
        scene.frame()
        list.contentOffset = Point(x: 0, y: 120)
        scene.frame()
        source.configureCalls = 0
        list.reloadRows([3, 4, 90, -1, 500])
        scene.frame()
        #expect(source.configureCalls == 2, "rows 3 and 4 only (90 is off screen, -1 and 500 do not exist)")
        #expect(list.contentOffset.y == 120)
        #expect(source.countCalls == 1, "the row count is not read again")
    }

    @Test("selection: set by the app or by a tap when asked, shown by the cell over its own colour, which comes back")
    func selection() {
        let (scene, list, source) = makeList(rows: 50)
        list.reloadData()
        scene.frame()
        let cell = list.rowCells[2]!
        cell.backgroundColor = .black
        list.selectedRow = 2
        #expect(cell.isSelected && cell.backgroundColor == cell.selectedColor)
        cell.isHighlighted = true
        #expect(cell.backgroundColor == cell.highlightColor, "the press shows over the selection")
        cell.isHighlighted = false
        #expect(cell.backgroundColor == cell.selectedColor)
        list.selectedRow = nil
        #expect(!cell.isSelected && cell.backgroundColor == .black)

        // A tap tells the delegate and selects only when the list is asked to.
        var tap = GestureScript(start: 0.5)
        tap.tap(at: Point(x: 200, y: 190))
        scene.play(tap.frames)
        #expect(source.selected == [3] && list.selectedRow == nil)
        list.selectsRowOnTap = true
        var second = GestureScript(start: 1.5)
        second.tap(at: Point(x: 200, y: 250))
        scene.play(second.frames)
        #expect(source.selected == [3, 4] && list.selectedRow == 4)
        #expect(list.rowCells[4]?.isSelected == true && list.rowCells[3]?.isSelected == false)
        // Scrolled away and back, a reused cell shows the selection of the row it now shows.
        list.contentOffset = Point(x: 0, y: 1200)
        scene.frame()
        #expect(list.rowCells.values.allSatisfy { !$0.isSelected })
        list.contentOffset = .zero
        scene.frame()
        #expect(list.rowCells[4]?.isSelected == true)
    }
}

@MainActor
@Suite("A gesture script that starts in the past")
struct LateScriptTests {
    @Test("played after the clock passed its start, it is moved later whole: the drag keeps its timing and flings, and play says by how much")
    func lateScriptKeepsItsTiming() {
        func flingDistance(settleFirst: Double) -> (moved: Double, late: Double) {
            let scene = Scene(size: Size(width: 800, height: 480))
            let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
            let source = CountingSource(rows: 500)
            list.rowHeight = .fixed(60)
            list.dataSource = source
            list.reloadData()
            scene.screen.rootView.addSubview(list)
            scene.frame()
            scene.run(until: settleFirst)
            var drag = GestureScript(start: 0.5)
            drag.drag(from: Point(x: 200, y: 400), to: Point(x: 200, y: 100), duration: 0.1)
            let late = scene.play(drag.frames)
            scene.settle()
            return (list.contentOffset.y, late)
        }
        let onTime = flingDistance(settleFirst: 0)
        let late = flingDistance(settleFirst: 2)
        #expect(onTime.late == 0)
        #expect(abs(late.late - 1.5) < 1e-9)
        #expect(onTime.moved > 600, "a 3000 pt/s drag flings on: \(onTime.moved)")
        #expect(abs(late.moved - onTime.moved) < 0.5, "the late script flings as far: \(late.moved) against \(onTime.moved)")
    }
}
