import PanelGestures
import PanelPhysics

/// A view whose content is larger than itself, moved by pans and flings.
///
/// Dragging past an edge meets UIScrollView's rubber band; a release flings the content with
/// exponential friction; a fling or release past an edge springs back (`BouncingScrollSimulation`).
/// The user's `contentInset` and the refresh components' insets are kept apart and summed
/// (`adjustedContentInset`), so neither overwrites the other (MJRefresh trap T7).
@MainActor
open class ScrollView: View {
    private let ownAnimator: Animator

    /// A scroll view at `frame`.
    /// - Parameters:
    ///   - frame: where it is in its superview.
    ///   - animator: drives deceleration, bounces and animated offsets.
    public init(frame: Rect, animator: Animator) {
        self.ownAnimator = animator
        super.init(frame: frame)
    }

    /// Its own animator (given at init), for itself and its subviews.
    open override var animator: Animator? { ownAnimator }

    /// The offset the last frame was drawn with, snapped to pixels; nil before the first.
    var drawnOffset: Point?

    override func boundsOriginDidChange(from old: Point) {
        // The screen compares with `drawnOffset` at the next frame: it moves the pixels or
        // redraws the whole view.
        setNeedsFrame()
    }

    // MARK: Content

    /// Top-left of the visible area in content coordinates, points.
    public var contentOffset: Point {
        get { offset }
        set { setOffset(newValue) }
    }

    private var offset: Point = .zero

    /// While set (an offset, points), the content is drawn as if the offset never went below
    /// it: pulled past the top, the content stays where it is, and only the views that place
    /// themselves by `contentOffset` move (a header in front of the content). The offset
    /// itself, its rubber band and its observers are as without it.
    public var pinnedContentTop: Double? {
        didSet { if pinnedContentTop != oldValue { boundsOrigin = displayedOrigin(offset) } }
    }

    /// The origin the content is drawn with: the offset, held at `pinnedContentTop`.
    private func displayedOrigin(_ offset: Point) -> Point {
        guard let pin = pinnedContentTop, offset.y < pin else { return offset }
        return Point(x: offset.x, y: pin)
    }

    /// The size of the scrolled content, points.
    public var contentSize: Size = .zero {
        didSet {
            guard contentSize != oldValue else { return }
            setNeedsLayout()
            let change = Change(old: oldValue, new: contentSize)
            for observer in liveObservers { observer.scrollViewContentSizeDidChange(self, change) }
            extentsDidChange()
        }
    }

    /// The app's own inset around the content, points.
    public var contentInset: EdgeInsets = .zero {
        didSet { if contentInset != oldValue { insetDidChange(from: oldValue + componentInsetSum) } }
    }

    private var componentInsets: [(owner: ObjectIdentifier, inset: EdgeInsets)] = []

    /// Sets the inset a refresh component needs (its height while refreshing, say). The
    /// component's inset replaces its previous one; it is never added twice (trap T4).
    public func setComponentInset(_ inset: EdgeInsets, for owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        let old = adjustedContentInset
        if let index = componentInsets.firstIndex(where: { $0.owner == id }) {
            guard componentInsets[index].inset != inset else { return }
            componentInsets[index].inset = inset
        } else {
            guard inset != .zero else { return }
            componentInsets.append((id, inset))
        }
        insetDidChange(from: old)
    }

    /// The inset a component set, zero if none.
    public func componentInset(for owner: AnyObject) -> EdgeInsets {
        let id = ObjectIdentifier(owner)
        return componentInsets.first { $0.owner == id }?.inset ?? .zero
    }

    private var componentInsetSum: EdgeInsets { componentInsets.reduce(.zero) { $0 + $1.inset } }

    /// `contentInset` plus every component's inset: what limits scrolling.
    public var adjustedContentInset: EdgeInsets { contentInset + componentInsetSum }

    /// The adjusted inset without `owner`'s share: a component's "original inset".
    public func adjustedContentInset(excluding owner: AnyObject) -> EdgeInsets {
        let id = ObjectIdentifier(owner)
        return componentInsets.reduce(contentInset) { $1.owner == id ? $0 : $0 + $1.inset }
    }

    /// Rows (or items) shown; 0 for a plain scroll view (MJRefresh's `mj_totalDataCount`).
    open var totalDataCount: Int { 0 }

    // MARK: Behaviour

