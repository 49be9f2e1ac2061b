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
}

extension RefreshFooter: LoadMoreComponent {}
extension Trailer: LoadMoreComponent {}
