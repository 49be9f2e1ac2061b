/// The edge a component is pulled from, and its geometry (MJRefreshHeader, MJRefreshBackFooter
/// and MJRefreshTrailer compute the same things on different edges; they share this).
@MainActor
enum PullEdge {
    /// Header: pulled down past the top; offsets below `happenOffset` reveal it.
    case top
    /// Back footer: pulled up past the end of the content.
    case bottom
    /// Trailer: pulled left past the right end.
    case right

    var axis: Axis { self == .right ? .horizontal : .vertical }

    func offset(_ p: Point) -> Double { axis == .vertical ? p.y : p.x }

    func replacing(_ p: Point, with value: Double) -> Point {
        axis == .vertical ? Point(x: p.x, y: value) : Point(x: value, y: p.y)
    }

    /// An inset with `value` on this edge only.
    func inset(_ value: Double) -> EdgeInsets {
        switch self {
        case .top: return EdgeInsets(top: value)
        case .bottom: return EdgeInsets(bottom: value)
        case .right: return EdgeInsets(right: value)
        }
    }

    func value(of inset: EdgeInsets) -> Double {
        switch self {
        case .top: return inset.top
        case .bottom: return inset.bottom
        case .right: return inset.right
        }
    }

    /// The original inset at the start of the axis (top or left).
    private func leading(_ inset: EdgeInsets) -> Double { axis == .vertical ? inset.top : inset.left }
    /// The original inset at the end of the axis (bottom or right).
    private func trailing(_ inset: EdgeInsets) -> Double { axis == .vertical ? inset.bottom : inset.right }

    private func contentLength(_ sv: ScrollView) -> Double {
        axis == .vertical ? sv.contentSize.height : sv.contentSize.width
    }

    private func viewLength(_ sv: ScrollView) -> Double { axis == .vertical ? sv.frame.height : sv.frame.width }

    /// How far the content reaches past the visible area (MJ's `heightForContentBreakView`);
    /// negative when it is shorter.
    func contentOverflow(_ sv: ScrollView, original: EdgeInsets) -> Double {
        contentLength(sv) - (viewLength(sv) - leading(original) - trailing(original))
    }

    /// The offset at which the component starts to show.
    func happenOffset(_ sv: ScrollView, original: EdgeInsets) -> Double {
        switch self {
        case .top: return -original.top
        case .bottom, .right:
            let overflow = contentOverflow(sv, original: original)
            return overflow > 0 ? overflow - leading(original) : -leading(original)
        }
    }

    /// How far past `happen` the offset is, towards this edge (positive = revealed).
    func reveal(_ offset: Double, happen: Double) -> Double {
        self == .top ? happen - offset : offset - happen
    }

    /// The offset at which the component is open by `extent`.
    func openOffset(happen: Double, extent: Double) -> Double {
        self == .top ? happen - extent : happen + extent
    }

    /// The inset the component needs while refreshing: its extent, plus, on the trailing
    /// edges, the gap left by content shorter than the view (so it sits right below it).
    func refreshingInset(_ sv: ScrollView, original: EdgeInsets, extent: Double) -> Double {
        guard self != .top else { return extent }
        let overflow = contentOverflow(sv, original: original)
        return overflow < 0 ? extent - overflow : extent
    }

    /// Position of a trailing component along its axis: after the content, or pinned below
    /// the visible area when the content is short (MJRefreshBackFooter / Trailer).
    func trailingPosition(_ sv: ScrollView, original: EdgeInsets, ignored: Double) -> Double {
        max(contentLength(sv) + ignored, viewLength(sv) - leading(original) - trailing(original) + ignored)
    }

    /// Brings the offset back into range on this edge's side after the inset shrank.
    func clampOffset(_ sv: ScrollView) {
        let current = offset(sv.contentOffset)
        switch self {
        case .top:
            let minimum = offset(sv.minimumContentOffset)
            if current < minimum { sv.contentOffset = replacing(sv.contentOffset, with: minimum) }
        case .bottom, .right:
            let maximum = offset(sv.maximumContentOffset)
            if current > maximum { sv.contentOffset = replacing(sv.contentOffset, with: maximum) }
        }
    }
}

