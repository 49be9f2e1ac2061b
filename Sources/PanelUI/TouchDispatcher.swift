import PanelGestures

/// Routes touch frames: a pan to the innermost scroll view under the finger that can move in
/// the direction the pan began in (its overscroll to the one enclosing it, `PanRoute`), taps
/// to the view under the finger.
@MainActor
public final class TouchDispatcher {
    /// Recognises pans (its configuration is the panel's slop and fling bounds).
    public var pan: PanRecognizer
    /// Recognises taps.
    public var tap: TapRecognizer
    /// The view tree touches are hit-tested in.
    public let rootView: View
    /// Takes the pans that start where no scroll view is under the finger.
    public weak var scrollView: ScrollView?
    /// The scroll views under the finger when it came down, innermost first.
    private var chain: [ScrollView] = []
    private var route: PanRoute?
    /// The scroll view the pan under way drives (nil: none, or no pan).
    public var panTarget: ScrollView? { route?.target }
    /// Hears every pan event (the program's trace).
    public var onPan: ((PanRecognizer.Event) -> Void)?
    /// Hears every tap, with the view that took it (nil: nobody).
    public var onTap: ((TapRecognizer.Tap, View?) -> Void)?
    private var fingersDown = false
    private var panned = false
    /// The fingers came down on a scroll view in a fling: that touch is the catch that stops
    /// it, and its tap selects nothing (UIScrollView's; a kiosk that opens items would
    /// otherwise open whatever row a stopping finger lands on).
    private var caughtFling = false

    /// A dispatcher for `rootView`'s tree; `scrollView` gets pans that no inner scroll view takes.
    public init(rootView: View, scrollView: ScrollView?,
                configuration: PanRecognizer.Configuration = .init()) {
        (self.rootView, self.scrollView) = (rootView, scrollView)
        pan = PanRecognizer(configuration: configuration)
        tap = TapRecognizer(slop: configuration.slop)
    }

    /// Routes one touch frame: to the pan's scroll views or, for a tap, to the view under it.
    public func handle(_ frame: TouchFrame) {
        let wasDown = fingersDown
        fingersDown = !frame.active.isEmpty
        if !wasDown && fingersDown {
            panned = false
            route = nil
            chain = scrollViews(under: frame)
            caughtFling = chain.contains { $0.isDecelerating }
            for view in chain { view.touchesBegan() }
        }
        if let event = pan.handle(frame) {
            if event.state == .began {
                panned = true
                tap.fail()
                route = PanRoute(chain: chain, movement: pan.movementAtBegin)
            }
            onPan?(event)
            route?.deliver(event)
            if event.state == .ended || event.state == .cancelled { route = nil }
        }
        if let recognized = tap.handle(frame) {
            if caughtFling { onTap?(recognized, nil) } else { deliver(recognized) }
        }
        if wasDown && !fingersDown && !panned { for view in chain { view.touchesEnded() } }
    }

    /// The scroll views under the first finger down, innermost first; the fallback
    /// `scrollView` when there is none.
    private func scrollViews(under frame: TouchFrame) -> [ScrollView] {
        var found: [ScrollView] = []
        if let point = frame.active.first?.position {
            var view = rootView.hitTest(point)
            while let v = view {
                if let scroll = v as? ScrollView, scroll.isScrollEnabled { found.append(scroll) }
                view = v.superview
            }
        }
        if found.isEmpty, let scrollView { found = [scrollView] }
        return found
    }

    /// Ends whatever the fingers were doing (the device went away): a pan is cancelled, the
    /// content goes back in range, nothing stays down.
    public func cancelAll(at timestamp: Double) {
        fingersDown = false
        tap.fail()
        if let event = pan.cancel(at: timestamp) {
            onPan?(event)
            route?.deliver(event)
        } else {
            for view in chain { view.touchesEnded() }
        }
        route = nil
    }

    private func deliver(_ recognized: TapRecognizer.Tap) {
        var view = rootView.hitTest(recognized.location)
        while let candidate = view {
            if candidate.handleTap(at: rootView.convert(recognized.location, to: candidate)) {
                onTap?(recognized, candidate)
                return
            }
            view = candidate.superview
        }
        onTap?(recognized, nil)
    }
}
