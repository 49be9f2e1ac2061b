import Foundation

/// The base of every refresh control: MJRefreshComponent's state machine, callbacks, timing
/// and subclass hooks, observing its scroll view through typed callbacks instead of KVO.
///
/// The traps (T1-T10) cited here and in the subclasses are in docs/traps.md.
///
/// State is read-only from outside (trap T5): it changes only through `beginRefreshing()`,
/// `endRefreshing()`, `endRefreshingWithNoMoreData()` and `resetNoMoreData()` (and the user's
/// pulls). These are synchronous on the main actor and idempotent: calling one twice does
/// what calling it once does, and a later call always wins over an earlier one (trap T4).
@MainActor
open class RefreshComponent: View, ScrollViewObserver {
    public typealias Action = () -> Void

    /// MJRefreshFastAnimationDuration: 0.25 s (snap to the refreshing position, arrow flip).
    public static let defaultFastAnimationDuration: Double = 0.25
    /// MJRefreshSlowAnimationDuration: 0.4 s (closing after the end, spinner fade).
    public static let defaultSlowAnimationDuration: Double = 0.4

    // MARK: State

    public private(set) var state: RefreshState = .idle
    /// True in `refreshing`, `willRefresh` and `finished` (the component is open).
    public var isRefreshing: Bool { state == .refreshing || state == .willRefresh || state == .finished }
    /// How the last refresh ended.
    public private(set) var lastResult: RefreshResult?

    /// The scroll view this component is attached to.
    public private(set) weak var scrollView: ScrollView?

    /// The scroll view's inset without this component's share, points.
    public var scrollViewOriginalInset: EdgeInsets { scrollView?.adjustedContentInset(excluding: self) ?? .zero }

    // MARK: Callbacks

    /// Runs when a refresh starts (once the component has opened).
    public var refreshingAction: Action?
    /// Runs after `refreshingAction`, on every refresh.
    public var beginRefreshingCompletion: Action?
    /// Runs when the closing animation starts.
    public var endRefreshingAnimationBegin: Action?
    /// Runs when the closing animation has finished.
    public var endRefreshingCompletion: Action?
    /// Hears every state change (traces, logs).
    public var stateDidChangeHandler: ((_ from: RefreshState, _ to: RefreshState) -> Void)?

    private var oneShotBeginCompletion: Action?
    private var oneShotEndCompletion: Action?

    // MARK: Appearance and timing

    /// Seconds; 0 disables the animation.
    public var fastAnimationDuration = RefreshComponent.defaultFastAnimationDuration
    /// Seconds; 0 disables the animation.
    public var slowAnimationDuration = RefreshComponent.defaultSlowAnimationDuration
    /// Seconds the `finished` state is shown after `endRefreshing(result:)`; 0 (the default,
    /// MJRefresh's behaviour) closes at once.
    public var finishedDisplayDuration: Double = 0

    /// How far the component is revealed: 0 closed, 1 fully (more when pulled further).
    public var pullingPercent: Double = 0 {
        didSet {
            guard pullingPercent != oldValue else { return }
            if !isRefreshing && automaticallyChangeAlpha { alpha = min(max(pullingPercent, 0), 1) }
            if state == .idle { gif?.update(for: self) }
            pullingPercentDidChange()
        }
    }

    /// Alpha follows `pullingPercent` while not refreshing.
    public var automaticallyChangeAlpha = false {
        didSet {
            guard !isRefreshing else { return }
            alpha = automaticallyChangeAlpha ? min(max(pullingPercent, 0), 1) : 1
        }
    }

    /// The texts' language and overrides.
    public var localizer: RefreshLocalizer {
        didSet {
            oldValue.removeObserver(self)
            localizer.addObserver(self)
            i18nDidChange()
        }
    }

    /// - Parameters:
    ///   - localizer: the texts (default: the shared one, switched at run time for every
    ///     component that uses it).
    ///   - refreshingAction: what a refresh does.
    public init(localizer: RefreshLocalizer = .shared, refreshingAction: Action? = nil) {
        self.localizer = localizer
        self.refreshingAction = refreshingAction
        super.init(frame: .zero)
        // Header and footers span the scroll view's width and follow it (MJRefresh's flexible
        // width); the trailer changes this to its height.
        autoresizingMask = .flexibleWidth
        localizer.addObserver(self)
        prepare()
    }

