import PanelGestures

/// An observed change: the value before and after.
public struct Change<Value: Sendable>: Sendable {
    /// The value before.
    public let old: Value
    /// The value after.
    public let new: Value

    /// A change from `old` to `new`.
    public init(old: Value, new: Value) { (self.old, self.new) = (old, new) }
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
    /// The content offset changed.
    func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>)
    /// The content size changed.
    func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>)
    /// The pan's state changed.
    func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>)
    /// The summed inset changed (the user's or a component's). MJRefresh has no such
    /// notification, which is why its users' inset changes fought the controls (trap T7).
    func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>)
}

extension ScrollViewObserver {
    /// Does nothing.
    public func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>) {}
    /// Does nothing.
    public func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>) {}
    /// Does nothing.
    public func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>) {}
    /// Does nothing.
    public func scrollViewContentInsetDidChange(_ scrollView: ScrollView, _ change: Change<EdgeInsets>) {}
}
