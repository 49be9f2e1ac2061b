/// What every refresh machine keeps: the state and the bookkeeping of the refresh under way.
public struct RefreshCore: Sendable, Equatable {
    /// The state shown.
    public internal(set) var state: RefreshState = .idle
    /// How the last refresh ended.
    public internal(set) var lastResult: RefreshResult?
    /// An end accepted while the minimum refreshing time holds the component open.
    public internal(set) var pendingEnd: RefreshResult?
    /// Counts the refreshes begun; a refreshing action runs only for the refresh still on.
    public internal(set) var serial = 0
    /// Set by no-more-data during a refresh: it settles in `noMoreData`, not `idle`.
    var endsInNoMoreData = false
    /// The minimum refreshing time is running.
    var holding = false
    /// `open` was asked for and `openFinished` has not come yet.
    var awaitingOpen = false
    /// `close` was asked for and `closeFinished` has not come yet.
    var awaitingClose = false
    /// Auto footer: automatic loads left in this drag.
    var triggersLeft = 1
    /// Pull machines: the last revealed distance (the second floor's push is measured from it).
    var lastRevealed = 0.0

    /// The idle core.
    public init() {}

    /// `refreshing`, `willRefresh` and `finished`: the component is open (or about to be).
    public var isRefreshing: Bool { state == .refreshing || state == .willRefresh || state == .finished }
}

/// A component kind's behaviour as a value: events in, actions out (docs/state-machines.md).
/// `PullMachine` serves the header, the back footer and the trailer; `AutoFooterMachine` the
/// auto footer. The shared lifecycle (begin, end, the result dwell, the minimum time,
/// no-more-data) is in this protocol's extension.
public protocol RefreshMachine: Sendable {
    /// The state and what it waits for.
    var core: RefreshCore { get set }
    /// The trigger and the component's options.
    var settings: RefreshSettings { get set }
    /// Applies `event`; the returned step says whether it applied and what to do.
    mutating func handle(_ event: RefreshEvent) -> RefreshStep
    /// The kind's own reaction to entering `new` (open or close, run the action).
    mutating func didEnter(_ new: RefreshState, from old: RefreshState, _ step: inout RefreshStep)
    /// The kind's own reaction to an accepted end (the header stamps and resets).
    mutating func endAccepted(_ result: RefreshResult, opened: Bool, _ step: inout RefreshStep)
}

extension RefreshMachine {
    /// The state shown.
    public var state: RefreshState { core.state }

    /// Whether refresh `serial`'s action may still run: it is the refresh under way, it is
    /// open, and no end was accepted for it (an end during the opening wins, trap T4).
    public func mayRunRefreshingAction(serial: Int) -> Bool {
        core.state == .refreshing && core.pendingEnd == nil && core.serial == serial
    }

    /// The only way the state changes.
    mutating func enter(_ new: RefreshState, _ step: inout RefreshStep) {
        let old = core.state
        guard new != old else { return }
        core.state = new
        if new == .idle || new == .noMoreData { core.endsInNoMoreData = false }
        if old == .finished { step.add(.cancelTimer(.resultDwell)) }
        if old == .refreshing {
            if core.holding { step.add(.cancelTimer(.minimumRefreshing)) }
            core.holding = false
            core.pendingEnd = nil
            core.awaitingOpen = false
        }
        if new == .refreshing && settings.minimumRefreshingDuration > 0 {
            core.holding = true
            step.add(.startTimer(.minimumRefreshing, seconds: settings.minimumRefreshingDuration))
        }
        step.add(.enter(new, from: old))
        step.add(.notifyState(from: old, to: new))
        didEnter(new, from: old, &step)
    }

