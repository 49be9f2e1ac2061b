import PanelGestures

/// Supplies a list's rows.
@MainActor
public protocol ListDataSource: AnyObject {
    /// How many rows the list has.
    func numberOfRows(in list: ListView) -> Int
    /// Fills a (possibly reused) cell for `row`.
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int)
    /// The stable identity of the item `row` shows (a server's id), by which
    /// `reloadData(keeping:)` finds it again after the data changed; nil: none (by default),
    /// and then a reload keeps the offset only.
    func list(_ list: ListView, identifierForRow row: Int) -> String?
}

extension ListDataSource {
    /// No identities: a reload keeps the offset, not a row.
    public func list(_ list: ListView, identifierForRow row: Int) -> String? { nil }
    /// Nothing: a list whose rows are all registered cells (`register(_:configure:)`) fills
    /// them there, and a data source of such rows need not write this.
    public func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {}
}

/// The row the reader is looking at, by its identity, and where it is on screen: taken with
/// `ListView.placeAnchor()` before the data changes and given to `reloadData(keeping:)` after,
/// so that row stays where it was on the glass whatever was added or removed above it
/// (UITableView leaves this to the app; RecyclerView does it for adapters with stable ids).
public struct ListAnchor: Sendable, Equatable {
    /// The row's identity (`ListDataSource.list(_:identifierForRow:)`).
    public var identifier: String
    /// Where the row was: its start minus the visible area's start along the rows, points
    /// (0 or less: its start was at or above the list's top edge).
    public var offset: Double
    /// The row's index when the anchor was taken (a hint where to look first).
    public var row: Int

    /// An anchor on the row `identifier` that was at index `row`, `offset` points from the
    /// visible area's start.
    public init(identifier: String, offset: Double, row: Int) {
        (self.identifier, self.offset, self.row) = (identifier, offset, row)
    }
}

/// Hears about taps on rows.
@MainActor
public protocol ListDelegate: AnyObject {
    /// The row at `row` was tapped.
    func list(_ list: ListView, didSelectRow row: Int)
    /// `cell` showed `row` and has left the screen (UITableView's `didEndDisplaying`): what it
    /// loads for the row (a picture) can stop.
    func list(_ list: ListView, didEndDisplaying cell: ListCell, forRow row: Int)
}

extension ListDelegate {
    /// Nothing to stop.
    public func list(_ list: ListView, didEndDisplaying cell: ListCell, forRow row: Int) {}
}

/// How tall rows are.
public enum RowHeight: Sendable {
    /// Every row the same height, points: O(1) geometry, the cheapest.
    case fixed(Double)
    /// Each row asks; heights are summed once per `reloadData()` and looked up by binary
    /// search per frame.
    case variable(@Sendable (Int) -> Double)
    /// Each row as tall as its cell's content (UITableView's `automaticDimension`): rows are
    /// `estimated` points until they first come on screen, then measured once
    /// (`ListCell.fittingHeight(width:)`) and kept until `reloadData()`; a frame measures only
    /// rows new on screen. Vertical lists only (a horizontal list's columns take `estimated`).
    case automatic(estimated: Double)
}

/// A list of rows on a scroll view, vertical (rows one under the other) or horizontal (rows
/// as columns, side by side). Only the rows on screen exist as cells, and cells that scroll
/// away are reused, so a frame costs the same for 100 rows or 1,000,000.
@MainActor
open class ListView: ScrollView {
    /// Gives the rows (held weakly, as UITableView's).
    public weak var dataSource: (any ListDataSource)?
    /// Hears taps on rows (held weakly).
    public weak var delegate: (any ListDelegate)?
    /// The rows' extent along `orientation`: their height in a vertical list, their width in
    /// a horizontal one.
    public var rowHeight: RowHeight = .fixed(ListView.defaultRowHeight)
    /// Vertical: rows top to bottom; horizontal: columns left to right, each as high as the
    /// list. Call `reloadData()` after a change.
    public var orientation: Axis = .vertical {
        didSet { if orientation != oldValue { reloadData() } }
    }
    /// Which way a horizontal list runs; nil: the screen's `layoutDirection`. Right to left:
    /// the first column at the right, the list scrolled by dragging right, its trailer at the
    /// left end (the whole list shown mirrored; each column's content is not).
    public var layoutDirection: LayoutDirection? { didSet { if layoutDirection != oldValue { setNeedsDisplay() } } }

    /// A horizontal list in a right-to-left direction shows its columns mirrored.
    open override var mirrorsSubviews: Bool {
        orientation == .horizontal && (layoutDirection ?? screen?.layoutDirection ?? .leftToRight) == .rightToLeft
    }

