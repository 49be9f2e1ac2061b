import PanelGestures

/// Where one pan goes: the innermost scroll view under the finger that can move in the
/// direction the pan began in, and the scroll view enclosing it on the same axis, which takes
/// what the inner one cannot (its overscroll). Android's nested scrolling, reduced to two
/// levels: the inner view moves until its edge, then the outer one moves (and rubber-bands,
/// and pulls its refresh header); moving back, the outer one gives its share back first.
@MainActor
final class PanRoute {
    let target: ScrollView
    let outer: ScrollView?
    let axis: Axis

    /// The translation each view has been given, px along `axis`.
    private var innerShare = 0.0
    private var outerShare = 0.0
    /// The cross-axis translation, all the target's.
    private var cross = 0.0
    private var last = 0.0
    private var outerBegan = false
    /// Who moved with the last movement: that one gets the release velocity.
    private var outerMovedLast = false

    /// - Parameters: `chain` holds the scroll views under the finger, innermost first;
    ///   `movement` the movement that passed the slop.
    init?(chain: [ScrollView], movement: Point) {
        let axis: Axis = abs(movement.x) > abs(movement.y) ? .horizontal : .vertical
        func can(_ view: ScrollView) -> Bool {
            axis == .vertical ? view.canScrollVertically : view.canScrollHorizontally
        }
        // The innermost that can move that way; else the innermost that moves at all (a
        // sideways swipe on a vertical list still moves it by its vertical part); else the
        // innermost (it hears the pan, as its components do, and stays).
        guard let index = chain.firstIndex(where: can) ?? chain.firstIndex(where: {
            $0.canScrollVertically || $0.canScrollHorizontally
        }) ?? (chain.isEmpty ? nil : 0) else { return nil }
        self.axis = axis
        target = chain[index]
        outer = can(target) ? chain[(index + 1)...].first(where: can) : nil
    }

    private func along(_ p: Point) -> Double { axis == .vertical ? p.y : p.x }
    private func across(_ p: Point) -> Double { axis == .vertical ? p.x : p.y }
    private func vector(along a: Double, across c: Double) -> Point {
        axis == .vertical ? Point(x: c, y: a) : Point(x: a, y: c)
    }

    /// How far the target can still move for a finger movement of `delta` before its edge.
    private func room(for delta: Double) -> Double {
        let offset = along(target.contentOffset)
        // Content moves against the finger.
        return delta > 0 ? max(0, offset - along(target.minimumContentOffset))
                         : max(0, along(target.maximumContentOffset) - offset)
    }

    /// Delivers `event` (the recognizer's, in screen px) split between the two views.
    func deliver(_ event: PanRecognizer.Event) {
        switch event.state {
        case .began:
            target.handlePan(event)
        case .changed:
            split(event)
            target.handlePan(with(event, along: innerShare, across: cross))
            if outerBegan, let outer { outer.handlePan(with(event, along: outerShare, across: 0)) }
        case .ended, .cancelled:
            split(event)
            let velocity = event.velocity
            var inner = with(event, along: innerShare, across: cross)
            inner.velocity = outerBegan && outerMovedLast ? vector(along: 0, across: across(velocity)) : velocity
            target.handlePan(inner)
            if outerBegan, let outer {
                var rest = with(event, along: outerShare, across: 0)
                rest.velocity = outerMovedLast ? vector(along: along(velocity), across: 0) : .zero
                outer.handlePan(rest)
            }
        case .possible, .failed:
            break
        }
    }

    /// Splits the new movement: back through the outer share first, then the target up to its
    /// edge, the rest to the outer view.
    private func split(_ event: PanRecognizer.Event) {
        let total = along(event.translation)
        cross = across(event.translation)
        var delta = total - last
        last = total
        guard delta != 0 else { return }
        guard let outer else {
            innerShare += delta
            outerMovedLast = false
            return
        }
        if outerShare != 0 && (delta > 0) != (outerShare > 0) {
            let back = delta > 0 ? min(delta, -outerShare) : max(delta, -outerShare)
            outerShare += back
            delta -= back
            outerMovedLast = true
        }
        guard delta != 0 else { return }
        let inner = delta > 0 ? min(delta, room(for: delta)) : max(delta, -room(for: delta))
        innerShare += inner
        let rest = delta - inner
        if rest != 0 {
            if !outerBegan {
                outerBegan = true
                outer.handlePan(with(event, state: .began, along: 0, across: 0))
            }
            outerShare += rest
            outerMovedLast = true
        } else {
            outerMovedLast = false
        }
    }

    private func with(_ event: PanRecognizer.Event, state: PanRecognizer.State? = nil,
                      along a: Double, across c: Double) -> PanRecognizer.Event {
        var e = event
        if let state { e.state = state }
        e.translation = vector(along: a, across: c)
        return e
    }
}
