import PanelGestures

/// Routes touch frames: pans to the scroll view, taps to the view under the finger.
@MainActor
public final class TouchDispatcher {
    public var pan: PanRecognizer
    public var tap: TapRecognizer
    public let rootView: View
    public weak var scrollView: ScrollView?
    /// Hears every pan event (the program's trace).
    public var onPan: ((PanRecognizer.Event) -> Void)?
    /// Hears every tap, with the view that took it (nil: nobody).
    public var onTap: ((TapRecognizer.Tap, View?) -> Void)?
    private var fingersDown = false
    private var panned = false

    public init(rootView: View, scrollView: ScrollView?,
                configuration: PanRecognizer.Configuration = .init()) {
        self.rootView = rootView
        self.scrollView = scrollView
        pan = PanRecognizer(configuration: configuration)
        tap = TapRecognizer(slop: configuration.slop)
    }

    public func handle(_ frame: TouchFrame) {
        let wasDown = fingersDown
        fingersDown = !frame.active.isEmpty
        if !wasDown && fingersDown {
            panned = false
            scrollView?.touchesBegan()
        }
        if let event = pan.handle(frame) {
            if event.state == .began {
                panned = true
                tap.fail()
            }
            onPan?(event)
            scrollView?.handlePan(event)
        }
        if let recognized = tap.handle(frame) {
            deliver(recognized)
        }
        if wasDown && !fingersDown && !panned { scrollView?.touchesEnded() }
    }

    /// Ends whatever the fingers were doing (the device went away): a pan is cancelled, the
    /// content goes back in range, nothing stays down.
    public func cancelAll(at timestamp: Double) {
        fingersDown = false
        tap.fail()
        if let event = pan.cancel(at: timestamp) {
            onPan?(event)
            scrollView?.handlePan(event)
        } else {
            scrollView?.touchesEnded()
        }
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