    /// Makes a new cell when none can be reused (the data source's `ListCell` rows; a typed
    /// registration, `register(_:configure:)`, takes its place).
    public var makeCell: () -> ListCell = { ListCell() } {
        didSet { dropCells() }
    }

    /// Rows of the app's own cell type: `make` makes one when none can be reused, `configure`
    /// fills it for a row, typed (no downcast in the app, so no blank row from a wrong one).
    /// The data source still gives the row count and identities; its `configure` for
    /// `ListCell` is no longer asked. Cells made before are let go.
    public func register<Cell: RowCell>(_ make: @escaping () -> Cell, configure: @escaping (Cell, Int) -> Void) {
        registration = (make, { cell, row in
            // Every cell here was made by `make` (the pool is emptied on a new registration).
            guard let cell = cell as? Cell else { return }
            configure(cell, row)
        })
        dropCells()
    }

    /// The typed registration, when there is one: how to make a cell and fill it for a row.
    private var registration: (make: () -> RowCell, configure: (RowCell, Int) -> Void)?

    /// The row selected (UITableView's single selection), shown by its cell's `isSelected`;
    /// nil: none. Set by the app, or by a tap when `selectsRowOnTap`. An index: after a change
    /// of the data the app selects again what it means.
    public var selectedRow: Int? {
        didSet {
            guard selectedRow != oldValue else { return }
            for (row, cell) in rowCells { cell.isSelected = row == selectedRow }
        }
    }
    /// The colours of the list, its rows and the refresh components on it, in one value
    /// (`.dark` for a board in a dim hall); nil: each view keeps its own. Rows made later take
    /// it too; a data source that colours a row in `configure` still wins for that row.
    public var theme: ListTheme? {
        didSet {
            guard let theme, theme != oldValue else { return }
            backgroundColor = theme.background
            // The rows waiting for reuse are subviews too, hidden.
            for view in subviews { (view as? any ListThemed)?.apply(theme) }
        }
    }

    /// Whether a tap selects the row it lands on before the delegate hears it (off: taps only
    /// tell the delegate, as the kiosk's list wants).
    public var selectsRowOnTap = false

    /// UITableView's default row height, 44 points.
    public static let defaultRowHeight: Double = 44

    /// The row count the last `reloadData()` saw.
    public private(set) var numberOfRows = 0
    /// Row tops for variable heights: `rowOffsets[i]` is the top of row i, the last entry the
    /// content height.
    private var rowOffsets: [Double] = []
    /// Row heights for automatic heights, estimated until measured.
    private var extents = RowExtents(count: 0, length: 0)
    /// Which rows have been measured since the last `reloadData()`.
    private var measured: [Bool] = []
    /// Rows measured so far (for tests: each once per reload).
    public private(set) var rowsMeasured = 0
    /// The cells on screen, by row, whatever their type.
    public private(set) var rowCells: [Int: RowCell] = [:]
    /// The `ListCell` rows on screen, by row (all of them unless a typed registration is used).
    public var visibleCells: [Int: ListCell] { rowCells.compactMapValues { $0 as? ListCell } }
    private var reusableCells: [RowCell] = []
    /// Cells whose row must be configured again at the next layout.
    private var staleRows = Set<Int>()

    /// An empty list at `frame`, its scrolling driven by `animator`.
    public override init(frame: Rect, animator: Animator) {
        super.init(frame: frame, animator: animator)
    }

    /// The data source's row count.
    open override var totalDataCount: Int { numberOfRows }

    /// The first row on screen, by its identity, to keep in place across a change of the
    /// data (`reloadData(keeping:)`). Nil when there is no row, the data source gives no
    /// identities, or the list shows its very start (scrolled to the top, or pulled past it):
    /// then what a refresh adds at the start shows, as a pull to refresh means it to.
    public func placeAnchor() -> ListAnchor? {
        guard numberOfRows > 0, let dataSource else { return nil }
        let start = orientation == .vertical ? contentOffset.y : contentOffset.x
        let minimum = orientation == .vertical ? minimumContentOffset.y : minimumContentOffset.x
        // Half a point: an offset that rests at the start, give or take rounding.
        guard start > minimum + 0.5 else { return nil }
        // The row under the visible area's start (the content's start under a top inset is
        // the first row's).
        let row = rowIndex(atY: max(start, 0))
        guard let identifier = dataSource.list(self, identifierForRow: row) else { return nil }
        return ListAnchor(identifier: identifier, offset: span(rectForRow(row)).min - start, row: row)
    }

