import PanelGestures

/// A rectangle of the UI: geometry, appearance and children, no pixels.
///
/// PanelRender draws views from what they hold. A view records what changed since the last
/// frame as damaged rectangles, asks for layout with `setNeedsLayout()`, and may be told
/// before a frame that it is about to be shown (`willDisplay()`, the analogue of UIKit's
/// `drawRect:`, which MJRefresh uses to promote WillRefresh).
@MainActor
open class View {
    /// A view at `frame` (in its superview's coordinates).
    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    // MARK: Geometry

    /// Position and size in the superview's coordinates.
    public var frame: Rect {
        didSet {
            guard frame != oldValue else { return }
            superview?.setNeedsDisplay(extent(for: oldValue))
            superview?.setNeedsDisplay(extent(for: frame))
            guard frame.size != oldValue.size else { return }
            setNeedsLayout()
            resizeSubviews(by: Size(width: frame.width - oldValue.width, height: frame.height - oldValue.height))
        }
    }

    /// How the view's size follows its superview's (UIKit's autoresizing mask).
    public struct AutoresizingMask: OptionSet, Sendable {
        /// The mask's bits.
        public let rawValue: Int
        /// A mask from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The width grows and shrinks with the superview's; the margins stay.
        public static let flexibleWidth = AutoresizingMask(rawValue: 1)
        /// The height grows and shrinks with the superview's.
        public static let flexibleHeight = AutoresizingMask(rawValue: 2)
    }

    /// How it follows its superview's size changes.
    public var autoresizingMask: AutoresizingMask = []

    private func resizeSubviews(by delta: Size) {
        for view in subviews where !view.autoresizingMask.isEmpty {
            var f = view.frame
            if view.autoresizingMask.contains(.flexibleWidth) { f.size.width = max(0, f.width + delta.width) }
            if view.autoresizingMask.contains(.flexibleHeight) { f.size.height = max(0, f.height + delta.height) }
            view.frame = f
        }
    }

    /// Origin of the view's own coordinate space (a scroll view's content offset).
    public internal(set) var boundsOrigin: Point = .zero {
        didSet { if boundsOrigin != oldValue { boundsOriginDidChange(from: oldValue) } }
    }

    /// The content moved under the view: redraw all of it. A scroll view instead lets the
    /// screen move its pixels and redraw only what comes into view.
    func boundsOriginDidChange(from old: Point) { setNeedsDisplay() }

    /// Asks for a frame without damaging anything (the screen works out what to redraw).
    func setNeedsFrame() {
        needsDisplay = true
        markAncestorsForDisplay()
    }

