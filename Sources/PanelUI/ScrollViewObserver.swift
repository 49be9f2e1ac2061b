import PanelGestures

/// An observed change: the value before and after.
public struct Change<Value: Sendable>: Sendable {
    public let old: Value
    public let new: Value

    public init(old: Value, new: Value) {
        self.old = old
        self.new = new
    }
}

/// Receives a scroll view's changes: the typed replacement of MJRefresh's KVO on
/// `contentOffset`, `contentSize` and `panGestureRecognizer.state`.
///
/// Order of notifications (kept from UIKit as MJRefresh sees it):
/// - pan began: `isDragging` is already true, then panState (possible→began), then offsets;
/// - pan moves: contentOffset;
/// - pan ends: contentOffset for the last movement, `isDragging` becomes false, then panState
///   (→ended/cancelled), then the offsets of the deceleration or bounce on later ticks;
/// - contentSize and contentInset: when they are set.
/// Observers are called in the order they were added.
@MainActor
public protocol ScrollViewObserver: AnyObject {
    func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>)
    func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>)
    func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>)
    /// The summed inset changed (the user's or a component's). MJRefresh has no such
    /// notification, which is why its users' inset changes fought the controls (trap T7).
    func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>)
}

extension ScrollViewObserver {
    public func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>) {}
    public func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>) {}
    public func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>) {}
    public func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>) {}
}