    /// `beginRefreshing()` and every start by the user (release, automatic load, tap).
    mutating func begin(_ step: inout RefreshStep) {
        // A begin after an end the minimum time still holds: the later call wins, the
        // component stays open and the new refresh's action runs.
        if core.state == .refreshing, core.pendingEnd != nil, !core.endsInNoMoreData {
            core.pendingEnd = nil
            core.serial += 1
            if !core.awaitingOpen { step.add(.runRefreshingAction(serial: core.serial)) }
            return
        }
        switch core.state {
        case .refreshing, .willRefresh, .finished, .noMoreData, .twoLevel:
            step.accepted = false
        case .idle, .pulling, .failed, .releaseToTwoLevel:
            core.serial += 1
            step.add(.fadeIn)
            step.add(.setPullingPercent(1))
            enter(settings.onPresentedScreen ? .refreshing : .willRefresh, &step)
        }
    }

    mutating func end(_ result: RefreshResult, _ step: inout RefreshStep) {
        guard core.state == .refreshing || core.state == .willRefresh, core.pendingEnd == nil else {
            step.accepted = false
            return
        }
        core.lastResult = result
        let opened = core.state == .refreshing
        endAccepted(result, opened: opened, &step)
        if opened && core.holding {
            core.pendingEnd = result
            return
        }
        finish(&step)
    }

    /// The refresh is over: show the result for its time, or settle at once.
    private mutating func finish(_ step: inout RefreshStep) {
        if settings.finishedDisplayDuration > 0 && core.state == .refreshing {
            enter(.finished, &step)
            step.add(.startTimer(.resultDwell, seconds: settings.finishedDisplayDuration))
        } else {
            enter(stateAfterFinished, &step)
        }
    }

    private var stateAfterFinished: RefreshState {
        if core.endsInNoMoreData { return .noMoreData }
        if settings.keepsFailure, let result = core.lastResult, !result.isSuccess { return .failed }
        return .idle
    }

    mutating func noMoreData(_ step: inout RefreshStep) {
        switch core.state {
        case .noMoreData, .releaseToTwoLevel, .twoLevel:
            step.accepted = false
        case .refreshing where core.pendingEnd != nil:
            core.endsInNoMoreData = true
        case .refreshing, .willRefresh:
            core.endsInNoMoreData = true
            end(.success, &step)
        case .finished:
            // The result on show stays for its time, then the component settles in noMoreData.
            core.endsInNoMoreData = true
        case .idle, .pulling, .failed:
            enter(.noMoreData, &step)
        }
    }

    mutating func resetNoMoreData(_ step: inout RefreshStep) {
        guard core.state == .noMoreData else {
            step.accepted = false
            return
        }
        enter(.idle, &step)
    }

    /// The events every kind treats alike; returns false for the kind's own.
    mutating func handleShared(_ event: RefreshEvent, _ step: inout RefreshStep) -> Bool {
        switch event {
        case .beginRefreshing: begin(&step)
        case .endRefreshing(let result): end(result, &step)
        case .endRefreshingWithNoMoreData: noMoreData(&step)
        case .resetNoMoreData: resetNoMoreData(&step)
        case .displayed:
            if core.state == .willRefresh { enter(.refreshing, &step) } else { step.accepted = false }
        case .openFinished:
            // A late completion (of an open an end or a new refresh took over) is ignored.
            guard core.awaitingOpen else { step.accepted = false; break }
            core.awaitingOpen = false
            if mayRunRefreshingAction(serial: core.serial) { step.add(.runRefreshingAction(serial: core.serial)) }
        case .closeFinished:
            guard core.awaitingClose else { step.accepted = false; break }
            core.awaitingClose = false
            step.add(.setPullingPercent(0))
            step.add(.runEndCompletion)
        case .timerFired(.minimumRefreshing):
            guard core.holding else { step.accepted = false; break }
            core.holding = false
            if core.state == .refreshing, core.pendingEnd != nil { finish(&step) }
        case .timerFired(.resultDwell):
            if core.state == .finished { enter(stateAfterFinished, &step) } else { step.accepted = false }
        default:
            return false
        }
        return true
    }
}
