/// What a component's state machine asks its view to do. The view performs a step's actions
/// in order; the callouts into the app's code (`notifyState`, `runRefreshingAction`,
/// `runEndCompletion`, `notifyTwoLevel`) always come after the step's other actions, so the
/// app sees a component that has already done what the step asked.
public enum RefreshAction: Sendable, Equatable {
    /// The state is now `state` (was `from`): update the texts, the arrow, the layout.
    case enter(RefreshState, from: RefreshState)
    /// Set `pullingPercent` (0 closed, 1 fully revealed).
    case setPullingPercent(Double)
    /// Fade the component in (alpha to 1 over the fast duration): a refresh begins.
    case fadeIn
    /// Give the component its inset and move the content to the open position; send
    /// `openFinished` when it is there (at once if a finger holds the content).
    case open
    /// Take the component's inset back to zero from its present value; send `closeFinished`
    /// when done.
    case close
    /// Header, open: its inset follows what is visible of it (trap T3).
    case followOffset
    /// Header: open the second floor (inset of a screen plus the header; slide the content).
    case openTwoLevel
    /// Header: the open second floor was pushed but not far enough; slide back open.
    case settleTwoLevel
    /// Start `timer`; send `timerFired(timer)` after `seconds`.
    case startTimer(RefreshTimer, seconds: Double)
    /// Stop `timer` if it runs.
    case cancelTimer(RefreshTimer)
    /// Header: send `event` to the footer's machine (the header's refresh began, or ended
    /// well: a no-more-data said before it began is reset, trap T6).
    case tellFooter(RefreshEvent)
    /// Header: a successful refresh that opened ended; stamp the last-updated time.
    case stampLastUpdated

    // MARK: Callouts (last in a step)

    /// Tell `stateDidChangeHandler`.
    case notifyState(from: RefreshState, to: RefreshState)
    /// Run the refreshing action and the begin completions of refresh number `serial`, if it
    /// is still on when the callout's turn comes (`RefreshMachine.mayRunRefreshingAction`).
    case runRefreshingAction(serial: Int)
    /// Run the end completions.
    case runEndCompletion
    /// Tell `twoLevelHandler` that the second floor opened or closed.
    case notifyTwoLevel(open: Bool)

    /// Whether this action calls into the app's code.
    public var isCallout: Bool {
        switch self {
        case .notifyState, .runRefreshingAction, .runEndCompletion, .notifyTwoLevel: return true
        case .enter, .setPullingPercent, .fadeIn, .open, .close, .followOffset, .openTwoLevel, .settleTwoLevel,
             .startTimer, .cancelTimer, .tellFooter, .stampLastUpdated: return false
        }
    }
}

/// The outcome of one event: whether it applied (the app's calls return this) and the
/// actions, callouts last.
public struct RefreshStep: Sendable, Equatable {
    /// False when the event did not apply (a call in a state that ignores it).
    public internal(set) var accepted = true
    private var effects: [RefreshAction] = []
    private var callouts: [RefreshAction] = []

    /// No actions.
    public init() {}

    /// The actions in the order the view performs them.
    public var actions: [RefreshAction] { effects + callouts }

    mutating func add(_ action: RefreshAction) {
        if action.isCallout { callouts.append(action) } else { effects.append(action) }
    }
}
