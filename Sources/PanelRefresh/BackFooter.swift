/// Pull up past the end and release to load more; it springs back afterwards
/// (MJRefreshBackFooter).
@MainActor
open class BackFooter: RefreshFooter {
    private var pull: EdgePull { EdgePull(edge: .bottom) }

    /// Below the content, or pinned below the view when the content is short.
    override func placeComponent() {
        guard let sv = scrollView else { return }
        let y = PullEdge.bottom.trailingPosition(sv, original: scrollViewOriginalInset,
                                                 ignored: ignoredScrollViewContentInsetBottom)
        frame = Rect(x: -sv.adjustedContentInset.left, y: y, width: sv.frame.width, height: height)
    }

    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        if (state == .idle || state == .failed) && blockedByHeader { return }
        pull.offsetDidChange(self, extent: height, trigger: triggerDistance ?? height)
    }

    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        pull.panStateDidChange(self, change)
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        pull.stateDidChange(self, from: old, extent: height)
    }
}