    /// Sets both animation durations to 0 (MJRefresh's `setAnimationDisabled`).
    @discardableResult
    public func setAnimationDisabled() -> Self {
        fastAnimationDuration = 0
        slowAnimationDuration = 0
        return self
    }

    // MARK: Control

    /// Opens the component and starts a refresh. Ignored (returns false) while one runs and
    /// in `noMoreData`. Before the first presented frame it waits in `willRefresh`.
    /// - Parameter completion: runs once, after `refreshingAction` of this refresh.
    @discardableResult
    public func beginRefreshing(completion: Action? = nil) -> Bool {
        guard !isRefreshing, state != .noMoreData, state != .twoLevel else { return false }
        oneShotBeginCompletion = completion
        // The previous refresh's close (if still running) will not complete.
        oneShotEndCompletion = nil
        animator?.animate(AnimationKey(self, "alpha"), from: alpha, to: 1, duration: fastAnimationDuration,
                          apply: { [weak self] in self?.alpha = $0 })
        pullingPercent = 1
        if isOnPresentedScreen {
            setState(.refreshing)
        } else {
            setState(.willRefresh)
            setNeedsDisplay()
        }
        return true
    }

    /// Ends the refresh: the component closes (after showing `finished` for
    /// `finishedDisplayDuration` when that is set). Ignored (returns false) when not refreshing.
    /// An end that comes while the component is still opening wins: it closes, and the
    /// refreshing action of that refresh does not run.
    @discardableResult
    public func endRefreshing(result: RefreshResult = .success, completion: Action? = nil) -> Bool {
        switch state {
        case .refreshing, .willRefresh:
            lastResult = result
            oneShotEndCompletion = completion
            refreshWillEnd(result: result, opened: state == .refreshing)
            if finishedDisplayDuration > 0 && state == .refreshing {
                setState(.finished)
                animator?.schedule(AnimationKey(self, "finished"), after: finishedDisplayDuration) { [weak self] in
                    guard let self, self.state == .finished else { return }
                    self.setState(self.stateAfterFinished)
                }
            } else {
                setState(stateAfterFinished)
            }
            return true
        case .idle, .pulling, .noMoreData, .finished, .failed, .releaseToTwoLevel, .twoLevel:
            return false
        }
    }

    /// An end was asked for: `opened` tells whether the refresh had opened (a `willRefresh`
    /// ended before the first frame had not). Called before the state changes.
    func refreshWillEnd(result: RefreshResult, opened: Bool) {}

    /// Set by `enterNoMoreData`: the refresh under way ends in `noMoreData`, not `idle`.
    private var endsInNoMoreData = false

    /// The state the component settles in after a refresh: a footer whose load failed stays
    /// `failed` (`keepsFailure`).
    private var stateAfterFinished: RefreshState {
        if endsInNoMoreData { return .noMoreData }
        if keepsFailure, let lastResult, !lastResult.isSuccess { return .failed }
        return .idle
    }

    /// Whether a failed refresh settles in `failed` (footers) or `idle` (headers, trailers).
    var keepsFailure: Bool { false }

    /// Footers and trailers: end (if refreshing) and stay in `noMoreData` until
    /// `leaveNoMoreData()`. Returns false if already there.
    func enterNoMoreData(completion: Action?) -> Bool {
        switch state {
        case .noMoreData:
            return false
        case .refreshing, .willRefresh:
            endsInNoMoreData = true
            return endRefreshing(result: .success, completion: completion)
        case .finished:
            // The result on show stays for its time, then the component settles in noMoreData.
            endsInNoMoreData = true
            return true
        case .idle, .pulling, .failed:
            setState(.noMoreData)
            completion?()
            return true
        case .releaseToTwoLevel, .twoLevel:
            // Headers only; footers and trailers never get there.
            return false
        }
    }

    /// Leaves `noMoreData` for `idle`; false in any other state.
    func leaveNoMoreData() -> Bool {
        guard state == .noMoreData else { return false }
        setState(.idle)
        return true
    }

    /// Whether a frame has been presented on this component's screen (MJRefresh: "has a window").
    public var isOnPresentedScreen: Bool { (screen?.framesPresented ?? 0) > 0 }

