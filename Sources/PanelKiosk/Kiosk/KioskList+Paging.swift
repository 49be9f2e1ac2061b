import PanelHost

/// An untouched board shows the rows past its screen: every `appearance.page-every` seconds
/// without a touch the list moves on by a screen, the row the screen's end cut coming to its
/// start (so no row is skipped, and none is read twice whole), and from its end back to its
/// top, as signage players page a long table. Never under a finger, during a refresh, with a
/// page or the second floor open, or while the list moves by itself; the time is a deadline of
/// the host. Reaching the end loads the next page as a reader's scroll does (the footer's own
/// rule), until the source has no more.
extension KioskList {
    /// Seconds a page move takes for one screen: slower than a tap's scroll (0.3 s), so the
    /// eye follows the rows to their new place.
    static let pageMoveSeconds = 0.6

    /// When the list next moves on by itself, seconds of the clock; nil: never (off, a page
    /// open, everything on the screen).
    var nextPage: Double? {
        guard pageEvery > 0, pagedFrom > -.infinity, detailPage == nil, !items.isEmpty, longerThanScreen else { return nil }
        return max(pagedFrom, stage?.lastTouch ?? -.infinity) + pageEvery
    }

    /// Whether some rows are past the screen along the list's axis.
    private var longerThanScreen: Bool {
        along(list.maximumContentOffset) > along(list.minimumContentOffset) + 0.5
    }

    /// A point's coordinate along the list's rows.
    private func along(_ p: Point) -> Double { list.orientation == .vertical ? p.y : p.x }

    /// At every entry: the count starts when the list first has rows; a due move is made when
    /// nothing holds it (a held one is made at the next entry after the hold).
    func tickPaging(at now: Double) {
        guard pageEvery > 0 else { return }
        if pagedFrom == -.infinity {
            if !items.isEmpty { pagedFrom = now }
            return
        }
        guard let due = nextPage, now >= due, !scene.dispatcher.isTouching, !isRefreshing, loader?.isRefreshing != true,
              header.state == .idle, !list.isDragging, !list.isDecelerating, !list.isAnimatingOffset else { return }
        pagedFrom = now
        let offset = list.contentOffset, maximum = along(list.maximumContentOffset)
        if along(offset) >= maximum - 0.5 {
            list.scrollToTop(animated: true)
            return
        }
        // The list's own insets (the banner's at the end), not the footer's: it sits past the
        // last row, not over the screen.
        let inset = list.contentInset
        let vertical = list.orientation == .vertical
        let startInset = vertical ? inset.top : inset.left
        let start = along(offset) + startInset
        let end = along(offset) + (vertical ? list.frame.height - inset.bottom : list.frame.width - inset.right)
        // The row the screen's end cuts comes to the start; a row that ends at the edge, the next.
        var target = end
        if let last = list.row(at: vertical ? Point(x: 0, y: end - 0.5) : Point(x: end - 0.5, y: 0)) {
            let rect = list.rectForRow(last)
            target = vertical ? (rect.maxY <= end + 0.5 ? rect.maxY : rect.minY) : (rect.maxX <= end + 0.5 ? rect.maxX : rect.minX)
        }
        // A row longer than the screen moves by the screen.
        if target <= start + 0.5 { target = end }
        let to = min(target - startInset, maximum)
        let duration = ScrollView.scrollDuration(distance: to - along(offset), viewport: end - start, base: Self.pageMoveSeconds)
        list.setContentOffset(vertical ? Point(x: offset.x, y: to) : Point(x: to, y: offset.y), duration: duration)
    }
}
