import PanelHost

/// What is on a shop's shelves, in memory, one page of `pageSize` at a time. A real app would
/// ask its server; here a refresh restocks the first shelf.
@MainActor
final class ShelfList {
    /// Rows per page.
    static let pageSize = 12
    /// Pages there are (the footer then says there is no more).
    static let pages = 3
    /// One product: its name and how many are left (0 to 10).
    struct Item: Equatable { var name: String; var stock: Int }
    private(set) var items: [Item] = []
    private var restocks = 0

    /// The first page again (a pull to refresh).
    func reload() {
        restocks += 1
        items = (1...Self.pageSize).map { Item(name: "Item \($0) (stock \(restocks))", stock: ($0 * 3 + restocks) % 11) }
    }

    /// The next page; false when there is none.
    func loadMore() -> Bool {
        let page = items.count / Self.pageSize
        guard page < Self.pages else { return false }
        items += (1...Self.pageSize).map { Item(name: "Item \(page * Self.pageSize + $0)", stock: ($0 * 7) % 11) }
        return page + 1 < Self.pages
    }
}

/// How full a shelf is, drawn by the view itself (`draw(in:)`): a rounded track and its
/// filled part, red below a quarter.
@MainActor
final class StockBar: View {
    /// 0 to 1.
    var level = 0.0 { didSet { if level != oldValue { setNeedsDisplay() } } }

    override func draw(in context: any DrawingContext) {
        let size = context.size
        let track = Rect(x: 0, y: (size.height - 8) / 2, width: size.width, height: 8)
        context.fill(track, color: Color(red: 199, green: 199, blue: 204), cornerRadius: 4)
        guard level > 0 else { return }
        let fill = level < 0.25 ? Color(red: 255, green: 59, blue: 48) : Color(red: 52, green: 199, blue: 89)
        context.fill(Rect(x: 0, y: track.minY, width: max(8, size.width * level), height: 8), color: fill, cornerRadius: 4)
    }
}

/// A shelf's row, a cell of the app's own: the product, its shelf, and its stock bar.
@MainActor
final class ShelfCell: RowCell {
    let name = Label()
    let shelf = Label()
    let stock = StockBar()

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        name.font = .system(17)
        shelf.font = .system(13)
        shelf.textColor = Color(red: 110, green: 110, blue: 115)
        for view in [name, shelf, stock] as [View] { addSubview(view) }
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        (name.text, shelf.text, stock.level) = ("", "", 0)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let bar = min(120, frame.width / 4)
        name.frame = Rect(x: 16, y: 8, width: frame.width - bar - 48, height: 26)
        shelf.frame = Rect(x: 16, y: 34, width: frame.width - bar - 48, height: 20)
        stock.frame = Rect(x: frame.width - bar - 16, y: 0, width: bar, height: frame.height)
    }
}

/// The app's screen: the shelf list over a status line that says which row is selected. The
/// host keeps it (what the views closure returns); a resize lays it out again and keeps the
/// selection and the status.
@MainActor
final class ShelfScreen: ListDataSource, ListDelegate {
    let rows = ShelfList()
    let list: ListView
    let status = Label()
    /// The status line's height, points.
    static let statusHeight: Double = 40

    init(scene: Scene) {
        let size = scene.screen.size
        list = ListView(frame: Rect(x: 0, y: 0, width: size.width, height: size.height - Self.statusHeight), animator: scene.animator)
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        list.rowHeight = .fixed(64)
        list.dataSource = self
        list.delegate = self
        list.selectsRowOnTap = true
        list.register({ ShelfCell() }) { [unowned self] cell, row in
            let item = rows.items[row]
            cell.name.text = item.name
            cell.shelf.text = "Shelf \(row / 4 + 1)"
            cell.stock.level = Double(item.stock) / 10
        }
        scene.screen.rootView.addSubview(list)
        status.text = "Tap a row"
        status.font = .bold(15)
        status.alignment = .center
        status.backgroundColor = Color(red: 242, green: 242, blue: 247)
        scene.screen.rootView.addSubview(status)
        place(in: size)
        let header = NormalHeader()
        header.refreshingAction = { [unowned self, unowned header] in
            rows.reload()
            list.reloadData()
            header.endRefreshing()
        }
        list.header = header
        let footer = AutoNormalFooter()
        footer.refreshingAction = { [unowned self, unowned footer] in
            let more = rows.loadMore()
            list.reloadData()
            if more { footer.endRefreshing() } else { footer.endRefreshingWithNoMoreData() }
        }
        list.footer = footer
        rows.reload()
        list.reloadData()
    }

    /// The status line along the bottom of a screen of `size` (the list follows by its mask).
    func place(in size: Size) {
        status.frame = Rect(x: 0, y: size.height - Self.statusHeight, width: size.width, height: Self.statusHeight)
    }

    func numberOfRows(in list: ListView) -> Int { rows.items.count }
    /// The rows are ShelfCells (registered); the plain ListCell's way is not asked.
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {}

    func list(_ list: ListView, didSelectRow row: Int) {
        status.text = "Selected: \(rows.items[row].name)"
        Log.info("selected row \(row)")
    }
}
