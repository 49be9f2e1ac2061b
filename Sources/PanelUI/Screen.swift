import PanelGestures
/// A scroll view's visible area whose pixels move: the content at `area` (screen points)
/// shifts by −`delta` (the change of the drawing offset).
public struct ScrollMove: Sendable, Hashable {
    /// The moved area, screen points.
    public var area: Rect
    /// How far its pixels move, points (the change of the drawing offset).
    public var delta: Point
}

/// The top of a view tree shown on a display: its size, its animator and text metrics, and
/// the frame pass that runs before each frame is drawn.
@MainActor
public final class Screen {
    /// Size in points (``resize(to:)`` changes it).
    public private(set) var size: Size
    /// Pixels per point (1 on most panels).
    public let scale: Double
    /// The top of the view tree, the screen's size.
    public let rootView: View
    /// The animations of the views on this screen.
    public let animator: Animator
    /// Measures text for layout (the renderer's fonts; an estimate without them).
    public var textMeasurer: any TextMeasurer
    /// Which way the UI reads (the program sets it from the language): the direction of texts
    /// with no strong letter of their own, and of lists whose `layoutDirection` is not set.
    public var layoutDirection: LayoutDirection = .leftToRight
    /// How far the whole picture is moved on the glass, points (burn-in care,
    /// `display.shift-every`): the root view sits there, what was left uncovered shows the
    /// renderer's clear colour, and touches are taken back by as much (``TouchDispatcher``).
    /// A change damages the whole screen.
    public var contentShift: Point = .zero {
        didSet {
            guard contentShift != oldValue else { return }
            rootView.frame = Rect(origin: contentShift, size: size)
            shiftMoved = true
        }
    }
    /// The shift changed since the last frame: it is drawn whole.
    private var shiftMoved = false
    /// Frames presented so far; components treat a screen with none as "not yet shown"
    /// (MJRefresh's view without a window).
    public private(set) var framesPresented = 0

    /// A screen of `size` points at `scale` pixels per point.
    public init(size: Size, scale: Double = 1, animator: Animator,
                textMeasurer: (any TextMeasurer)? = nil) {
        (self.size, self.scale, self.animator) = (size, scale, animator)
        self.textMeasurer = textMeasurer ?? EstimatedTextMeasurer()
        rootView = View(frame: Rect(origin: .zero, size: size))
        rootView.hostScreen = self
    }

    /// The screen at a new size (a window resized, a panel back in another mode): the root
    /// view takes it, its subviews follow their autoresizing masks and lay out again, and the
    /// whole screen is drawn again. Nothing is built anew: what the views hold stays.
    public func resize(to size: Size) {
        guard size != self.size else { return }
        self.size = size
        rootView.frame = Rect(origin: contentShift, size: size)
        rootView.setNeedsLayout()
        rootView.setNeedsDisplay()
    }

    /// Whether the next frame would show something new: an animation runs, or a view asked
    /// for layout or display.
    public var needsFrame: Bool {
        if shiftMoved || animator.nextWakeUp.map({ $0 <= animator.clock.now }) ?? false { return true }
        // The marks say it without a walk (View.subtreeNeedsLayout).
        return rootView.needsLayout || rootView.needsDisplay || rootView.subtreeNeedsLayout || rootView.subtreeNeedsDisplay
    }

    /// Runs the frame pass at `animator.clock.now`: animations, layout, `willDisplay()` on
    /// the visible views that asked for display, layout again if that changed something.
    /// Returns the damaged area in screen points, clipped to the screen (empty: nothing to
    /// draw). A scrolled scroll view is damaged whole.
    public func prepareFrame() -> [Rect] { prepareFrame(allowingMoves: false).damage }

    /// What a frame must draw: pixel moves first (a scroll view's content shifted), then the
    /// damage.
    public struct FrameUpdate: Sendable {
        /// Areas to draw again, screen points.
        public var damage: [Rect]
        /// Areas whose pixels only move, drawn before the damage.
        public var moves: [ScrollMove]
    }

