/// Load more at the end of the content (MJRefreshFooter): the common part of the auto and
/// back footers.
@MainActor
open class RefreshFooter: RefreshComponent {
    /// MJRefreshFooterHeight: 44 points.
    public static let defaultHeight: Double = 44

    /// Height, points; also the trigger distance of the back footer.
    public var height: Double = RefreshFooter.defaultHeight { didSet { heightDidChange(from: oldValue); settingsDidChange() } }
    /// Back footer: pull distance past the end that arms it; nil: `height`. (The auto footer
    /// triggers by how much of it shows: `triggerAutomaticallyRefreshPercent`.)
    public var triggerDistance: Double? { didSet { settingsDidChange() } }
    /// Largest overscroll past the end, points; nil: the rubber band only.
    public var maxDragDistance: Double? { didSet { scrollView?.maximumOverscroll.bottom = maxDragDistance ?? .infinity } }
    /// Moves the footer down by this much, past a bottom inset the app keeps for itself.
    public var ignoredScrollViewContentInsetBottom: Double = 0 { didSet { placeComponent() } }
    /// Hide the footer while the list has no rows (trap T9).
    public var hidesWhenEmpty = false { didSet { applyHidingRules() } }
    /// Hide the footer while the content is shorter than the view (trap T9).
    public var hidesWhenContentNotFull = false { didSet { applyHidingRules() } }
    /// Let a pull or scroll start loading while the header refreshes (off: trap T1). An
    /// explicit `beginRefreshing()` always works.
    public var loadsWhileHeaderRefreshing = false

    /// A failed load leaves the footer in `failed` ("Could not load. Tap to retry.") until a
    /// tap, a new drag or pull, or `beginRefreshing()` retries it.
    public var keepsFailedState = true { didSet { settingsDidChange() } }

    /// Whether automatic triggers must hold back because the header refreshes.
    var blockedByHeader: Bool {
        !loadsWhileHeaderRefreshing && (scrollView?.header?.isRefreshing ?? false)
    }

    /// Whether the content fills the view (MJ: insetTop + contentHeight > viewHeight).
    var isContentFull: Bool {
        guard let sv = scrollView else { return false }
        return sv.adjustedContentInset.top + sv.contentSize.height > sv.frame.height
    }

    func heightDidChange(from old: Double) { placeComponent() }

    /// Puts the footer where it belongs; subclasses know where.
    func placeComponent() {}

    /// Makes the scroll view bounce vertically, applies the maximum drag, goes to the content's end.
    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        scrollView.alwaysBounceVertical = true
        scrollView.maximumOverscroll.bottom = maxDragDistance ?? .infinity
        placeComponent()
        applyHidingRules()
    }

    /// Gives back the maximum drag it set.
    open override func willDetach(from scrollView: ScrollView) {
        super.willDetach(from: scrollView)
        if maxDragDistance != nil { scrollView.maximumOverscroll.bottom = .infinity }
    }

    /// Moves to the end of the new content.
    open override func scrollViewContentSizeDidChange(_ change: Change<Size>) {
        super.scrollViewContentSizeDidChange(change)
        placeComponent()
        applyHidingRules()
    }

    /// Moves with the content's bottom inset.
    open override func scrollViewContentInsetDidChange(_ change: Change<EdgeInsets>) {
        super.scrollViewContentInsetDidChange(change)
        placeComponent()
    }

    /// The app's own `isHidden`, kept apart from what the hiding rules say: the footer shows
    /// only when neither hides it, and switching a rule off gives the app's value back.
    private var hiddenByApp = false
    private var hiddenByRules = false

    /// Hidden by the app, or by `hidesWhenEmpty` and `hidesWhenContentNotFull`.
    open override var isHidden: Bool {
        get { super.isHidden }
        set {
            hiddenByApp = newValue
            applyEffectiveHidden()
        }
    }

    private func applyEffectiveHidden() {
        let effective = hiddenByApp || hiddenByRules
        guard effective != super.isHidden else { return }
        super.isHidden = effective
        hiddenDidChange()
    }

    /// The footer was hidden or shown (by the app or a rule); subclasses adjust insets.
    func hiddenDidChange() {}

    /// Applies `hidesWhenEmpty` / `hidesWhenContentNotFull`; with both off the app decides.
    func applyHidingRules() {
        guard let sv = scrollView else { return }
        let empty = hidesWhenEmpty && sv.totalDataCount == 0
        let short = hidesWhenContentNotFull && !isContentFull
        hiddenByRules = empty || short
        applyEffectiveHidden()
    }
}
