import PanelApp

/// The app's own rows: what is on a shop's shelves, in memory, one page of `pageSize` at a
/// time. A real app would ask its server; here a refresh restocks the first shelf.
@MainActor
final class ShelfList: ListDataSource {
    /// Rows per page.
    static let pageSize = 12
    /// Pages there are (the footer then says there is no more).
    static let pages = 3
    private(set) var items: [String] = []
    private var restocks = 0

    func numberOfRows(in list: ListView) -> Int { items.count }

    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        cell.titleLabel.text = items[row]
        cell.subtitleLabel.text = "Shelf \(row / 4 + 1)"
    }

    /// The first page again (a pull to refresh).
    func reload() {
        restocks += 1
        items = (1...Self.pageSize).map { "Item \($0) (stock \(restocks))" }
    }

    /// The next page; false when there is none.
    func loadMore() -> Bool {
        let page = items.count / Self.pageSize
        guard page < Self.pages else { return false }
        items += (1...Self.pageSize).map { "Item \(page * Self.pageSize + $0)" }
        return page + 1 < Self.pages
    }
}

/// Adds the shelf list, its header and its footer to a scene.
@MainActor
func addShelf(to scene: Scene, rows: ShelfList) -> ListView {
    let list = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
    list.rowHeight = .fixed(64)
    list.dataSource = rows
    scene.screen.rootView.addSubview(list)
    scene.dispatcher.scrollView = list
    let header = NormalHeader()
    header.refreshingAction = { [weak list, weak header] in
        rows.reload()
        list?.reloadData()
        header?.endRefreshing()
    }
    list.header = header
    let footer = AutoNormalFooter()
    footer.refreshingAction = { [weak list, weak footer] in
        let more = rows.loadMore()
        list?.reloadData()
        if more { footer?.endRefreshing() } else { footer?.endRefreshingWithNoMoreData() }
    }
    list.footer = footer
    rows.reload()
    list.reloadData()
    return list
}