    /// `prepareFrame()` for a renderer that can move pixels: a scroll view that scrolled by
    /// less than its size, with nothing drawn over it, becomes a move of its visible area and
    /// damage of the strip that came into view.
    public func prepareFrame(allowingMoves: Bool) -> FrameUpdate {
        animator.tick()
        rootView.layoutIfNeeded()
        notifyWillDisplay(rootView)
        rootView.layoutIfNeeded()
        var update = FrameUpdate(damage: [], moves: [])
        collectDamage(rootView, allowingMoves: allowingMoves && !shiftMoved, into: &update)
        if shiftMoved {
            // Everything moved, and the strip it left shows the clear colour.
            update.damage = [Rect(origin: .zero, size: size)]
            shiftMoved = false
        }
        return update
    }

    /// Where drawing puts a scroll view's content: its offset snapped to whole pixels, so
    /// moved pixels and freshly drawn ones line up exactly.
    public func drawingOffset(_ offset: Point) -> Point {
        Point(x: (offset.x * scale).rounded() / scale, y: (offset.y * scale).rounded() / scale)
    }

    /// The frame prepared last is on the panel.
    public func didPresentFrame() { framesPresented += 1 }

    private func notifyWillDisplay(_ view: View) {
        guard !view.isHidden else { return }
        if view.needsDisplay { view.willDisplay() }
        guard view.subtreeNeedsDisplay else { return }
        for subview in view.subviews where subview.needsDisplay || subview.subtreeNeedsDisplay { notifyWillDisplay(subview) }
    }

    private func collectDamage(_ view: View, allowingMoves: Bool, into update: inout FrameUpdate) {
        let bounds = Rect(origin: .zero, size: size)
        if let scroll = view as? ScrollView {
            scrollDamage(scroll, allowingMoves: allowingMoves, into: &update)
        }
        for rect in view.takeDamage() {
            // A mirroring view's damage is where it was laid out; it shows reflected.
            if let visible = view.convert(view.reflected(rect), to: nil).intersection(bounds) { update.damage.append(visible) }
        }
        // Only the way down to views with damage (View.subtreeNeedsDisplay): a scroll view
        // whose offset changed asked for a frame, so one that did not is skipped too.
        guard view.subtreeNeedsDisplay else { return }
        view.subtreeNeedsDisplay = false
        for subview in view.subviews where subview.needsDisplay || subview.subtreeNeedsDisplay {
            collectDamage(subview, allowingMoves: allowingMoves, into: &update)
        }
    }

    private func scrollDamage(_ scroll: ScrollView, allowingMoves: Bool, into update: inout FrameUpdate) {
        let offset = drawingOffset(scroll.boundsOrigin)
        defer { scroll.drawnOffset = offset }
        guard let drawn = scroll.drawnOffset, drawn != offset else { return }
        guard let visible = scroll.superview.map({ $0.convert(scroll.frame, to: nil) })?
            .intersection(Rect(origin: .zero, size: size)) else { return }
        // A mirrored list's content moves the other way across the glass.
        let delta = scroll.mirrorsSubviews ? Point(x: drawn.x - offset.x, y: offset.y - drawn.y) : offset - drawn
        guard allowingMoves, !scroll.isHidden, abs(delta.x) < visible.width, abs(delta.y) < visible.height,
              !isCovered(scroll, in: visible) else {
            update.damage.append(visible)
            return
        }
        update.moves.append(ScrollMove(area: visible, delta: delta))
        if delta.y > 0 {
            update.damage.append(Rect(x: visible.minX, y: visible.maxY - delta.y, width: visible.width, height: delta.y))
        } else if delta.y < 0 {
            update.damage.append(Rect(x: visible.minX, y: visible.minY, width: visible.width, height: -delta.y))
        }
        if delta.x > 0 {
            update.damage.append(Rect(x: visible.maxX - delta.x, y: visible.minY, width: delta.x, height: visible.height))
        } else if delta.x < 0 {
            update.damage.append(Rect(x: visible.minX, y: visible.minY, width: -delta.x, height: visible.height))
        }
    }

    /// Whether a view drawn after `view` (a later sibling of it or of an ancestor) reaches
    /// into `area`: moving pixels would then move that view's too.
    private func isCovered(_ view: View, in area: Rect) -> Bool {
        var child = view
        while let parent = child.superview {
            if let index = parent.subviews.firstIndex(where: { $0 === child }) {
                for later in parent.subviews[(index + 1)...] where !later.isHidden && later.alpha > 0 {
                    if parent.convert(later.frame, to: nil).intersection(area) != nil { return true }
                }
            }
            child = parent
        }
        return false
    }
}
