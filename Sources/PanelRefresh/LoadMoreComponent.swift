/// A component that loads the next page and knows when there is none: the footers of a
/// vertical list, the trailer of a horizontal one. An app (the program's session) drives
/// either through this.
@MainActor
public protocol LoadMoreComponent: RefreshComponent {
    /// Ends the load (if one runs) and stays in `noMoreData` until `resetNoMoreData()`.
    @discardableResult
    func endRefreshingWithNoMoreData(completion: RefreshComponent.Action?) -> Bool
    /// Leaves `noMoreData` for `idle`.
    @discardableResult
    func resetNoMoreData() -> Bool
    /// Whether a failed load stays in `failed` until the user retries it.
    var keepsFailedState: Bool { get set }
}

extension LoadMoreComponent {
    /// Ends the load (if one runs) and stays in `noMoreData` until `resetNoMoreData()`,
    /// whatever else is called (trap T5). Returns false if already there.
    @discardableResult
    public func endRefreshingWithNoMoreData(completion: RefreshComponent.Action? = nil) -> Bool {
        // Said again while already there still counts as said now (the machine notes it): a
        // header refresh that ends in the same turn must not reset it.
        enterNoMoreData(completion: completion)
    }

    /// Leaves `noMoreData` for `idle`; returns false in any other state.
    @discardableResult
    public func resetNoMoreData() -> Bool { leaveNoMoreData() }
}

extension RefreshFooter: LoadMoreComponent {}
extension Trailer: LoadMoreComponent {}
