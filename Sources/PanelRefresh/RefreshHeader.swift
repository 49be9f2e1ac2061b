import FoundationEssentials
import Glibc

/// Pull down past the top to refresh (MJRefreshHeader).
@MainActor
open class RefreshHeader: RefreshComponent {
    /// MJRefreshHeaderHeight: 54 points.
    public static let defaultHeight: Double = 54

    /// Height, points; also the trigger distance unless `triggerDistance` is set.
    public var height: Double = RefreshHeader.defaultHeight { didSet { placeComponent(); settingsDidChange() } }
    /// Pull distance (points of displayed overscroll) that arms a refresh; nil: `height`
    /// (MJRefresh ties the two, trap T10).
    public var triggerDistance: Double? { didSet { settingsDidChange() } }
    /// Largest overscroll the finger can pull, points; nil: unlimited (the rubber band only).
    public var maxDragDistance: Double? { didSet { applyMaxDrag() } }
    /// Moves the header up by this much, for content whose top inset is not the header's.
    public var ignoredScrollViewContentInsetTop: Double = 0 { didSet { placeComponent() } }
    /// When the header finishes, a footer in `noMoreData` goes back to idle (trap T6).
    public var resetsFooterNoMoreDataOnEnd = true

    /// Key of the last-updated time in `lastUpdatedStore`.
    public var lastUpdatedTimeKey = "PanelRefreshHeaderLastUpdatedTimeKey" { didSet { lastUpdatedTimeDidChange() } }
    /// Where the last-updated time is kept (default: in memory only).
    public var lastUpdatedStore: any LastUpdatedStore = InMemoryLastUpdatedStore() { didSet { lastUpdatedTimeDidChange() } }
    /// Hears errors of the last-updated store (the header goes on; the time is kept in memory).
    public var errorHandler: ((any Error) -> Void)?
    /// The time of the last completed refresh, if any.
    public var lastUpdatedTime: Date? { lastUpdatedStore.date(forKey: lastUpdatedTimeKey) }

    private var pull: EdgePull { EdgePull(edge: .top) }

    /// The last-updated time changed (a refresh ended, or the key or store changed).
    open func lastUpdatedTimeDidChange() {}

    /// Where the header is while it shows (SmartRefreshLayout's Translate, FixedBehind and
    /// FixedFront spinner styles; easy_refresh's `position`).
    public enum Position: String, Sendable, CaseIterable {
        /// Above the content, moved with it: the pull pushes the content down (MJRefresh).
        case push
        /// Fixed at the top of the view behind the content, revealed as the content slides
        /// down.
        case behind
        /// Over the content, which stays where it is: the header slides down in front of it.
        case front
    }

    /// Where the header is while it shows; default `push`.
    public var position: Position = .push { didSet { applyPosition() } }

    /// In front, a header without a background of its own gets this one, so the rows it
    /// covers do not show through its texts.
    public static let defaultFrontBackground = Color.white
    private var gaveFrontBackground = false

    private func applyPosition() {
        zPosition = position == .front ? 1 : position == .behind ? -1 : 0
        if position == .front, backgroundColor == nil {
            backgroundColor = Self.defaultFrontBackground
            gaveFrontBackground = true
        } else if position != .front, gaveFrontBackground {
            backgroundColor = nil
            gaveFrontBackground = false
        }
        pinContent()
        placeComponent()
        setNeedsDisplay()
    }

    /// In front, the content is drawn where it rests without the header
    /// (`ScrollView.pinnedContentTop`).
    private func pinContent() {
        scrollView?.pinnedContentTop = position == .front ? -scrollViewOriginalInset.top : nil
    }

