/// Pull left past the right end and release (MJRefreshTrailer): "see the details" on a
/// horizontal scroll view.
@MainActor
open class Trailer: RefreshComponent {
    /// MJRefreshTrailWidth: 60 points.
    public static let defaultWidth: Double = 60

    /// Width, points; also the trigger distance unless `triggerDistance` is set.
    public var width: Double = Trailer.defaultWidth { didSet { placeComponent(); settingsDidChange() } }
    /// Pull distance (points past the right end) that arms the trailer; nil: `width`.
    public var triggerDistance: Double? { didSet { settingsDidChange() } }
    /// Largest overscroll past the right end, points; nil: the rubber band only.
    public var maxDragDistance: Double? { didSet { scrollView?.maximumOverscroll.right = maxDragDistance ?? .infinity } }
    /// Moves the trailer right by this much.
    public var ignoredScrollViewContentInsetRight: Double = 0 { didSet { placeComponent() } }

    private var pull: EdgePull { EdgePull(edge: .right) }

    /// Follows its scroll view's height.
    open override func prepare() {
        super.prepare()
        autoresizingMask = .flexibleHeight
    }

    /// A failed load leaves the trailer in `failed` ("Failed. Swipe to retry") until a new
    /// swipe past the end or `beginRefreshing()` retries it, as the footers keep theirs.
    public var keepsFailedState = true { didSet { settingsDidChange() } }

    /// Makes the scroll view bounce horizontally only, applies the maximum drag, goes to the last column's end.
    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        // MJRefreshTrailer.willMoveToSuperview: horizontal bounce only.
        scrollView.alwaysBounceHorizontal = true
        scrollView.alwaysBounceVertical = false
        scrollView.maximumOverscroll.right = maxDragDistance ?? .infinity
        placeComponent()
    }

    /// Gives back what it set on the scroll view.
    open override func willDetach(from scrollView: ScrollView) {
        super.willDetach(from: scrollView)
        if maxDragDistance != nil { scrollView.maximumOverscroll.right = .infinity }
    }

    func placeComponent() {
        guard let sv = scrollView else { return }
        let x = PullEdge.right.trailingPosition(sv, original: scrollViewOriginalInset,
                                                ignored: ignoredScrollViewContentInsetRight)
        frame = Rect(x: x, y: -sv.adjustedContentInset.top, width: width, height: sv.frame.height)
    }

    /// Moves to the end of the new content.
    open override func scrollViewContentSizeDidChange(_ change: Change<Size>) {
        super.scrollViewContentSizeDidChange(change)
        placeComponent()
    }

    /// Moves with the content's right inset.
    open override func scrollViewContentInsetDidChange(_ change: Change<EdgeInsets>) {
        super.scrollViewContentInsetDidChange(change)
        placeComponent()
    }

    override class func makeMachine() -> any RefreshMachine { PullMachine(role: .trailer, extent: defaultWidth) }

    override func makeSettings() -> RefreshSettings { settings(extent: width, trigger: triggerDistance) }

    /// Follows the pull past the last column.
    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        send(.scrolled(pullSample(.right)))
    }

    /// Loads when the finger lifts past the trigger.
    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        sendPan(change.new)
    }

    override func perform(_ action: RefreshAction) {
        if !pull.perform(action, on: self, extent: width) { super.perform(action) }
    }
}
