/// Loads when the footer scrolls into view (MJRefreshAutoFooter): at most
/// `autoTriggerTimes` automatic loads per drag, re-armed by a new drag or a change of the
/// content size, never again on the next tick of the same fling (trap T1); taps and
/// `beginRefreshing()` do not count. It has no open or close animation: the footer keeps its
/// inset while visible.
///
/// States: idle, refreshing, willRefresh, finished, noMoreData, failed.
public struct AutoFooterMachine: RefreshMachine, Equatable {
    /// The state and what it waits for.
    public var core = RefreshCore()
    /// The trigger and the footer's options (`.configure` changes them).
    public var settings: RefreshSettings
    /// Automatic loads left in this drag.
    var triggersLeft: Int

    /// A machine in idle with `settings`.
    public init(settings: RefreshSettings) {
        self.settings = settings
        triggersLeft = settings.autoTriggerTimes
    }

    /// The auto footer's events (reaching the end, a tap, a drag, hiding); the rest as every machine.
    public mutating func handle(_ event: RefreshEvent) -> RefreshStep {
        var step = RefreshStep()
        switch event {
        case .reachedEnd(let blocked):
            if core.state == .idle && settings.automaticallyRefresh { trigger(blocked: blocked, &step) } else { step.accepted = false }
        case .releasedAtEnd(let blocked):
            if core.state == .idle { trigger(blocked: blocked, &step) } else { step.accepted = false }
        case .panBegan:
            triggersLeft = settings.autoTriggerTimes
            // A new drag retries a failed load: back to idle, so reaching the end loads again.
            if core.state == .failed { enter(.idle, &step) }
        case .contentSizeChanged:
            triggersLeft = settings.autoTriggerTimes
        case .configure(let new):
            // A new autoTriggerTimes re-arms the automatic loads.
            if new.autoTriggerTimes != settings.autoTriggerTimes { triggersLeft = new.autoTriggerTimes }
            _ = handleShared(event, &step)
        case .tapped:
            // A tap loads whatever the drag count (MJRefresh PR #1529).
            if core.state == .idle || core.state == .failed { begin(&step) } else { step.accepted = false }
        case .hidden:
            // Hidden, a load under way ends (MJRefresh's setHidden:).
            if core.isRefreshing { enter(.idle, &step) } else { step.accepted = false }
        case .scrolled, .panEnded, .panCancelled, .openTwoLevel, .closeTwoLevel:
            // The pull machines' events.
            step.accepted = false
        case .beginRefreshing, .endRefreshing, .endRefreshingWithNoMoreData, .resetNoMoreData, .displayed,
             .openFinished, .closeFinished, .timerFired, .headerBeganRefreshing, .headerRefreshSucceeded:
            _ = handleShared(event, &step)
        }
        return step
    }

    /// An automatic load: counts against `autoTriggerTimes`.
    private mutating func trigger(blocked: Bool, _ step: inout RefreshStep) {
        guard triggersLeft != 0, !blocked else {
            step.accepted = false
            return
        }
        if triggersLeft > 0 { triggersLeft -= 1 }
        begin(&step)
    }

    /// Refreshing runs the action at once (no open animation); settling runs the end completion.
    public mutating func didEnter(_ new: RefreshState, from old: RefreshState, _ step: inout RefreshStep) {
        switch new {
        case .refreshing:
            step.add(.runRefreshingAction(serial: core.serial))
        case .idle, .noMoreData, .failed:
            if old == .refreshing || old == .finished || old == .willRefresh {
                step.add(.setPullingPercent(0))
                step.add(.runEndCompletion)
            }
        case .pulling, .willRefresh, .finished, .releaseToTwoLevel, .twoLevel:
            break
        }
    }

    /// Nothing: only the header stamps and resets.
    public mutating func endAccepted(_ result: RefreshResult, opened: Bool, _ step: inout RefreshStep) {}
}