    /// Whether pans scroll the view.
    public var isScrollEnabled = true
    /// Whether the content can be dragged and flung past its edges.
    public var bounces = true
    /// Bounce vertically even when the content is not taller than the view (MJRefresh sets it).
    public var alwaysBounceVertical = false
    /// Whether it bounces across even when its content is not wider than it.
    public var alwaysBounceHorizontal = false
    /// How fast a fling slows down.
    public var decelerationRate: DecelerationRate = .normal
    /// Spring that brings the content back to an edge.
    public var bounceSpring: SpringDescription = .scrollBounce
    /// Rubber-band coefficient c (UIScrollView's 0.55).
    public var rubberBandCoefficient = RubberBand.uiScrollViewCoefficient
    /// Largest displayed overscroll per edge while dragging, points (a refresh component's
    /// max drag distance); infinite by default.
    public var maximumOverscroll = EdgeInsets(top: .infinity, left: .infinity, bottom: .infinity, right: .infinity)

    /// Whether a finger is moving the content.
    public private(set) var isDragging = false
    /// True while a fling or bounce moves the content.
    public private(set) var isDecelerating = false
    /// The state of the pan that moves it.
    public private(set) var panState: PanRecognizer.State = .possible

    /// Smallest offset on each axis: the content's top-left edge pulled to the inset.
    public var minimumContentOffset: Point {
        let inset = adjustedContentInset
        return Point(x: -inset.left, y: -inset.top)
    }

    /// Largest offset on each axis (never below the minimum).
    public var maximumContentOffset: Point {
        let inset = adjustedContentInset
        let minimum = minimumContentOffset
        return Point(x: max(contentSize.width + inset.right - frame.width, minimum.x),
                     y: max(contentSize.height + inset.bottom - frame.height, minimum.y))
    }

    /// Whether its content can move vertically (taller than it, or bouncing regardless).
    public var canScrollVertically: Bool {
        let inset = adjustedContentInset
        return isScrollEnabled && (alwaysBounceVertical || contentSize.height + inset.top + inset.bottom > frame.height)
    }

    /// Whether its content can move horizontally.
    public var canScrollHorizontally: Bool {
        let inset = adjustedContentInset
        return isScrollEnabled && (alwaysBounceHorizontal || contentSize.width + inset.left + inset.right > frame.width)
    }

    // MARK: Observers

    private struct WeakObserver { weak var value: (any ScrollViewObserver)? }
    private var observers: [WeakObserver] = []

    /// Adds an observer of offset, size and pan changes (held weakly).
    public func addObserver(_ observer: any ScrollViewObserver) {
        guard !observers.contains(where: { $0.value === observer }) else { return }
        observers.append(WeakObserver(value: observer))
    }

    /// Removes an observer.
    public func removeObserver(_ observer: any ScrollViewObserver) {
        observers.removeAll { $0.value == nil || $0.value === observer }
    }

    private var liveObservers: [any ScrollViewObserver] { observers.compactMap(\.value) }

    private func setOffset(_ offset: Point) {
        let old = self.offset
        guard offset != old else { return }
        self.offset = offset
        boundsOrigin = displayedOrigin(offset)
        setNeedsLayout()
        let change = Change(old: old, new: offset)
        for observer in liveObservers { observer.scrollViewContentOffsetDidChange(self, change) }
        showIndicators()
    }

    // MARK: Scroll indicators

    /// Whether the vertical bar shows while the content moves (UIScrollView's).
    public var showsVerticalScrollIndicator = true
    /// Whether the horizontal bar shows while the content moves.
    public var showsHorizontalScrollIndicator = true
    /// The bars, made at the first movement.
    public private(set) var verticalIndicator: ScrollIndicator?
    /// The horizontal bar.
    public private(set) var horizontalIndicator: ScrollIndicator?

    /// The content moved: each bar that applies shows at its place, and fades once it rests.
    private func showIndicators() {
        // Moved by a finger, a fling, a bounce or an animation; not by a plain assignment.
        guard isDragging || isDecelerating || isAnimatingOffset else { return }
        let vertical = showsVerticalScrollIndicator ? ScrollIndicator.frame(axis: .vertical, in: self, other: false) : nil
        let horizontal = showsHorizontalScrollIndicator ? ScrollIndicator.frame(axis: .horizontal, in: self, other: vertical != nil) : nil
        let verticalFrame = horizontal != nil && vertical != nil
            ? ScrollIndicator.frame(axis: .vertical, in: self, other: true) : vertical
        for (axis, frame) in [(Axis.vertical, verticalFrame), (.horizontal, horizontal)] {
            guard let frame else {
                (axis == .vertical ? verticalIndicator : horizontalIndicator)?.isHidden = true
                continue
            }
            let bar: ScrollIndicator
            if let existing = axis == .vertical ? verticalIndicator : horizontalIndicator {
                bar = existing
            } else {
                bar = ScrollIndicator(axis: axis)
                addSubview(bar)
                if axis == .vertical { verticalIndicator = bar } else { horizontalIndicator = bar }
            }
            bar.frame = frame
            bar.isHidden = false
            ownAnimator.cancel(AnimationKey(bar, "fade"))
            bar.alpha = 1
            scheduleFade(bar)
        }
    }

