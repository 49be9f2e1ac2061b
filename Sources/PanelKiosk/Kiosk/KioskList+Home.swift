import PanelHost

/// Back to the start when nobody reads: after `appearance.home-after` seconds without a touch,
/// an open detail page and the second floor close and the list goes back to its top, so the
/// next passer-by reads the board from its beginning. Never under a finger, during a refresh
/// or while a page slides; the time is a deadline of the host.
extension KioskList {
    /// Whether the list is at its start: no page, no second floor, scrolled to its top.
    var isHome: Bool {
        detailPage == nil && header.state != .twoLevel && header.state != .releaseToTwoLevel && list.placeAnchor() == nil
    }

    /// When the list goes back to its start, seconds of the clock; nil: it is there, or never.
    var nextHome: Double? {
        guard homeAfter > 0, let touched = stage?.lastTouch, touched > returnedHomeAt, !isHome else { return nil }
        return touched + homeAfter
    }

    /// At every entry: back to the start when its time came and nothing holds it.
    func tickHome(at now: Double) {
        guard let due = nextHome, now >= due, !scene.dispatcher.isTouching, !isRefreshing else { return }
        Log.info("no touch for \(TextFormat.number(homeAfter)) s: back to the start of the list")
        if detailPage != nil { closeDetail(how: "call") }
        if header.state == .twoLevel { _ = header.closeTwoLevel() }
        list.scrollToTop(animated: true)
        hideChip()
        // Said once per return: the next is counted from the next touch.
        returnedHomeAt = now
        // A paging board starts its round again from the top.
        if pagedFrom > -.infinity { pagedFrom = now }
    }
}
