/// What a refresh under way knows: the state `refreshing` carries it.
public struct Refreshing: Sendable, Equatable {
    /// `open` was asked for and `openFinished` has not come yet: the action waits for it.
    public internal(set) var opening = false
    /// The minimum refreshing time is running.
    public internal(set) var holding = false
    /// An end accepted while the minimum refreshing time holds the component open.
    public internal(set) var pendingEnd: RefreshResult?
    /// No-more-data was said during the refresh: it settles in `noMoreData`, not `idle`.
    public internal(set) var endsInNoMoreData = false
}

/// A machine's state with the data that state needs (in the manner of swift-nio's state
/// machines, which hold a state's data in its case). The flat ``RefreshState`` that views and
/// observers see is `state`.
public enum RefreshPhase: Sendable, Equatable {
    /// At rest; `closing`: the close animation of the last refresh runs (its completion
    /// ends that refresh).
    case idle(closing: Bool)
    /// Armed; `closing` as in idle.
    case pulling(closing: Bool)
    /// Loading, with what the refresh under way knows.
    case refreshing(Refreshing)
    /// Asked to refresh before the first frame; `endsInNoMoreData`: no-more-data was said meanwhile.
    case willRefresh(endsInNoMoreData: Bool, closing: Bool)
    /// Showing the result; `endsInNoMoreData`: it settles in `noMoreData`.
    case finished(endsInNoMoreData: Bool)
    /// Everything loaded. `setBeforeHeaderRefresh`: said before the header's refresh under way
    /// began (a successful end of that refresh resets it, trap T6); `closing` as in idle.
    case noMoreData(setBeforeHeaderRefresh: Bool, closing: Bool)
    /// The last load failed; `closing` as in idle.
    case failed(closing: Bool)
    /// Armed for the second floor; `closing` as in idle.
    case releaseToTwoLevel(closing: Bool)
    /// The second floor is open.
    case twoLevel(closing: Bool)

    /// The state views and observers see.
    public var state: RefreshState {
        switch self {
        case .idle: .idle
        case .pulling: .pulling
        case .refreshing: .refreshing
        case .willRefresh: .willRefresh
        case .finished: .finished
        case .noMoreData: .noMoreData
        case .failed: .failed
        case .releaseToTwoLevel: .releaseToTwoLevel
        case .twoLevel: .twoLevel
        }
    }

    /// Whether the close animation of the last refresh runs.
    var closing: Bool {
        switch self {
        case .idle(let closing), .pulling(let closing), .failed(let closing), .releaseToTwoLevel(let closing),
             .twoLevel(let closing), .willRefresh(_, let closing), .noMoreData(_, let closing):
            closing
        case .refreshing, .finished:
            false
        }
    }

    /// Whether the refresh under way (or the one on show) ends in `noMoreData`.
    var endsInNoMoreData: Bool {
        switch self {
        case .refreshing(let refreshing): refreshing.endsInNoMoreData
        case .willRefresh(let ends, _), .finished(let ends): ends
        case .idle, .pulling, .noMoreData, .failed, .releaseToTwoLevel, .twoLevel: false
        }
    }

    /// The refresh under way, when the state is `refreshing`.
    var refreshing: Refreshing? {
        if case .refreshing(let refreshing) = self { return refreshing }
        return nil
    }
}

/// What every refresh machine keeps: its phase, and what lasts from one refresh to the next.
public struct RefreshCore: Sendable, Equatable {
    /// The state with its data.
    public internal(set) var phase: RefreshPhase = .idle(closing: false)
    /// How the last refresh ended.
    public internal(set) var lastResult: RefreshResult?
    /// Counts the refreshes begun; a refreshing action runs only for the refresh still on.
    public internal(set) var serial = 0

    /// The idle core.
    public init() {}

    /// The state shown.
    public var state: RefreshState { phase.state }
    /// An end accepted while the minimum refreshing time holds the component open.
    public var pendingEnd: RefreshResult? { phase.refreshing?.pendingEnd }
    /// `refreshing`, `willRefresh` and `finished`: the component is open (or about to be).
    public var isRefreshing: Bool { state == .refreshing || state == .willRefresh || state == .finished }

    /// Changes the refresh under way (nothing outside `refreshing`).
    mutating func updateRefreshing(_ change: (inout Refreshing) -> Void) {
        guard case .refreshing(var refreshing) = phase else { return }
        change(&refreshing)
        phase = .refreshing(refreshing)
    }

    /// Sets or clears the close animation's flag where the state has one.
    mutating func setClosing(_ closing: Bool) {
        switch phase {
        case .idle: phase = .idle(closing: closing)
        case .pulling: phase = .pulling(closing: closing)
        case .failed: phase = .failed(closing: closing)
        case .releaseToTwoLevel: phase = .releaseToTwoLevel(closing: closing)
        case .twoLevel: phase = .twoLevel(closing: closing)
        case .willRefresh(let ends, _): phase = .willRefresh(endsInNoMoreData: ends, closing: closing)
        case .noMoreData(let before, _): phase = .noMoreData(setBeforeHeaderRefresh: before, closing: closing)
        case .refreshing, .finished: break
        }
    }

    /// Marks the refresh under way (or about to be, or on show) as ending in `noMoreData`.
    mutating func markEndsInNoMoreData() {
        switch phase {
        case .refreshing: updateRefreshing { $0.endsInNoMoreData = true }
        case .willRefresh(_, let closing): phase = .willRefresh(endsInNoMoreData: true, closing: closing)
        case .finished: phase = .finished(endsInNoMoreData: true)
        case .idle, .pulling, .noMoreData, .failed, .releaseToTwoLevel, .twoLevel: break
        }
    }
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