    /// Shown again at every movement: the fade starts once the content has rested
    /// `lingerSeconds` with no finger on it (a finger holding still keeps the bar).
    private func scheduleFade(_ bar: ScrollIndicator) {
        ownAnimator.schedule(AnimationKey(bar, "linger"), after: ScrollIndicator.lingerSeconds) { [weak self, weak bar] in
            guard let self, let bar, !self.isDragging else { return }
            self.ownAnimator.animate(AnimationKey(bar, "fade"), from: 1.0, to: 0.0, duration: ScrollIndicator.fadeSeconds,
                                     apply: { [weak bar] in bar?.alpha = $0 },
                                     completion: { [weak bar] finished in if finished { bar?.isHidden = true } })
        }
    }

    private func setPanState(_ state: PanRecognizer.State) {
        let old = panState
        guard state != old else { return }
        panState = state
        let change = Change(old: old, new: state)
        for observer in liveObservers { observer.scrollViewPanStateDidChange(self, change) }
    }

    private func insetDidChange(from old: EdgeInsets) {
        let new = adjustedContentInset
        guard new != old else { return }
        setNeedsLayout()
        let change = Change(old: old, new: new)
        for observer in liveObservers { observer.scrollViewContentInsetDidChange(self, change) }
        extentsDidChange()
    }

    // MARK: Dragging

    /// Offset the finger would have put the content at without the rubber band.
    private var dragOrigin: Point = .zero

    /// Applies a pan of the recognizer to the content.
    public func handlePan(_ event: PanRecognizer.Event) {
        switch event.state {
        case .began:
            stopMotion()
            isDragging = true
            dragOrigin = unbanded(contentOffset)
            setPanState(.began)
        case .changed:
            guard isDragging else { return }
            setPanState(.changed)
            setOffset(banded(dragOrigin - shown(event.translation)))
        case .ended, .cancelled:
            guard isDragging else { return }
            setOffset(banded(dragOrigin - shown(event.translation)))
            isDragging = false
            // The bars held while the finger rested fade from the lift (unless the content moves on).
            for bar in [verticalIndicator, horizontalIndicator].compactMap({ $0 }) where !bar.isHidden { scheduleFade(bar) }
            // Content moves against the finger.
            let velocity = event.state == .ended ? shown(event.velocity) * -1 : .zero
            startMotion(velocity: velocity)
            setPanState(event.state)
        case .possible, .failed:
            break
        }
    }

    /// A finger's movement across the glass as a movement of the laid-out content: mirrored
    /// across when the content is shown mirrored.
    private func shown(_ v: Point) -> Point { mirrorsSubviews ? Point(x: -v.x, y: v.y) : v }

    /// A finger came down: a running fling stops where it is (UIScrollView's catch).
    public func touchesBegan() {
        if isDecelerating { stopMotion() }
    }

    /// Every finger lifted without a pan: content left out of range goes back.
    public func touchesEnded() {
        if !isDragging && !isDecelerating && !isAnimatingOffset { startMotion(velocity: .zero) }
    }

    private func rubberBand(_ axis: Axis) -> RubberBand {
        RubberBand(coefficient: rubberBandCoefficient, dimension: axis == .vertical ? frame.height : frame.width)
    }

    /// Maps a finger-driven offset to the displayed one: rubber band past the edges, clamped
    /// to `maximumOverscroll`, pinned on an axis that cannot scroll.
    private func banded(_ virtual: Point) -> Point {
        let minimum = minimumContentOffset, maximum = maximumContentOffset
        let over = maximumOverscroll
        func axis(_ v: Double, _ lo: Double, _ hi: Double, _ current: Double, _ scrollable: Bool,
                  _ band: RubberBand, _ limitLow: Double, _ limitHigh: Double) -> Double {
            guard scrollable else { return current }
            if v < lo {
                guard bounces else { return lo }
                return lo - min(band.band(lo - v), limitLow)
            }
            if v > hi {
                guard bounces else { return hi }
                return hi + min(band.band(v - hi), limitHigh)
            }
            return v
        }
        return Point(
            x: axis(virtual.x, minimum.x, maximum.x, contentOffset.x, canScrollHorizontally,
                    rubberBand(.horizontal), over.left, over.right),
            y: axis(virtual.y, minimum.y, maximum.y, contentOffset.y, canScrollVertically,
                    rubberBand(.vertical), over.top, over.bottom))
    }

