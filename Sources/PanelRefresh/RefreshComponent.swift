import FoundationEssentials
import Glibc

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
    /// Takes the list's theme (`ListView.theme`): its texts in the secondary colour, its
    /// arrows and spinners in the tint. A component added after the theme takes it when it is
    /// attached. Open: a custom component colours its own parts too, after calling `super`.
    open func apply(_ theme: ListTheme) { applyToSubviews(theme) }

    /// What a component calls to begin loading (the app's refresh or next page).
    public typealias Action = () -> Void

    /// MJRefreshFastAnimationDuration: 0.25 s (snap to the refreshing position, arrow flip).
    public static let defaultFastAnimationDuration: Double = 0.25
    /// MJRefreshSlowAnimationDuration: 0.4 s (closing after the end, spinner fade).
    public static let defaultSlowAnimationDuration: Double = 0.4

    // MARK: State

    /// The component kind's behaviour (docs/state-machines.md): this class and its subclasses
    /// only measure, send events and perform the actions it returns.
    var machine: any RefreshMachine

    /// The machine a component kind starts with; its settings reach it by `.configure` when
    /// they change (`settingsDidChange()`).
    class func makeMachine() -> any RefreshMachine {
        PullMachine(role: .header, settings: RefreshSettings(extent: 0, triggerDistance: 0))
    }

    /// The state shown: read-only; the control methods change it.
    public var state: RefreshState { machine.core.state }
    /// True in `refreshing`, `willRefresh` and `finished` (the component is open).
    public var isRefreshing: Bool { machine.core.isRefreshing }
    /// An end was accepted but the minimum refreshing time keeps the component open; the
    /// state leaves `refreshing` when it is up (the refreshing action of that refresh, if it
    /// had not run yet, does not run).
    public var isEnding: Bool { machine.core.pendingEnd != nil }
    /// How the last refresh ended.
    public var lastResult: RefreshResult? { machine.core.lastResult }

    /// The scroll view this component is attached to.
    public private(set) weak var scrollView: ScrollView?

    /// The scroll view's inset without this component's share, points.
    public var scrollViewOriginalInset: EdgeInsets { scrollView?.adjustedContentInset(excluding: self) ?? .zero }

    // MARK: Callbacks

    /// Runs when a refresh starts: once the component has opened (after the header's opening
    /// animation, not at the moment the finger lets go or `beginRefreshing()` is called), on
    /// the main actor. Start the load here and call `endRefreshing()` (or
    /// `endRefreshing(result: .failure(...))`) when it is done, even if it fails; an end that
    /// comes while the component is still opening closes it without running this.
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
    public var finishedDisplayDuration: Double = 0 { didSet { settingsDidChange() } }
    /// 0.3 s: the least time a refresh shows its spinner, so a source that answers at once
    /// does not flash it (SmartRefreshLayout's `finishRefresh()` keeps its animation at least
    /// 300 ms; docs/physics.md).
    public nonisolated static let defaultMinimumRefreshingDuration: Double = 0.3
    /// Seconds a refresh stays `refreshing` at least: `endRefreshing()` sooner is accepted at
    /// once (`isEnding`) and takes effect when this is up; a `beginRefreshing()` before then
    /// wins over that end. 0: an end takes effect at once (MJRefresh's behaviour).
    public var minimumRefreshingDuration = RefreshComponent.defaultMinimumRefreshingDuration { didSet { settingsDidChange() } }

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
        (self.localizer, self.refreshingAction) = (localizer, refreshingAction)
        machine = Self.makeMachine()
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
        // Whether a frame is on the glass yet decides refreshing or willRefresh (trap T8).
        settingsDidChange()
        return send(.beginRefreshing) { accepted in
            guard accepted else { return }
            self.oneShotBeginCompletion = completion
            // The previous refresh's close (if still running) will not complete.
            self.oneShotEndCompletion = nil
        }
    }

    /// Ends the refresh: the component closes (after showing `finished` for
    /// `finishedDisplayDuration` when that is set, and not before `minimumRefreshingDuration`
    /// since it opened). Ignored (returns false) when not refreshing or already ending.
    /// An end that comes while the component is still opening wins: it closes, and the
    /// refreshing action of that refresh does not run. A header's successful end also resets
    /// the footer's `noMoreData` to idle (trap T6: the new first page may have more after it)
    /// unless that was said after this refresh began, or `resetsFooterNoMoreDataOnEnd` is off.
    @discardableResult
    public func endRefreshing(result: RefreshResult = .success, completion: Action? = nil) -> Bool {
        send(.endRefreshing(result)) { accepted in
            if accepted { self.oneShotEndCompletion = completion }
        }
    }

    /// Footers and trailers: end (if refreshing) and stay in `noMoreData` until
    /// `leaveNoMoreData()`. Returns false if already there.
    func enterNoMoreData(completion: Action?) -> Bool {
        let closed = !isRefreshing
        var runNow = false
        let accepted = send(.endRefreshingWithNoMoreData) { accepted in
            guard accepted else { return }
            if closed {
                runNow = true
            } else {
                // Runs when the component has closed, after an end's own completion.
                let earlier = self.oneShotEndCompletion
                self.oneShotEndCompletion = completion.map { later in { earlier?(); later() } } ?? earlier
            }
        }
        if runNow { completion?() }
        return accepted
    }

    /// Leaves `noMoreData` for `idle`; false in any other state.
    func leaveNoMoreData() -> Bool { send(.resetNoMoreData) }

    /// Whether a frame has been presented on this component's screen (MJRefresh: "has a window").
    public var isOnPresentedScreen: Bool { (screen?.framesPresented ?? 0) > 0 }

    /// The settings the machine decides with, from this component's properties; subclasses
    /// add their extent, trigger distance and own options.
    func makeSettings() -> RefreshSettings {
        var settings = RefreshSettings(extent: 0, triggerDistance: 0)
        fillCommonSettings(&settings)
        return settings
    }

    /// Settings for a pull `extent` points deep that arms at `trigger` (nil: the extent), with
    /// this component's common options.
    func settings(extent: Double, trigger: Double?) -> RefreshSettings {
        var settings = RefreshSettings(extent: extent, triggerDistance: trigger ?? extent)
        fillCommonSettings(&settings)
        return settings
    }

    func fillCommonSettings(_ settings: inout RefreshSettings) {
        settings.finishedDisplayDuration = finishedDisplayDuration
        settings.minimumRefreshingDuration = minimumRefreshingDuration
        settings.onPresentedScreen = isOnPresentedScreen
        // The footers and the trailer keep a failure as their option says; a header never does.
        settings.keepsFailure = (self as? any LoadMoreComponent)?.keepsFailedState ?? false
    }

    /// Tells the machine the component's settings when they differ from what it has: every
    /// option's `didSet`, layout (sizes), a frame drawn (the screen presented), a pan.
    func settingsDidChange() {
        let settings = makeSettings()
        guard settings != machine.settings else { return }
        send(.configure(settings))
    }

    /// Feeds `event` to the machine and performs its actions. `prepare` sees whether it
    /// applied before anything is performed (the calls keep their completions there).
    @discardableResult
    func send(_ event: RefreshEvent, prepare: ((Bool) -> Void)? = nil) -> Bool {
        let step = machine.handle(event)
        prepare?(step.accepted)
        perform(step.actions)
        return step.accepted
    }

    /// Actions waiting their turn: an event sent while actions are performed (a completion
    /// that runs at once, an app's call from a callout) is decided at once but its actions
    /// run after the ones already queued, so observers hear the states in order.
    private var pendingActions: [RefreshAction] = []
    private var performing = false

    private func perform(_ actions: [RefreshAction]) {
        pendingActions.append(contentsOf: actions)
        guard !performing else { return }
        performing = true
        while !pendingActions.isEmpty {
            perform(pendingActions.removeFirst())
        }
        performing = false
    }

    /// Performs one action; subclasses perform their own (open, close, ...) and pass the
    /// rest here.
    func perform(_ action: RefreshAction) {
        switch action {
        case .enter(_, let old):
            titles?.update(for: self)
            gif?.update(for: self)
            // Begun and ended before it ever opened (an end before the first frame): the
            // begin's fade-in is undone, and alpha follows the pull again.
            if automaticallyChangeAlpha, old == .willRefresh, !isRefreshing {
                _ = animator?.cancel(AnimationKey(self, "alpha"))
                alpha = min(max(pullingPercent, 0), 1)
            }
            stateDidChange(from: old)
            setNeedsLayout()
        case .setPullingPercent(let percent):
            pullingPercent = percent
        case .fadeIn:
            animator?.animate(AnimationKey(self, "alpha"), from: alpha, to: 1, duration: fastAnimationDuration,
                              apply: { [weak self] in self?.alpha = $0 })
        case .startTimer(let timer, let seconds):
            guard let animator else {
                // Nothing measures time off a screen: the timer is up at once.
                send(.timerFired(timer))
                return
            }
            animator.schedule(AnimationKey(self, timer.rawValue), after: seconds) { [weak self] in
                self?.send(.timerFired(timer))
            }
        case .cancelTimer(let timer):
            animator?.cancel(AnimationKey(self, timer.rawValue))
        case .notifyState(let from, let to):
            stateDidChangeHandler?(from, to)
        case .runRefreshingAction(let serial):
            guard machine.mayRunRefreshingAction(serial: serial) else { return }
            refreshingAction?()
            let once = oneShotBeginCompletion
            oneShotBeginCompletion = nil
            once?()
            beginRefreshingCompletion?()
        case .runEndCompletion:
            executeEndCompletion()
        case .open, .close, .followOffset, .openTwoLevel, .settleTwoLevel, .tellFooter,
             .stampLastUpdated, .notifyTwoLevel:
            // Only the kinds whose machines ask for these perform them.
            break
        }
    }

    /// Runs the refresh's callbacks if it is still on (an end that came first wins).
    public func executeRefreshingCallback() {
        perform([.runRefreshingAction(serial: machine.core.serial)])
    }

    /// Runs the end callbacks (the machine asks for this when the component has closed).
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

    /// The content offset changed: subclasses follow the pull.
    open func scrollViewContentOffsetDidChange(_ change: Change<Point>) {}
    /// The content size changed: subclasses move to the content's end.
    open func scrollViewContentSizeDidChange(_ change: Change<Size>) {}
    /// The pan's state changed: subclasses refresh or re-arm at a lift or a new drag.
    open func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {}
    /// The content inset changed: footers and trailers move with it.
    open func scrollViewContentInsetDidChange(_ change: Change<EdgeInsets>) {}
    /// The language or a text changed: set the texts again (then lay out).
    open func i18nDidChange() {
        titles?.update(for: self)
        setNeedsLayout()
    }
    /// The pull's progress changed (`pullingPercent`): subclasses show it.
    open func pullingPercentDidChange() {}
    /// The component joined `scrollView`.
    open func didAttach(to scrollView: ScrollView) {}
    /// The component is leaving `scrollView`.
    open func willDetach(from scrollView: ScrollView) {}

    /// The frames of the Gif variants (`GifAnimated`).
    var gif: GifFrames? { didSet { gif?.update(for: self) } }

    /// The state label's titles, for the variants that have one (`StateTitled`).
    var titles: StateTitles? { didSet { titles?.update(for: self) } }
    /// How a Gif variant plays its frames; nil: not a Gif variant.
    var gifMode: GifFrames.Mode? { nil }


    // MARK: Plumbing

    /// Runs `placeSubviews()`, then tells the machine sizes that changed.
    open override func layoutSubviews() {
        super.layoutSubviews()
        placeSubviews()
        // Sizes feed the settings (the extent, the second floor's reveal).
        settingsDidChange()
    }

    /// Leaves the old scroll view (observer, inset) and joins the new one.
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
        if let theme = (scrollView as? ListView)?.theme { apply(theme) }
        setNeedsLayout()
        settingsDidChange()
    }

    /// Tells the machine the screen was presented; a refresh asked for before the first frame starts now.
    open override func willDisplay() {
        super.willDisplay()
        settingsDidChange()
        // MJRefresh's drawRect: a refresh asked for before the first frame starts now.
        if state == .willRefresh { send(.displayed) }
    }

    /// MJRefresh ignores everything while user interaction is off, and offsets and pans
    /// while hidden.
    private var observesScrolling: Bool { isUserInteractionEnabled && !isHidden }

    /// Passes the change to `scrollViewContentOffsetDidChange(_:)` while the component shows.
    public func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>) {
        if observesScrolling { scrollViewContentOffsetDidChange(change) }
    }

    /// Passes the change to `scrollViewContentSizeDidChange(_:)`.
    public func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>) {
        if isUserInteractionEnabled { scrollViewContentSizeDidChange(change) }
    }

    /// Passes the change to `scrollViewPanStateDidChange(_:)` while the component shows.
    public func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>) {
        // A finger on the glass: a frame was presented (a release may begin a refresh).
        settingsDidChange()
        if observesScrolling { scrollViewPanStateDidChange(change) }
    }

    /// Passes the change to `scrollViewContentInsetDidChange(_:)`.
    public func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>) {
        if isUserInteractionEnabled { scrollViewContentInsetDidChange(change) }
    }
}