extension RefreshComponent {
    /// Tells the machine of a pan's begin, end or cancel (the pull components' one source of
    /// pan events).
    func sendPan(_ state: PanRecognizer.State) {
        switch state {
        case .ended: send(.panEnded)
        case .cancelled: send(.panCancelled)
        case .began: send(.panBegan)
        case .possible, .changed, .failed: break
        }
    }

    /// Where a pull on `edge` stands, for the machine.
    func pullSample(_ edge: PullEdge, blocked: Bool = false) -> PullSample {
        guard let sv = scrollView else { return PullSample(revealed: 0, dragging: false, blocked: blocked) }
        let happen = edge.happenOffset(sv, original: scrollViewOriginalInset)
        let revealed = edge.reveal(edge.offset(sv.contentOffset), happen: happen)
        return PullSample(revealed: revealed, dragging: sv.isDragging, blocked: blocked)
    }
}

/// The geometry of opening and closing a component on `edge` (the machine decides when).
@MainActor
struct EdgePull {
    let edge: PullEdge

    /// Opens the component: sets its inset and moves the content to the open position from
    /// wherever it is, then tells the machine (`openFinished`).
    func open(_ c: RefreshComponent, extent: Double) {
        // A refresh that begins while the last one is still closing takes over from it.
        c.animator?.cancel(AnimationKey(c, "inset"))
        guard let sv = c.scrollView else {
            c.send(.openFinished)
            return
        }
        let original = c.scrollViewOriginalInset
        let happen = edge.happenOffset(sv, original: original)
        sv.setComponentInset(edge.inset(edge.refreshingInset(sv, original: original, extent: extent)), for: c)
        guard !sv.isDragging else {
            // The finger owns the offset; the rubber band already shows the component.
            c.send(.openFinished)
            return
        }
        let target = edge.replacing(sv.contentOffset, with: edge.openOffset(happen: happen, extent: extent))
        // From deep in a list the way to the open position takes longer than a short snap.
        let distance = edge.offset(target) - edge.offset(sv.contentOffset)
        let viewport = edge.offset(Point(x: sv.frame.width, y: sv.frame.height))
        let duration = ScrollView.scrollDuration(distance: distance, viewport: viewport, base: c.fastAnimationDuration)
        sv.setContentOffset(target, duration: duration, curve: .easeInOut) { [weak c] _ in
            // Runs even when a new touch interrupted the snap: the refresh is still on.
            c?.send(.openFinished)
        }
    }

    /// Closes the component: its inset goes back to zero from its present value (never by a
    /// delta, trap T4) and the content follows where it was beyond the new range; then tells
    /// the machine (`closeFinished`).
    func close(_ c: RefreshComponent) {
        guard let sv = c.scrollView, let animator = c.animator else {
            c.send(.closeFinished)
            return
        }
        // An end while the component was still opening wins over the opening.
        if sv.isAnimatingOffset { sv.stopScrolling() }
        let from = edge.value(of: sv.componentInset(for: c))
        let edge = self.edge
        c.endRefreshingAnimationBegin?()
        if c.automaticallyChangeAlpha {
            animator.animate(AnimationKey(c, "alpha"), from: c.alpha, to: 0, duration: c.slowAnimationDuration,
                             apply: { [weak c] in c?.alpha = $0 })
        }
        animator.animate(AnimationKey(c, "inset"), from: from, to: 0, duration: c.slowAnimationDuration,
                         apply: { [weak c, weak sv] value in
                             guard let c, let sv else { return }
                             sv.setComponentInset(edge.inset(value), for: c)
                             if !sv.isDragging { edge.clampOffset(sv) }
                         },
                         completion: { [weak c] finished in
                             // Interrupted by a new refresh: this close never completed.
                             guard let c, finished else { return }
                             c.send(.closeFinished)
                         })
    }

    /// Performs the open and close a pull machine asks for; false for other actions.
    func perform(_ action: RefreshAction, on c: RefreshComponent, extent: Double) -> Bool {
        switch action {
        case .open: open(c, extent: extent)
        case .close: close(c)
        case .enter, .setPullingPercent, .fadeIn, .followOffset, .openTwoLevel, .settleTwoLevel, .startTimer,
             .cancelTimer, .tellFooter, .stampLastUpdated, .notifyState, .runRefreshingAction, .runEndCompletion,
             .notifyTwoLevel: return false
        }
        return true
    }
}