    /// The inverse of `banded` for a drag that starts on overscrolled content.
    private func unbanded(_ offset: Point) -> Point {
        let minimum = minimumContentOffset, maximum = maximumContentOffset
        func axis(_ v: Double, _ lo: Double, _ hi: Double, _ band: RubberBand) -> Double {
            if v < lo { return lo - min(band.distance(forOverscroll: lo - v), band.dimension * 10) }
            if v > hi { return hi + min(band.distance(forOverscroll: v - hi), band.dimension * 10) }
            return v
        }
        return Point(x: axis(offset.x, minimum.x, maximum.x, rubberBand(.horizontal)),
                     y: axis(offset.y, minimum.y, maximum.y, rubberBand(.vertical)))
    }

    // MARK: Deceleration and bounce

    private var motionKey: AnimationKey { AnimationKey(self, "motion") }
    private var offsetAnimationKey: AnimationKey { AnimationKey(self, "contentOffset") }
    /// Velocity of the running motion, points/s, for a restart when the extents change.
    private var motionVelocity: Point = .zero

    /// Whether `setContentOffset(_:duration:)` is animating.
    public var isAnimatingOffset: Bool { ownAnimator.isRunning(offsetAnimationKey) }

    /// Stops a fling, a bounce and an animated offset where they are.
    public func stopScrolling() { stopMotion() }

    private func stopMotion() {
        if ownAnimator.isRunning(motionKey) { ownAnimator.cancel(motionKey) }
        if ownAnimator.isRunning(offsetAnimationKey) { ownAnimator.cancel(offsetAnimationKey) }
        isDecelerating = false
        motionVelocity = .zero
    }

    /// Flings from the current offset with `velocity` (points/s), bouncing at the edges; a
    /// start out of range springs back. Does nothing when already at rest in range.
    private func startMotion(velocity: Point) {
        let minimum = minimumContentOffset, maximum = maximumContentOffset
        let tolerance = Tolerance.scroll(scale: screen?.scale ?? 1)
        let start = contentOffset
        func simulation(_ x: Double, _ v: Double, _ lo: Double, _ hi: Double, _ scrollable: Bool) -> BouncingScrollSimulation? {
            let inRange = x >= lo && x <= hi
            guard scrollable || !inRange else { return nil }
            if inRange && abs(v) < tolerance.velocity { return nil }
            return BouncingScrollSimulation(position: x, velocity: scrollable ? v : 0, leading: lo, trailing: hi,
                                            spring: bounceSpring, rate: decelerationRate, tolerance: tolerance)
        }
        let sx = simulation(start.x, velocity.x, minimum.x, maximum.x, canScrollHorizontally)
        let sy = simulation(start.y, velocity.y, minimum.y, maximum.y, canScrollVertically)
        guard sx != nil || sy != nil else {
            isDecelerating = false
            return
        }
        isDecelerating = true
        let clampToRange = !bounces
        ownAnimator.drive(motionKey, step: { [weak self] elapsed in
            guard let self else { return true }
            var p = start
            var v = Point.zero
            var done = true
            if let sx { p.x = sx.x(elapsed); v.x = sx.dx(elapsed); done = done && sx.isDone(elapsed) }
            if let sy { p.y = sy.x(elapsed); v.y = sy.dx(elapsed); done = done && sy.isDone(elapsed) }
            if clampToRange {
                // Without bounces the fling stops dead at an edge.
                let lo = self.minimumContentOffset, hi = self.maximumContentOffset
                let clamped = Point(x: min(max(p.x, lo.x), hi.x), y: min(max(p.y, lo.y), hi.y))
                if clamped != p { done = true }
                p = clamped
            }
            if done {
                // Land exactly on the edge a spring was bringing the content to.
                if let sx, sx.springStartTime != nil { p.x = min(max(p.x, sx.leading), sx.trailing) }
                if let sy, sy.springStartTime != nil { p.y = min(max(p.y, sy.leading), sy.trailing) }
                v = .zero
            }
            self.motionVelocity = v
            self.setOffset(p)
            return done
        }, completion: { [weak self] finished in
            guard let self, finished else { return }
            self.isDecelerating = false
            self.motionVelocity = .zero
        })
    }

