/// Loads more when the footer scrolls into view (MJRefreshAutoFooter). It stays in the
/// bottom inset while visible.
///
/// It fires at most `autoTriggerTimes` times per drag and re-arms on a new drag or a change
/// of the content size, never again on the next offset tick of the same fling (trap T1).
@MainActor
open class AutoFooter: RefreshFooter {
    /// Load when the footer comes into view (off: only taps and explicit calls load).
    public var automaticallyRefresh = true { didSet { settingsDidChange() } }
    /// Fraction of the footer that must be visible to trigger; 1 = fully. Negative values
    /// trigger before it shows (preloading).
    public var triggerAutomaticallyRefreshPercent: Double = 1
    /// Automatic loads allowed per drag; −1: unlimited. MJRefresh's default is 1.
    public var autoTriggerTimes = 1 { didSet { settingsDidChange() } }
    /// Also load on a pull-up release when the content is shorter than the view (MJ does).
    public var loadsWhenContentNotFull = true

    override class func makeMachine() -> any RefreshMachine {
        AutoFooterMachine(settings: RefreshSettings(extent: defaultHeight, triggerDistance: defaultHeight))
    }

    override func makeSettings() -> RefreshSettings {
        var settings = settings(extent: height, trigger: nil)
        settings.automaticallyRefresh = automaticallyRefresh
        settings.autoTriggerTimes = autoTriggerTimes
        return settings
    }

    override func hiddenDidChange() {
        // Hidden, it gives back its inset; a refresh under way ends (MJ's setHidden:).
        applyInset()
        if isHidden { send(.hidden) }
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

    /// Takes its inset in the scroll view.
    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        applyInset()
    }

    /// Arms the footer again when the content grows (a page came in).
    open override func scrollViewContentSizeDidChange(_ change: Change<Size>) {
        super.scrollViewContentSizeDidChange(change)
        send(.contentSizeChanged)
    }

    /// Loads when the footer comes far enough into view.
    open override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        guard frame.minY != 0, let sv = scrollView, isContentFull else { return }
        let inset = sv.adjustedContentInset
        let threshold = sv.contentSize.height - sv.frame.height + height * triggerAutomaticallyRefreshPercent
            + inset.bottom - height
        // Only while moving towards the end: not on the way back after a release.
        guard sv.contentOffset.y >= threshold, change.new.y > change.old.y else { return }
        send(.reachedEnd(blocked: blockedByHeader))
    }

    /// Arms the footer again at a new drag.
    open override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        guard let sv = scrollView else { return }
        switch change.new {
        case .began:
            send(.panBegan)
        case .ended:
            let inset = sv.adjustedContentInset
            let atEnd: Bool
            if !isContentFull {
                atEnd = loadsWhenContentNotFull && sv.contentOffset.y > -inset.top
            } else {
                atEnd = sv.contentOffset.y >= sv.contentSize.height + inset.bottom - sv.frame.height
            }
            if atEnd { send(.releasedAtEnd(blocked: blockedByHeader)) }
        case .possible, .changed, .cancelled, .failed:
            break
        }
    }

    /// A tap on the footer's text loads, whatever the drag count (MJ PR #1529).
    func beginRefreshingFromTap() { send(.tapped) }
}