    /// The only way the state changes: the new state's case gets the data it needs (the
    /// close in flight and the no-more-data said during a refresh carry over).
    mutating func enter(_ new: RefreshState, _ step: inout RefreshStep) {
        let old = core.phase
        guard new != old.state else { return }
        let closing = old.closing, ends = old.endsInNoMoreData
        switch new {
        case .idle: core.phase = .idle(closing: closing)
        case .pulling: core.phase = .pulling(closing: closing)
        case .refreshing:
            var refreshing = Refreshing()
            refreshing.endsInNoMoreData = ends
            refreshing.holding = settings.minimumRefreshingDuration > 0
            core.phase = .refreshing(refreshing)
        case .willRefresh: core.phase = .willRefresh(endsInNoMoreData: ends, closing: closing)
        case .finished: core.phase = .finished(endsInNoMoreData: ends)
        case .noMoreData: core.phase = .noMoreData(setBeforeHeaderRefresh: false, closing: closing)
        case .failed: core.phase = .failed(closing: closing)
        case .releaseToTwoLevel: core.phase = .releaseToTwoLevel(closing: closing)
        case .twoLevel: core.phase = .twoLevel(closing: closing)
        }
        if old.state == .finished { step.add(.cancelTimer(.resultDwell)) }
        if let leaving = old.refreshing, leaving.holding { step.add(.cancelTimer(.minimumRefreshing)) }
        if case .refreshing(let refreshing) = core.phase, refreshing.holding {
            step.add(.startTimer(.minimumRefreshing, seconds: settings.minimumRefreshingDuration))
        }
        step.add(.enter(new, from: old.state))
        step.add(.notifyState(from: old.state, to: new))
        didEnter(new, from: old.state, &step)
    }

    /// `beginRefreshing()` and every start by the user (release, automatic load, tap).
    mutating func begin(_ step: inout RefreshStep) {
        // A begin after an end the minimum time still holds: the later call wins, the
        // component stays open and the new refresh's action runs.
        if let refreshing = core.phase.refreshing, refreshing.pendingEnd != nil, !refreshing.endsInNoMoreData {
            core.updateRefreshing { $0.pendingEnd = nil }
            core.serial += 1
            if !refreshing.opening { step.add(.runRefreshingAction(serial: core.serial)) }
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
        if opened, core.phase.refreshing?.holding ?? false {
            core.updateRefreshing { $0.pendingEnd = result }
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
        if core.phase.endsInNoMoreData { return .noMoreData }
        if settings.keepsFailure, let result = core.lastResult, !result.isSuccess { return .failed }
        return .idle
    }

    mutating func noMoreData(_ step: inout RefreshStep) {
        switch core.phase {
        case .noMoreData(_, let closing):
            // Said again: said now, after any header refresh under way began.
            core.phase = .noMoreData(setBeforeHeaderRefresh: false, closing: closing)
            step.accepted = false
        case .releaseToTwoLevel, .twoLevel:
            step.accepted = false
        case .refreshing(let refreshing) where refreshing.pendingEnd != nil:
            core.markEndsInNoMoreData()
        case .refreshing, .willRefresh:
            core.markEndsInNoMoreData()
            end(.success, &step)
        case .finished:
            // The result on show stays for its time, then the component settles in noMoreData.
            core.markEndsInNoMoreData()
        case .idle, .pulling, .failed:
            enter(.noMoreData, &step)
        }
    }

    /// The header's refresh began: a no-more-data said before it may be reset by its success.
    mutating func headerBegan(_ step: inout RefreshStep) {
        guard case .noMoreData(_, let closing) = core.phase else {
            step.accepted = false
            return
        }
        core.phase = .noMoreData(setBeforeHeaderRefresh: true, closing: closing)
    }

    /// The header's refresh succeeded: a no-more-data said before it began is over (trap T6).
    mutating func headerSucceeded(_ step: inout RefreshStep) {
        guard case .noMoreData(true, _) = core.phase else {
            step.accepted = false
            return
        }
        enter(.idle, &step)
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
            guard core.phase.refreshing?.opening ?? false else { step.accepted = false; break }
            core.updateRefreshing { $0.opening = false }
            if mayRunRefreshingAction(serial: core.serial) { step.add(.runRefreshingAction(serial: core.serial)) }
        case .closeFinished:
            guard core.phase.closing else { step.accepted = false; break }
            core.setClosing(false)
            step.add(.setPullingPercent(0))
            step.add(.runEndCompletion)
        case .timerFired(.minimumRefreshing):
            guard let refreshing = core.phase.refreshing, refreshing.holding else { step.accepted = false; break }
            core.updateRefreshing { $0.holding = false }
            if refreshing.pendingEnd != nil { finish(&step) }
        case .timerFired(.resultDwell):
            if core.state == .finished { enter(stateAfterFinished, &step) } else { step.accepted = false }
        case .configure(let settings):
            self.settings = settings
        case .headerBeganRefreshing:
            headerBegan(&step)
        case .headerRefreshSucceeded:
            headerSucceeded(&step)
        case .scrolled, .panBegan, .panEnded, .panCancelled, .contentSizeChanged, .hidden, .tapped,
             .reachedEnd, .releasedAtEnd, .openTwoLevel, .closeTwoLevel:
            return false
        }
        return true
    }
}