    /// The scroll range changed (insets or content size): a running fling or bounce restarts
    /// from where it is with the velocity it has, so the content never jumps (trap T2).
    private func extentsDidChange() {
        guard isDecelerating, !isDragging else { return }
        startMotion(velocity: motionVelocity)
    }

    // MARK: Programmatic scrolling

    /// UIScrollView's `setContentOffset(_:animated:)` duration, seconds.
    public static let defaultScrollDuration: Double = 0.3

    /// Moves the content to `offset`, at once or over 0.3 s.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        setContentOffset(offset, duration: animated ? Self.defaultScrollDuration : 0)
    }

    /// Extra seconds per further screen of a long scroll, and the longest one (docs/physics.md):
    /// a jump across a long list in the time of a short one is not followable, a slow one
    /// keeps the user waiting.
    public static let scrollSecondsPerScreen: Double = 0.1
    /// The longest an animated scroll takes, seconds.
    public static let maxScrollDuration: Double = 0.8

    /// Seconds to scroll `distance` points in a viewport of `viewport` points: `base` for up to
    /// one screen, `scrollSecondsPerScreen` more for each further screen, at most
    /// `maxScrollDuration`; 0 stays 0 (animations switched off).
    public static func scrollDuration(distance: Double, viewport: Double, base: Double = defaultScrollDuration) -> Double {
        guard base > 0, distance.isFinite, viewport > 0 else { return max(base, 0) }
        let screens = max(abs(distance) / viewport - 1, 0)
        return min(base + screens * scrollSecondsPerScreen, max(maxScrollDuration, base))
    }

    /// Scrolls to the top of the content (its first row under the top inset), taking longer
    /// the further it is (`scrollDuration`).
    public func scrollToTop(animated: Bool, completion: ((Bool) -> Void)? = nil) {
        let target = Point(x: contentOffset.x, y: -adjustedContentInset.top)
        let duration = animated ? Self.scrollDuration(distance: contentOffset.y - target.y, viewport: frame.height) : 0
        setContentOffset(target, duration: duration, completion: completion)
    }

    /// Moves the content by `delta` points with no jump in what moves it: a drag under way goes
    /// on from the new place under the same finger, a fling or bounce restarts there with the
    /// velocity it had, an animated scroll stops where it is. For content whose start changed
    /// under the reader (rows added or removed above the visible ones, `ListView.reloadData(keeping:)`).
    public func shiftContent(by delta: Point) {
        guard delta != .zero, delta.x.isFinite, delta.y.isFinite else { return }
        dragOrigin += delta
        let velocity = isDecelerating ? motionVelocity : nil
        if ownAnimator.isRunning(motionKey) { ownAnimator.cancel(motionKey) }
        if ownAnimator.isRunning(offsetAnimationKey) { ownAnimator.cancel(offsetAnimationKey) }
        isDecelerating = false
        motionVelocity = .zero
        setOffset(contentOffset + delta)
        if let velocity, !isDragging { startMotion(velocity: velocity) }
    }

    /// Brings a resting offset back into the scroll range on both axes (after the content
    /// shrank under it); a drag, fling or animation in progress keeps the offset it owns.
    public func clampContentOffset() {
        guard !isDragging, !isDecelerating, !isAnimatingOffset else { return }
        let lo = minimumContentOffset, hi = maximumContentOffset
        let clamped = Point(x: min(max(contentOffset.x, lo.x), hi.x), y: min(max(contentOffset.y, lo.y), hi.y))
        if clamped != contentOffset { setOffset(clamped) }
    }

    /// Moves the content to `offset` over `duration` s from where it is now (its presented
    /// position, never a remembered one); stops a fling or bounce.
    public func setContentOffset(_ offset: Point, duration: Double, curve: AnimationCurve = .easeInOut,
                                 completion: ((Bool) -> Void)? = nil) {
        if ownAnimator.isRunning(motionKey) { ownAnimator.cancel(motionKey) }
        isDecelerating = false
        motionVelocity = .zero
        ownAnimator.animate(offsetAnimationKey, from: contentOffset, to: offset, duration: duration, curve: curve,
                            apply: { [weak self] in self?.setOffset($0) }, completion: completion)
    }
}
