import PanelGestures
/// The top of a view tree shown on a display: its size, its animator and text metrics, and
/// the frame pass that runs before each frame is drawn.
@MainActor
public final class Screen {
    /// Size in points.
    public let size: Size
    /// Pixels per point (1 on most panels).
    public let scale: Double
    public let rootView: View
    public let animator: Animator
    public var textMeasurer: any TextMeasurer
    /// Frames presented so far; components treat a screen with none as "not yet shown"
    /// (MJRefresh's view without a window).
    public private(set) var framesPresented = 0

    public init(size: Size, scale: Double = 1, animator: Animator,
                textMeasurer: (any TextMeasurer)? = nil) {
        self.size = size
        self.scale = scale
        self.animator = animator
        self.textMeasurer = textMeasurer ?? EstimatedTextMeasurer()
        rootView = View(frame: Rect(origin: .zero, size: size))
        rootView.hostScreen = self
    }

    /// Whether the next frame would show something new: an animation runs, or a view asked
    /// for layout or display.
    public var needsFrame: Bool {
        if animator.nextWakeUp.map({ $0 <= animator.clock.now }) ?? false { return true }
        return treeNeeds(rootView)
    }

    private func treeNeeds(_ view: View) -> Bool {
        if view.needsLayout || view.needsDisplay { return true }
        return view.subviews.contains { treeNeeds($0) }
    }

    /// Runs the frame pass at `animator.clock.now`: animations, layout, `willDisplay()` on
    /// the visible views that asked for display, layout again if that changed something.
    /// Returns the damaged area in screen points, clipped to the screen (empty: nothing to
    /// draw).
    public func prepareFrame() -> [Rect] {
        animator.tick()
        rootView.layoutIfNeeded()
        notifyWillDisplay(rootView)
        rootView.layoutIfNeeded()
        var damage: [Rect] = []
        collectDamage(rootView, into: &damage)
        return damage
    }

    /// The frame prepared last is on the panel.
    public func didPresentFrame() { framesPresented += 1 }

    private func notifyWillDisplay(_ view: View) {
        guard !view.isHidden else { return }
        if view.needsDisplay { view.willDisplay() }
        for subview in view.subviews { notifyWillDisplay(subview) }
    }

    private func collectDamage(_ view: View, into damage: inout [Rect]) {
        let bounds = Rect(origin: .zero, size: size)
        for rect in view.takeDamage() {
            if let visible = view.convert(rect, to: nil).intersection(bounds) { damage.append(visible) }
        }
        for subview in view.subviews { collectDamage(subview, into: &damage) }
    }
}
