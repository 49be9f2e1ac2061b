/// What a component's state machine is told: the app's calls, what the scroll view did, and
/// the completions of the animations and timers the machine asked for. The view classes
/// measure the geometry (how far a component is revealed) and send these; the machines
/// decide.
public enum RefreshEvent: Sendable, Equatable {
    // MARK: The app's calls

    /// `beginRefreshing()`.
    case beginRefreshing
    /// `endRefreshing(result:)`.
    case endRefreshing(RefreshResult)
    /// `endRefreshingWithNoMoreData()` (footers, trailer).
    case endRefreshingWithNoMoreData
    /// `resetNoMoreData()` (footers, trailer).
    case resetNoMoreData
    /// `openTwoLevel()` (header with a second floor).
    case openTwoLevel
    /// `closeTwoLevel()`.
    case closeTwoLevel

    // MARK: The scroll view and the screen

    /// The component is about to be drawn (the first frame it is on turns `willRefresh` into
    /// `refreshing`, trap T8).
    case displayed
    /// The content moved; `PullSample` says where the pull stands.
    case scrolled(PullSample)
    /// A finger began to drag the content.
    case panBegan
    /// The finger lifted.
    case panEnded
    /// The pan was cancelled (device lost mid-drag).
    case panCancelled
    /// The content size changed (auto footer: re-arms its automatic loads).
    case contentSizeChanged
    /// The component's options changed (they reach the machine only this way; a new
    /// `autoTriggerTimes` re-arms the auto footer).
    case configure(RefreshSettings)
    /// Footers and the trailer: the header's refresh began (a no-more-data said before it is
    /// reset by its success).
    case headerBeganRefreshing
    /// Footers and the trailer: the header's refresh ended well.
    case headerRefreshSucceeded
    /// The component was hidden (auto footer: a load under way ends).
    case hidden
    /// A tap on the component (auto footer: load, also after a failure).
    case tapped
    /// Auto footer: the content moved towards its end past the footer's trigger line.
    /// `blocked`: the header refreshes and the footer must not load by itself (trap T1).
    case reachedEnd(blocked: Bool)
    /// Auto footer: the finger lifted where a release loads (at the end, or on short content).
    case releasedAtEnd(blocked: Bool)

    // MARK: Completions

    /// The open animation asked for by `RefreshAction.open` arrived (or was taken over by a
    /// finger): the refresh can start.
    case openFinished
    /// The close animation asked for by `RefreshAction.close` finished (not interrupted).
    case closeFinished
    /// A timer asked for by `RefreshAction.startTimer` fired.
    case timerFired(RefreshTimer)
}

/// Where a pull stands, measured by the component's view.
public struct PullSample: Sendable, Equatable {
    /// Points of the component revealed past its edge along the pull axis; zero or negative
    /// when the content is away from the edge.
    public var revealed: Double
    /// A finger is on the content.
    public var dragging: Bool
    /// Back footer: automatic starts wait because the header refreshes (trap T1).
    public var blocked: Bool

    /// How far the component shows (`revealed`, points), whether a finger is on the glass, and whether another component holds the list (`blocked`).
    public init(revealed: Double, dragging: Bool, blocked: Bool = false) {
        (self.revealed, self.dragging, self.blocked) = (revealed, dragging, blocked)
    }
}

/// The timers a machine can ask for.
public enum RefreshTimer: String, Sendable, Equatable, CaseIterable {
    /// `minimumRefreshingDuration`: an end that comes sooner waits for it.
    case minimumRefreshing
    /// `finishedDisplayDuration`: how long `finished` shows the result.
    case resultDwell
}
