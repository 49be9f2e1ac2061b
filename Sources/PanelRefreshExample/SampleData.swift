import PanelRefresh

/// Pages of made-up rows, as a data source would deliver them.
@MainActor
final class SampleData: ListDataSource {
    /// Rows per page.
    let pageSize: Int
    /// Pages that exist; after the last one the footer shows "no more data".
    let pageCount: Int
    private(set) var rows: [String] = []
    private var generation = 0

    init(pageSize: Int, pageCount: Int) {
        (self.pageSize, self.pageCount) = (pageSize, pageCount)
    }

    var loadedPages: Int { rows.count / pageSize }
    var hasMore: Bool { loadedPages < pageCount }

    /// Replaces everything with a fresh first page.
    func reload() {
        generation += 1
        rows = (0..<pageSize).map { "Item \($0 + 1) (refresh \(generation))" }
    }

    func loadNextPage() {
        let start = rows.count
        rows += (start..<start + pageSize).map { "Item \($0 + 1) (refresh \(generation))" }
    }

    func numberOfRows(in list: ListView) -> Int { rows.count }

    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        cell.titleLabel.text = rows[row]
        cell.subtitleLabel.text = "Row \(row + 1) of \(rows.count)"
    }
}
