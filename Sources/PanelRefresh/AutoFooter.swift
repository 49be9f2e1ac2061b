/// Loads more when the footer scrolls into view (MJRefreshAutoFooter). It stays in the
/// bottom inset while visible.
///
/// It fires at most `autoTriggerTimes` times per drag and re-arms on a new drag or a change
/// of the content size, never again on the next offset tick of the same fling (trap T1).
@MainActor
open class AutoFooter: RefreshFooter {
    /// Load when the footer comes into view (off: only taps and explicit calls load).
    public var automaticallyRefresh = true
    /// Fraction of the footer that must be visible to trigger; 1 = fully. Negative values
    /// trigger before it shows (preloading).
    public var triggerAutomaticallyRefreshPercent: Double = 1
    /// Automatic loads allowed per drag; −1: unlimited. MJRefresh's default is 1.
    public var autoTriggerTimes = 1 { didSet { rearm() } }
    /// Also load on a pull-up release when the content is shorter than the view (MJ does).
    public var loadsWhenContentNotFull = true

    private var leftTriggerTimes = 1

    override func hiddenDidChange() {
        // Hidden, it gives back its inset; a refresh under way ends (MJ's setHidden:).
        applyInset()
        if isHidden && (state == .refreshing || state == .willRefresh || state == .finished) {
            setState(.idle)
        }
        placeComponent()
    }

    private func applyInset() {
        scrollView?.setComponentInset(EdgeInsets(bottom: isHidden ? 0 : height), for: self)
    }

    override func heightDidChange(from old: Double) {
        applyInset()
        super.heightDidChange(from: old)
    }

    /// MJRefreshAutoFooter: y = contentHeight + ignoredScrollViewContentInsetBottom.
    override func placeComponent() {
        guard let sv = scrollView else { return }
        frame = Rect(x: -sv.adjustedContentInset.left, y: sv.contentSize.height + ignoredScrollViewContentInsetBottom,
                     width: sv.frame.width, height: height)
    }

    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        applyInset()
    }

    private func rearm() { leftTriggerTimes = autoTriggerTimes }

    /// An automatic trigger: counts against `autoTriggerTimes`.
    private func trigger() {
        guard leftTriggerTimes != 0, !blockedByHeader else { return }
        if leftTriggerTimes > 0 { leftTriggerTimes -= 1 }
        beginRefreshing()
    }

    open override func scrollViewContentSizeDidChange(_ change: Change<Size>) {
        super.scrollViewContentSizeDidChange(change)
        rearm()
    }

    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        guard state == .idle, automaticallyRefresh, frame.minY != 0, let sv = scrollView, isContentFull else { return }
        let inset = sv.adjustedContentInset
        let threshold = sv.contentSize.height - sv.frame.height + height * triggerAutomaticallyRefreshPercent
            + inset.bottom - height
        // Only while moving towards the end: not on the way back after a release.
        guard sv.contentOffset.y >= threshold, change.new.y > change.old.y else { return }
        trigger()
    }

    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        guard let sv = scrollView else { return }
        switch change.new {
        case .began:
            rearm()
            // A new drag retries a failed load: back to idle, so reaching the end loads again.
            if state == .failed { setState(.idle) }
        case .ended:
            guard state == .idle else { return }
            let inset = sv.adjustedContentInset
            if !isContentFull {
                if loadsWhenContentNotFull && sv.contentOffset.y > -inset.top { trigger() }
            } else if sv.contentOffset.y >= sv.contentSize.height + inset.bottom - sv.frame.height {
                trigger()
            }
        case .possible, .changed, .cancelled, .failed:
            break
        }
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        switch state {
        case .refreshing:
            executeRefreshingCallback()
        case .idle, .noMoreData, .failed:
            if old == .refreshing || old == .finished || old == .willRefresh {
                pullingPercent = 0
                executeEndCompletion()
            }
        case .pulling, .willRefresh, .finished, .releaseToTwoLevel, .twoLevel:
            break
        }
    }

    /// A tap on the footer's text loads, whatever the drag count (MJ PR #1529).
    func beginRefreshingFromTap() {
        guard state == .idle || state == .failed else { return }
        beginRefreshing()
    }
}