    /// Reloads (`reloadData()`), then keeps the reader's place: the anchored row, found again
    /// by its identity, is put back where it was on screen (to the point: the content moves by
    /// what was added or removed above it, and a drag or fling under way goes on from there).
    /// When the row is gone, or `anchor` is nil, the offset stays, brought back into range
    /// when the content became shorter than it.
    public func reloadData(keeping anchor: ListAnchor?) {
        reloadData()
        if let anchor, let row = row(forIdentifier: anchor.identifier, near: anchor.row) {
            let start = orientation == .vertical ? contentOffset.y : contentOffset.x
            let wanted = span(rectForRow(row)).min - anchor.offset
            shiftContent(by: orientation == .vertical ? Point(x: 0, y: wanted - start) : Point(x: wanted - start, y: 0))
        }
        clampContentOffset()
    }

    /// The row whose identity is `identifier`, looked for from `near` outwards (rows added or
    /// removed above move it by a few); nil when no row has it.
    private func row(forIdentifier identifier: String, near: Int) -> Int? {
        guard let dataSource, numberOfRows > 0 else { return nil }
        let center = min(max(near, 0), numberOfRows - 1)
        for distance in 0..<numberOfRows {
            let after = center + distance, before = center - distance
            guard after < numberOfRows || before >= 0 else { break }
            if after < numberOfRows, dataSource.list(self, identifierForRow: after) == identifier { return after }
            if distance > 0, before >= 0, dataSource.list(self, identifierForRow: before) == identifier { return before }
        }
        return nil
    }

    /// Reads the row count (and heights) again and refreshes the cells on screen.
    public func reloadData() {
        numberOfRows = max(0, dataSource?.numberOfRows(in: self) ?? 0)
        switch rowHeight {
        case .fixed(let h):
            rowOffsets = []
            contentSize = sized(length: Double(numberOfRows) * h)
        case .variable(let height):
            var offsets = [Double]()
            offsets.reserveCapacity(numberOfRows + 1)
            var y = 0.0
            for row in 0..<numberOfRows {
                offsets.append(y)
                y += max(0, height(row))
            }
            offsets.append(y)
            rowOffsets = offsets
            contentSize = sized(length: y)
        case .automatic(let estimate):
            rowOffsets = []
            extents = RowExtents(count: numberOfRows, length: max(0, estimate))
            measured = Array(repeating: false, count: numberOfRows)
            contentSize = sized(length: extents.total)
        }
        staleRows = Set(rowCells.keys)
        setNeedsLayout()
    }

    /// Fills the cells of `rows` again (UITableView's `reloadRows(at:with:)` without the
    /// animation): only rows on screen cost anything, the row count, offset and other rows
    /// stay. Automatic rows among them are measured again; variable heights are read only by
    /// `reloadData()`.
    public func reloadRows(_ rows: some Sequence<Int>) {
        for row in rows where row >= 0 && row < numberOfRows {
            if rowCells[row] != nil { staleRows.insert(row) }
            if case .automatic = rowHeight, row < measured.count { measured[row] = false }
        }
        setNeedsLayout()
    }

    /// Lets go of every cell (a new kind of cell is registered): rows are made anew at the
    /// next layout.
    private func dropCells() {
        for cell in Array(rowCells.values) + reusableCells { cell.removeFromSuperview() }
        rowCells = [:]
        reusableCells = []
        setNeedsLayout()
    }

    /// A content size `length` long along the rows, as wide (or high) as the list across.
    private func sized(length: Double) -> Size {
        orientation == .vertical ? Size(width: frame.width, height: length) : Size(width: length, height: frame.height)
    }

    /// The content's length along the rows.
    private var contentLength: Double { orientation == .vertical ? contentSize.height : contentSize.width }
    /// The list's own length along the rows.
    private var viewLength: Double { orientation == .vertical ? frame.height : frame.width }
    /// `r`'s start and end along the rows.
    private func span(_ r: Rect) -> (min: Double, max: Double) {
        orientation == .vertical ? (r.minY, r.maxY) : (r.minX, r.maxX)
    }

    /// The row's rectangle in content coordinates.
    public func rectForRow(_ row: Int) -> Rect {
        let start: Double, length: Double
        switch rowHeight {
        case .fixed(let h):
            start = Double(row) * h
            length = h
        case .variable:
            guard row >= 0, row + 1 < rowOffsets.count else { return .zero }
            start = rowOffsets[row]
            length = rowOffsets[row + 1] - rowOffsets[row]
        case .automatic:
            guard row >= 0, row < extents.count else { return .zero }
            start = extents.start(of: row)
            length = extents.lengths[row]
        }
        return orientation == .vertical ? Rect(x: 0, y: start, width: frame.width, height: length)
                                        : Rect(x: start, y: 0, width: length, height: frame.height)
    }

