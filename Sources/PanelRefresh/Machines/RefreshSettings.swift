/// The options a machine decides with, resolved by the component's view from its properties
/// before each event (so a machine driven alone is configured by setting these).
public struct RefreshSettings: Sendable, Equatable {
    /// The component's size along its pull axis, points (header and footer height, trailer
    /// width); `pullingPercent` is the revealed distance over this.
    public var extent: Double
    /// Revealed distance that arms a pull, points.
    public var triggerDistance: Double
    /// Seconds `finished` shows the result; 0 closes at once.
    public var finishedDisplayDuration: Double = 0
    /// Seconds the component stays `refreshing` at least; an end that comes sooner is
    /// accepted at once and takes effect when this is up (so a fast source does not flash
    /// the spinner). 0: an end takes effect at once.
    public var minimumRefreshingDuration: Double = 0
    /// Whether a failed refresh settles in `failed` (footers) instead of `idle`.
    public var keepsFailure = false
    /// Whether a frame has been presented on the component's screen: `beginRefreshing()`
    /// before that waits in `willRefresh` (trap T8).
    public var onPresentedScreen = true

    /// Header: revealed distance that arms the second floor, points; nil: no second floor.
    public var twoLevelTriggerDistance: Double?
    /// Header: the revealed distance with the second floor open (the page plus the header),
    /// points; a push up is measured from it.
    public var twoLevelOpenReveal: Double = 0
    /// Header: how far a push up must move the open second floor before a release closes it.
    public var twoLevelCloseDistance: Double = 60

    /// Auto footer: whether reaching the end loads by itself.
    public var automaticallyRefresh = true
    /// Auto footer: automatic loads per drag; −1 unlimited.
    public var autoTriggerTimes = 1

    /// Settings for a component `extent` points deep that arms at `triggerDistance` points of pull.
    public init(extent: Double, triggerDistance: Double) { (self.extent, self.triggerDistance) = (extent, triggerDistance) }
}
