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

    override class func makeMachine() -> any RefreshMachine { PullMachine(role: .backFooter, extent: defaultHeight) }

    override func makeSettings() -> RefreshSettings { settings(extent: height, trigger: triggerDistance) }

    /// Follows the pull past the end of the content.
    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        send(.scrolled(pullSample(.bottom, blocked: blockedByHeader)))
    }

    /// Refreshes when the finger lifts past the trigger.
    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        sendPan(change.new)
    }

    override func perform(_ action: RefreshAction) {
        if !pull.perform(action, on: self, extent: height) { super.perform(action) }
    }
}