    /// The row at `y` (along the rows) in content coordinates, clamped to the rows that exist.
    private func rowIndex(atY y: Double) -> Int {
        guard numberOfRows > 0 else { return 0 }
        switch rowHeight {
        case .fixed(let h):
            guard h > 0 else { return 0 }
            return min(max(Int((y / h).rounded(.down)), 0), numberOfRows - 1)
        case .variable:
            var lo = 0, hi = numberOfRows - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if rowOffsets[mid] <= y { lo = mid } else { hi = mid - 1 }
            }
            return lo
        case .automatic:
            return extents.row(at: max(y, 0))
        }
    }

    /// The row under `point` (content coordinates), if any.
    public func row(at point: Point) -> Int? {
        let along = orientation == .vertical ? point.y : point.x
        guard numberOfRows > 0, along >= 0, along < contentLength else { return nil }
        return rowIndex(atY: along)
    }

    /// Rows that intersect the visible area.
    public var visibleRows: Range<Int> {
        guard numberOfRows > 0 else { return 0..<0 }
        // What is drawn, which is the offset unless the content is pinned (`pinnedContentTop`).
        let drawn = span(bounds)
        let top = max(drawn.min, 0)
        let bottom = min(drawn.min + viewLength, contentLength)
        guard bottom > top else { return 0..<0 }
        let first = rowIndex(atY: top)
        let last = rowIndex(atY: bottom - 0.001)
        return first..<(last + 1)
    }

    /// The header, footer and other views, then only the cells of the rows `area` crosses
    /// (found by row geometry, not by asking each cell), then the views that float above the
    /// content (`zPosition > 0`, a header in front).
    open override func subviews(reaching area: Rect) -> [View] {
        // One array (this runs for every frame that draws the list): the other subviews at or
        // behind the rows, the rows that reach `area`, then the other subviews in front.
        var result: [View] = []
        result.reserveCapacity(subviews.count)
        for view in subviews where !(view is RowCell) && view.zPosition <= 0 { result.append(view) }
        let reach = span(area)
        if numberOfRows > 0, reach.max > 0, reach.min < contentLength {
            let first = rowIndex(atY: max(reach.min, 0))
            let last = rowIndex(atY: min(reach.max, contentLength) - 0.001)
            if last >= first {
                for row in first...last {
                    if let cell = rowCells[row] { result.append(cell) }
                }
            }
        }
        for view in subviews where !(view is RowCell) && view.zPosition > 0 { result.append(view) }
        return result
    }

    /// Lays the visible rows out, reusing cells that left the screen.
    open override func layoutSubviews() {
        super.layoutSubviews()
        // Rows span the list: a resized list must not become scrollable across its rows.
        if orientation == .vertical, contentSize.width != frame.width { contentSize.width = frame.width }
        if orientation == .horizontal, contentSize.height != frame.height { contentSize.height = frame.height }
        // Rows measured in a pass change which rows show; a few passes settle it (each row is
        // measured once, so later passes only place cells).
        for _ in 0..<4 where placeVisibleRows() {}
    }

    /// Places the cells of the visible rows; true when automatic rows were measured (and the
    /// rows after them moved).
    private func placeVisibleRows() -> Bool {
        let rows = visibleRows
        for (row, cell) in rowCells where !rows.contains(row) {
            cell.isHidden = true
            reusableCells.append(cell)
            rowCells[row] = nil
            if let cell = cell as? ListCell { delegate?.list(self, didEndDisplaying: cell, forRow: row) }
        }
        for row in rows {
            let cell: RowCell
            if let existing = rowCells[row] {
                cell = existing
                guard staleRows.contains(row) else {
                    cell.frame = rectForRow(row)
                    continue
                }
            } else if let reused = reusableCells.popLast() {
                cell = reused
                cell.isHidden = false
            } else {
                cell = registration?.make() ?? makeCell()
                cell.list = self
                if let theme { cell.apply(theme) }
                addSubview(cell)
            }
            cell.row = row
            cell.frame = rectForRow(row)
            cell.prepareForReuse()
            if let registration {
                registration.configure(cell, row)
            } else if let cell = cell as? ListCell {
                dataSource?.list(self, configure: cell, forRow: row)
            }
            cell.isSelected = row == selectedRow
            rowCells[row] = cell
        }
        staleRows.removeAll()
        return measureNewRows(rows)
    }

    /// Measures the automatic rows of `rows` not measured yet; true if a height changed.
    private func measureNewRows(_ rows: Range<Int>) -> Bool {
        guard case .automatic = rowHeight, orientation == .vertical else { return false }
        var changed = false
        for row in rows where row < measured.count && !measured[row] {
            guard let cell = rowCells[row] else { continue }
            measured[row] = true
            rowsMeasured += 1
            let height = max(0, cell.fittingHeight(width: frame.width))
            if height != extents.lengths[row] {
                extents.set(row, height)
                changed = true
            }
        }
        guard changed else { return false }
        contentSize = sized(length: extents.total)
        for (row, cell) in rowCells { cell.frame = rectForRow(row) }
        return true
    }
}