    /// The only way the state changes. Subclasses react in `stateDidChange(from:)`.
    func setState(_ new: RefreshState) {
        let old = state
        guard new != old else { return }
        state = new
        if new == .idle || new == .noMoreData { endsInNoMoreData = false }
        if old == .finished { animator?.cancel(AnimationKey(self, "finished")) }
        changingState += 1
        titles?.update(for: self)
        gif?.update(for: self)
        stateDidChange(from: old)
        setNeedsLayout()
        stateDidChangeHandler?(old, new)
        changingState -= 1
        if changingState == 0 && refreshingCallbackPending {
            refreshingCallbackPending = false
            executeRefreshingCallback()
        }
    }

    /// Nesting depth of `setState`; callbacks asked for inside wait until it is 0, so that
    /// observers always hear "→ refreshing" before the refreshing action runs.
    private var changingState = 0
    private var refreshingCallbackPending = false

    /// Runs the refresh's callbacks if it is still on (an end that came first wins).
    public func executeRefreshingCallback() {
        if changingState > 0 {
            refreshingCallbackPending = true
            return
        }
        guard state == .refreshing else { return }
        refreshingAction?()
        let once = oneShotBeginCompletion
        oneShotBeginCompletion = nil
        once?()
        beginRefreshingCompletion?()
    }

    /// Runs the end callbacks: subclasses call it when their closing animation finishes.
    public func executeEndCompletion() {
        let once = oneShotEndCompletion
        oneShotEndCompletion = nil
        once?()
        endRefreshingCompletion?()
    }

    // MARK: Subclass hooks (call super)

    /// Once, at init: create and configure subviews.
    open func prepare() {}

    /// Lay out the subviews (and the component's own geometry).
    open func placeSubviews() {}

    /// The state changed from `old` to `state`.
    open func stateDidChange(from old: RefreshState) {}

    open func scrollViewContentOffsetDidChange(_ change: Change<Point>) {}
    open func scrollViewContentSizeDidChange(_ change: Change<Size>) {}
    open func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {}
    open func scrollViewContentInsetDidChange(_ change: Change<EdgeInsets>) {}
    /// The language or a text changed: set the texts again (then lay out).
    open func i18nDidChange() {
        titles?.update(for: self)
        setNeedsLayout()
    }
    open func pullingPercentDidChange() {}
    /// The component joined `scrollView`.
    open func didAttach(to scrollView: ScrollView) {}
    /// The component is leaving `scrollView`.
    open func willDetach(from scrollView: ScrollView) {}

    /// The frames of the Gif variants (`GifAnimated`).
    var gif: GifFrames? { didSet { gif?.update(for: self) } }

    /// The state label's titles, for the variants that have one (`StateTitled`).
    var titles: StateTitles? { didSet { titles?.update(for: self) } }


    // MARK: Plumbing

    open override func layoutSubviews() {
        super.layoutSubviews()
        placeSubviews()
    }

    open override func willMove(toSuperview newSuperview: View?) {
        super.willMove(toSuperview: newSuperview)
        if let old = scrollView {
            willDetach(from: old)
            old.removeObserver(self)
            old.setComponentInset(.zero, for: self)
            scrollView = nil
        }
        guard let scrollView = newSuperview as? ScrollView else { return }
        self.scrollView = scrollView
        scrollView.addObserver(self)
        if autoresizingMask.contains(.flexibleWidth) {
            frame = Rect(x: -scrollView.adjustedContentInset.left, y: frame.minY,
                         width: scrollView.frame.width, height: frame.height)
        }
        didAttach(to: scrollView)
        setNeedsLayout()
    }

    open override func willDisplay() {
        super.willDisplay()
        // MJRefresh's drawRect: a refresh asked for before the first frame starts now.
        if state == .willRefresh { setState(.refreshing) }
    }

    /// MJRefresh ignores everything while user interaction is off, and offsets and pans
    /// while hidden.
    private var observesScrolling: Bool { isUserInteractionEnabled && !isHidden }

    public func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>) {
        if observesScrolling { scrollViewContentOffsetDidChange(change) }
    }

    public func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>) {
        if isUserInteractionEnabled { scrollViewContentSizeDidChange(change) }
    }

    public func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>) {
        if observesScrolling { scrollViewPanStateDidChange(change) }
    }

    public func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>) {
        if isUserInteractionEnabled { scrollViewContentInsetDidChange(change) }
    }
}
