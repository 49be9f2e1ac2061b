/// The states of a refresh component: MJRefresh's five, plus `finished`, `failed` and the
/// header's second floor (`releaseToTwoLevel`, `twoLevel`).
public enum RefreshState: String, Sendable, Hashable, CaseIterable {
    /// At rest ("Pull down to refresh").
    case idle
    /// Pulled past the trigger; releasing starts a refresh.
    case pulling
    /// Loading; the component stays open.
    case refreshing
    /// `beginRefreshing()` came before the component was ever on a presented frame; the
    /// first frame turns it into `refreshing` (MJRefresh trap T8).
    case willRefresh
    /// Footers and trailers: everything is loaded; sticks until `resetNoMoreData()`.
    case noMoreData
    /// The refresh ended and its result (success or failure) is shown for
    /// `finishedDisplayDuration` seconds before the component closes (trap T10).
    case finished
    /// Footers: the last load failed, and the footer says so ("Could not load. Tap to
    /// retry.") until a tap, a new drag (auto footer) or a new pull (back footer) retries.
    /// Otherwise it behaves as `idle`.
    case failed
    /// Headers with a second floor (`twoLevelView`): pulled past `twoLevelTriggerDistance`;
    /// releasing opens the second floor ("Release to open").
    case releaseToTwoLevel
    /// Headers: the second floor is open over the whole screen until a push up or
    /// `closeTwoLevel()`.
    case twoLevel
}

/// How a refresh ended, shown in the `finished` state.
public enum RefreshResult: Sendable, Hashable {
    /// The load worked.
    case success
    /// The load failed; the message is for logs and status lines, not for the label.
    case failure(String?)

    /// Whether the load worked.
    public var isSuccess: Bool { if case .success = self { return true } else { return false } }
}