    /// Its own coordinate space: the scroll origin and its size.
    public var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }

    /// Everything the view draws, in its own coordinates: its bounds, or more (a rotated
    /// image reaches outside them). Damage and the renderer's culling use it.
    open var drawingExtent: Rect { bounds }

    /// `drawingExtent` in the superview's coordinates, for a frame of `frame`.
    func extent(for frame: Rect) -> Rect {
        let e = drawingExtent
        return Rect(x: frame.minX + e.minX - boundsOrigin.x, y: frame.minY + e.minY - boundsOrigin.y,
                    width: max(e.width, 0), height: max(e.height, 0)).union(frame)
    }

    /// `drawingExtent` in the superview's coordinates.
    /// The subviews that may draw into `area` (this view's bounds coordinates), in drawing
    /// order. All of them here; a list answers from its row geometry, so a small damage (a
    /// spinner) does not visit every row.
    open func subviews(reaching area: Rect) -> [View] { drawingOrder }

    /// Drawing order among siblings: higher draws later (in front), equal keeps the order of
    /// `subviews`. Points nowhere; only the order counts.
    public var zPosition: Double = 0 {
        didSet { if zPosition != oldValue { superview?.setNeedsDisplay() } }
    }

    /// `subviews` in drawing order (stable by `zPosition`).
    var drawingOrder: [View] {
        guard subviews.contains(where: { $0.zPosition != 0 }) else { return subviews }
        return subviews.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// The area it draws in its superview's coordinates (its frame, grown by what it draws outside).
    public var extentInSuperview: Rect { extent(for: frame) }

    // MARK: Appearance

    /// Opacity in [0, 1], multiplied with the superviews'.
    public var alpha: Double = 1 { didSet { if alpha != oldValue { setNeedsDisplay() } } }
    /// Hidden views are not drawn and take no taps. Showing or hiding a view lays out its
    /// superview again (a refresh component re-centres its arrow when a label hides).
    open var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            superview?.setNeedsDisplay(extentInSuperview)
            superview?.setNeedsLayout()
        }
    }
    /// The colour filled behind its content (nil: none).
    public var backgroundColor: Color? { didSet { if backgroundColor != oldValue { setNeedsDisplay() } } }
    /// Corner radius of the background, points.
    public var cornerRadius: Double = 0 { didSet { if cornerRadius != oldValue { setNeedsDisplay() } } }
    /// Whether subviews are cut at the bounds.
    public var clipsToBounds = false
    /// Whether taps reach this view (and refresh components react to scrolling).
    public var isUserInteractionEnabled = true

    // MARK: Tree

    // The tree's links and the frame pass's marks below are `@exclusivity(unchecked)`: the
    // frame pass reads them thousands of times a frame, and each read was a call into the
    // runtime's access set (20 % of a spinner frame, docs/benchmarks.md). Unchecked is safe
    // for these: only this module sets them (their setters are internal or private), each
    // write is one statement, and the mutations that run code while they write (Array's
    // insert, append, removeAll) run none that reads the same property (removeAll's closure
    // compares identities only), so no two accesses of one of them can ever overlap. The
    // properties an app sets (frame, alpha, isHidden, ...) keep the run-time check.

    /// The view it is in (held weakly).
    @exclusivity(unchecked) public private(set) weak var superview: View?
    /// The views in it, back to front.
    @exclusivity(unchecked) public private(set) var subviews: [View] = []
    /// Set on the root view of a screen.
    @exclusivity(unchecked) weak var hostScreen: Screen?

    /// The screen this view is shown on, if its root is a screen's root view.
    public var screen: Screen? {
        var view = self
        while let parent = view.superview { view = parent }
        return view.hostScreen
    }

    /// The animator that drives this view: the nearest one up the tree.
    open var animator: Animator? { superview?.animator ?? hostScreen?.animator }

    /// Adds `view` in front of the others.
    public func addSubview(_ view: View) { insertSubview(view, at: subviews.count) }

    /// Inserts `view` at `index` (0: at the back); it leaves its former superview.
    public func insertSubview(_ view: View, at index: Int) {
        defer { setNeedsDisplay(view.extentInSuperview) }
        if view.superview === self, let old = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: old)
            subviews.insert(view, at: min(index, subviews.count))
            return
        }
        view.removeFromSuperview()
        view.willMove(toSuperview: self)
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        // What the new subtree still needs is now below this view too.
        if view.needsLayout || view.subtreeNeedsLayout { view.markAncestorsForLayout() }
        if view.needsDisplay || view.subtreeNeedsDisplay { view.markAncestorsForDisplay() }
        view.didMoveToSuperview()
    }

    /// Leaves the superview.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        willMove(toSuperview: nil)
        parent.setNeedsDisplay(extentInSuperview)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        didMoveToSuperview()
    }

    /// Called before the view joins (or, with nil, leaves) a superview.
    open func willMove(toSuperview newSuperview: View?) {}
    /// Called after the view joined or left a superview.
    open func didMoveToSuperview() {}

    // MARK: Layout

    /// Whether layout must run before the next frame.
    @exclusivity(unchecked) public private(set) var needsLayout = true

    /// Whether a view below this one needs layout. The frame pass runs every frame, and
    /// walking every view of the tree each time was most of a spinner frame (benchmarks.md):
    /// with these marks it walks only the way down to what asked. Kept so that a marked
    /// view's ancestors are all marked; cleared by the pass on its way down.
    @exclusivity(unchecked) var subtreeNeedsLayout = false
    /// Whether a view below this one needs display (asked for a frame or has damage).
    @exclusivity(unchecked) var subtreeNeedsDisplay = false

    /// Marks the ancestors: something below them needs layout. Stops at the first one
    /// already marked, since all above it are.
    func markAncestorsForLayout() {
        var view = superview
        while let ancestor = view, !ancestor.subtreeNeedsLayout {
            ancestor.subtreeNeedsLayout = true
            view = ancestor.superview
        }
    }

    /// Marks the ancestors: something below them needs display.
    func markAncestorsForDisplay() {
        var view = superview
        while let ancestor = view, !ancestor.subtreeNeedsDisplay {
            ancestor.subtreeNeedsDisplay = true
            view = ancestor.superview
        }
    }

    /// Asks for layout before the next frame.
    public func setNeedsLayout() {
        needsLayout = true
        markAncestorsForLayout()
    }

    /// Runs `layoutSubviews()` here if asked for, then in the subviews that need it or have
    /// views below them that do.
    public func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        guard subtreeNeedsLayout else { return }
        subtreeNeedsLayout = false
        for view in subviews where view.needsLayout || view.subtreeNeedsLayout { view.layoutIfNeeded() }
    }

    /// Places the subviews. Called by the layout pass; never call it directly.
    open func layoutSubviews() {}

    // MARK: Display

    /// Rectangles changed since the last frame, in this view's coordinates.
    @exclusivity(unchecked) public private(set) var damagedRects: [Rect] = []
    /// Whether it must be drawn again.
    @exclusivity(unchecked) public private(set) var needsDisplay = true

    /// Marks the whole view for redraw: all it draws (`drawingExtent`).
    public func setNeedsDisplay() { setNeedsDisplay(drawingExtent) }

    /// Marks `rect` (own coordinates) for redraw.
    public func setNeedsDisplay(_ rect: Rect) {
        needsDisplay = true
        if !rect.isEmpty { damagedRects.append(rect) }
        markAncestorsForDisplay()
    }

    /// Called by the display pass before a frame in which this view asked to be redrawn.
    open func willDisplay() {}

    /// Takes the damage for the frame: returns it and clears it.
    func takeDamage() -> [Rect] {
        defer { damagedRects.removeAll(keepingCapacity: true); needsDisplay = false }
        return damagedRects
    }

    // MARK: Coordinates and hit testing

    /// Converts a point in this view's coordinates to `view`'s (nil: the screen's).
    public func convert(_ point: Point, to view: View?) -> Point {
        let onScreen = convertToRoot(point)
        guard let view else { return onScreen }
        return view.convertFromRoot(onScreen)
    }

    /// Converts a rectangle in this view's coordinates to `view`'s (nil: the screen's).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    private func convertToRoot(_ point: Point) -> Point {
        var p = point
        var view: View? = self
        while let v = view {
            p = p - v.boundsOrigin + (v.superview?.shownFrame(of: v).origin ?? v.frame.origin)
            view = v.superview
        }
        return p
    }

    private func convertFromRoot(_ point: Point) -> Point {
        var chain: [View] = []
        var view: View? = self
        while let v = view { chain.append(v); view = v.superview }
        var p = point
        for v in chain.reversed() { p = p - (v.superview?.shownFrame(of: v).origin ?? v.frame.origin) + v.boundsOrigin }
        return p
    }

    // MARK: Mirroring

    /// Whether this view shows its subviews reflected left to right about the middle of its
    /// bounds (a horizontal list in a right-to-left UI: its first row at the right). Their
    /// frames stay as laid out; where they are drawn, touched and converted to is mirrored;
    /// what is inside them is not (a cell's text still reads as written).
    open var mirrorsSubviews: Bool { false }

    /// `rect` (this view's bounds coordinates) reflected about the middle of the bounds whose
    /// origin is `origin` (default: `boundsOrigin`) when this view mirrors its subviews; the
    /// reflection is its own inverse, so it maps laid-out to shown and back.
    public func reflected(_ rect: Rect, origin: Point? = nil) -> Rect {
        guard mirrorsSubviews else { return rect }
        let twiceAxis = 2 * (origin ?? boundsOrigin).x + frame.width
        return Rect(x: twiceAxis - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// Where `subview` shows in this view's bounds coordinates: its frame, reflected when this
    /// view mirrors its subviews.
    public func shownFrame(of subview: View, origin: Point? = nil) -> Rect { reflected(subview.frame, origin: origin) }

    /// Where touches reach this view and its subviews (own coordinates): its bounds. A view
    /// whose subview lies outside them on purpose widens it (the header's second floor, a
    /// screen above the header).
    open var touchArea: Rect { bounds }

    /// The deepest visible, interactive view containing `point` (own coordinates).
    public func hitTest(_ point: Point) -> View? {
        guard !isHidden, alpha > 0.01, isUserInteractionEnabled, touchArea.contains(point) else { return nil }
        // Front to back: what is drawn last is touched first.
        for view in drawingOrder.reversed() {
            let local = point - shownFrame(of: view).origin + view.boundsOrigin
            if let hit = view.hitTest(local) { return hit }
        }
        // Inside the widened area but outside its own bounds, only a subview is hit.
        return bounds.contains(point) ? self : nil
    }

    /// A tap landed on this view at `point` (own coordinates). Return true if handled;
    /// otherwise the superview is asked.
    open func handleTap(at point: Point) -> Bool { false }

    /// Whether a finger resting on this view shows it pressed (a row, a button): the touch
    /// dispatcher calls `setPressed` on the nearest such view under the finger.
    open var showsPress: Bool { false }

    /// Draws the view's own content after its background and before its subviews (a chart,
    /// a gauge, a custom mark): nothing by default. Called for every frame whose damage
    /// reaches the view; call `setNeedsDisplay()` when what it draws changes. Coordinates are
    /// points in the view's own space; drawing is clipped to its bounds.
    open func draw(in context: any DrawingContext) {}

    /// Shows the view pressed or not (`showsPress`); nothing by default.
    open func setPressed(_ pressed: Bool) {}
}