    /// Makes the scroll view bounce vertically, applies the maximum drag and the position.
    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        scrollView.alwaysBounceVertical = true
        applyMaxDrag()
        applyPosition()
    }

    /// Gives back what it set on the scroll view.
    open override func willDetach(from scrollView: ScrollView) {
        super.willDetach(from: scrollView)
        if maxDragDistance != nil { scrollView.maximumOverscroll.top = .infinity }
        scrollView.pinnedContentTop = nil
    }

    private func applyMaxDrag() {
        scrollView?.maximumOverscroll.top = maxDragDistance ?? .infinity
    }

    /// MJRefreshHeader.placeSubviews: y = −height − ignoredScrollViewContentInsetTop.
    /// Behind and in front, the header is placed by the offset: its top at the view's top
    /// (behind) or its bottom where the pull has reached (in front).
    func placeComponent() {
        let x = -(scrollView?.adjustedContentInset.left ?? 0)
        let width = scrollView?.frame.width ?? frame.width
        var y = -height
        if let sv = scrollView, position != .push {
            let top = scrollViewOriginalInset.top
            let revealed = -(sv.contentOffset.y + top)
            switch position {
            case .push: break
            case .behind: if revealed > 0 { y = sv.bounds.minY + top }
            case .front: y = max(revealed, 0) - height
            }
        }
        frame = Rect(x: x, y: y - ignoredScrollViewContentInsetTop, width: width, height: height)
        placeTwoLevelView()
    }

    override class func makeMachine() -> any RefreshMachine { PullMachine(role: .header, extent: defaultHeight) }

    override func makeSettings() -> RefreshSettings {
        var settings = settings(extent: height, trigger: triggerDistance)
        if twoLevelView != nil {
            settings.twoLevelTriggerDistance = effectiveTwoLevelTrigger
            settings.twoLevelOpenReveal = (scrollView?.frame.height ?? 0) + height
            settings.twoLevelCloseDistance = twoLevelCloseDistance
        }
        return settings
    }

    /// Follows the pull above the content.
    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        if position != .push { placeComponent() }
        send(.scrolled(pullSample(.top)))
    }

    /// Refreshes when the finger lifts past the trigger.
    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        sendPan(change.new)
    }

    override func perform(_ action: RefreshAction) {
        if pull.perform(action, on: self, extent: height) { return }
        switch action {
        case .followOffset: resetInset()
        case .openTwoLevel: slideTwoLevelOpen()
        case .settleTwoLevel: settleTwoLevel()
        case .notifyTwoLevel(let open):
            updateTwoLevelHint(open: open)
            placeTwoLevelView()
            twoLevelHandler?(open)
        case .tellFooter(let event):
            // A successful end resets the footer's no-more-data only when asked to (its own
            // machine knows whether that was said before this refresh began).
            if event == .headerRefreshSucceeded && !resetsFooterNoMoreDataOnEnd { return }
            scrollView?.footer?.send(event)
        case .stampLastUpdated: recordLastUpdated()
        case .enter, .setPullingPercent, .fadeIn, .open, .close, .startTimer, .cancelTimer, .notifyState,
             .runRefreshingAction, .runEndCompletion:
            super.perform(action)
        }
    }

    // MARK: The second floor (SmartRefreshLayout's TwoLevelHeader, pull_to_refresh's twoLevel)

    /// The page a pull past `twoLevelTriggerDistance` opens over the whole screen; nil: no
    /// second floor. It sits above the header (its bottom on the header's top edge), so the
    /// pull reveals it.
    public var twoLevelView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let twoLevelView {
                addSubview(twoLevelView)
                // The way back, over the page's bottom edge.
                addSubview(twoLevelHint)
                addSubview(twoLevelHandle)
            } else {
                twoLevelHint.removeFromSuperview()
                twoLevelHandle.removeFromSuperview()
            }
            updateTwoLevelHint(open: state == .twoLevel)
            placeTwoLevelView()
            settingsDidChange()
        }
    }
    /// The open second floor's way back, at its bottom edge: "Push up to go back" in the
    /// localizer's language, white on a dark pill so it reads over any picture.
    public let twoLevelHint: Label = {
        let label = Label()
        label.font = .system(13)
        label.textColor = .white
        label.alignment = .center
        label.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 140)
        label.isUserInteractionEnabled = false
        return label
    }()
    /// A grabber over the hint (a sheet's handle), saying the page can be pushed.
    public let twoLevelHandle: View = {
        let handle = View()
        handle.backgroundColor = Color(red: 255, green: 255, blue: 255, alpha: 200)
        handle.isUserInteractionEnabled = false
        return handle
    }()
    /// The hint's height and the space under it, points.
    static let hintHeight: Double = 24, hintGap: Double = 14

    /// The hint shows while the second floor is open, in the current language.
    private func updateTwoLevelHint(open: Bool) {
        twoLevelHint.text = localizer.text(.twoLevelBackHint)
        twoLevelHint.isHidden = !open || twoLevelView == nil
        twoLevelHandle.isHidden = twoLevelHint.isHidden
    }

    /// The hint follows the language.
    open override func i18nDidChange() {
        super.i18nDidChange()
        updateTwoLevelHint(open: state == .twoLevel)
    }

    /// Touches reach the open second floor, a screen above the header's bounds.
    open override var touchArea: Rect {
        guard let page = twoLevelView, state == .twoLevel else { return bounds }
        return bounds.union(page.frame)
    }
    /// Pull distance that arms the second floor, points; nil: 2.5 times the trigger distance
    /// (SmartRefreshLayout's `srlFloorRage` default).
    public var twoLevelTriggerDistance: Double? { didSet { settingsDidChange() } }
    /// How far a push up must move the open second floor before releasing closes it, points.
    public var twoLevelCloseDistance: Double = 60 { didSet { settingsDidChange() } }
    /// Hears the second floor opening and closing.
    public var twoLevelHandler: ((_ open: Bool) -> Void)?

    var effectiveTwoLevelTrigger: Double { twoLevelTriggerDistance ?? 2.5 * (triggerDistance ?? height) }

    private func placeTwoLevelView() {
        guard let twoLevelView else { return }
        let page = scrollView.map { Size(width: $0.frame.width, height: $0.frame.height) } ?? Size(width: frame.width, height: frame.height)
        twoLevelView.frame = Rect(x: 0, y: -page.height, width: page.width, height: page.height)
        let width = min(page.width - 32, (twoLevelHint.textWidth + 28).rounded(.up))
        twoLevelHint.frame = Rect(x: ((page.width - width) / 2).rounded(.down), y: -Self.hintGap - Self.hintHeight,
                                  width: width, height: Self.hintHeight)
        twoLevelHint.cornerRadius = Self.hintHeight / 2
        twoLevelHandle.frame = Rect(x: (page.width / 2 - 18).rounded(.down), y: twoLevelHint.frame.minY - 11, width: 36, height: 5)
        twoLevelHandle.cornerRadius = 2.5
    }

    /// The content's offset with the second floor open: the page (a screen above the
    /// header) fills the view, the header just below it.
    private var twoLevelOffset: Double {
        -(scrollViewOriginalInset.top + (scrollView?.frame.height ?? 0) + height)
    }

    /// Opens the second floor: the content slides down by a screen and the header. Returns false
    /// without a `twoLevelView`, while refreshing, or when already open.
    @discardableResult
    public func openTwoLevel() -> Bool {
        guard scrollView != nil else { return false }
        return send(.openTwoLevel)
    }

    /// Closes the second floor: the content slides back up. Returns false when it is not open.
    @discardableResult
    public func closeTwoLevel() -> Bool { send(.closeTwoLevel) }

    private func slideTwoLevelOpen() {
        guard let sv = scrollView else { return }
        placeTwoLevelView()
        sv.setComponentInset(EdgeInsets(top: sv.frame.height + height), for: self)
        let target = Point(x: sv.contentOffset.x, y: twoLevelOffset)
        let duration = ScrollView.scrollDuration(distance: target.y - sv.contentOffset.y, viewport: sv.frame.height,
                                                 base: fastAnimationDuration)
        if !sv.isDragging { sv.setContentOffset(target, duration: duration, curve: .easeInOut) }
    }

    /// A push up on the open second floor was not far enough: the page settles back open.
    private func settleTwoLevel() {
        guard let sv = scrollView else { return }
        sv.setContentOffset(Point(x: sv.contentOffset.x, y: twoLevelOffset), duration: fastAnimationDuration)
    }

    /// Keeps its own inset apart from the one the app set.
    open override func scrollViewContentInsetDidChange(_ change: Change<EdgeInsets>) {
        super.scrollViewContentInsetDidChange(change)
        if change.old.left != change.new.left || position != .push {
            pinContent()
            placeComponent()
        }
    }

    /// While open, the header's inset follows what is visible of it, between 0 and its height
    /// (MJRefresh's `resetInset`): sticky section headers must not float below a header the
    /// user has scrolled away (trap T3).
    private func resetInset() {
        guard let sv = scrollView else { return }
        let originalTop = scrollViewOriginalInset.top
        let top = min(max(-sv.contentOffset.y, originalTop), originalTop + height)
        sv.setComponentInset(EdgeInsets(top: top - originalTop), for: self)
    }

    /// Sets the last-updated time to now, as a successful refresh's end does: for a refresh the
    /// app made without the header (a silent one, on a timer), so the header's "Updated" line
    /// still tells when the data last came.
    public func stampLastUpdated() { recordLastUpdated() }

    private func recordLastUpdated() {
        guard let date = animator?.clock.date else { return }
        do {
            try lastUpdatedStore.setDate(date, forKey: lastUpdatedTimeKey)
        } catch {
            errorHandler?(error)
        }
        lastUpdatedTimeDidChange()
    }
}
