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
    /// Whether a finger is on the glass now (since the last frame that had one): what waits for
    /// the person to let go (an automatic refresh) asks this.
    public var isTouching: Bool { fingersDown }
    private var panned = false
    /// The fingers came down on a scroll view in a fling: that touch is the catch that stops
    /// it, and its tap selects nothing (UIScrollView's; a kiosk that opens items would
    /// otherwise open whatever row a stopping finger lands on).
    private var caughtFling = false
    /// Seconds a finger rests on a row (a view inside a scroll view) before it shows pressed:
    /// 0.15, UIScrollView's `delaysContentTouches` wait, so a finger that starts a scroll never
    /// flashes the row it lands on. A view outside any scroll view (a button on a page) shows
    /// its press at once.
    public var pressDelay = 0.15
    /// Seconds a tap shows its press after the finger lifts: 0.1, long enough to be seen on a
    /// tap shorter than `pressDelay` (UITableView shows it, then the selection).
    public var pressAfterTap = 0.1
    /// Runs the press delay and the flash after a tap (the scene's animator; nil: presses are
    /// shown at once and cleared at the lift).
    public weak var animator: Animator?
    /// Hears a view shown pressed (true) and released (false): the program's trace.
    public var onPress: ((View, Bool) -> Void)?
    /// The view under the finger that shows its press, and whether it does now.
    private weak var pressCandidate: View?
    private weak var pressedView: View?
    /// Where the press began and where the finger is now (root view points).
    private var pressOrigin = Point(x: 0, y: 0), fingerAt = Point(x: 0, y: 0)
    /// Seconds from a frame's pass to its presentation on the glass, as the rule before the
    /// late start took it (`Sampling.halfInterval`, `resampleLatency`): one period (the
    /// display's frame interval; 1/60 until the stage says).
    public var presentationDelay = 1.0 / 60
    /// Seconds before its presentation that a frame samples the pan (`PanRecognizer`'s
    /// `translation(at:)`), when `pan.configuration.resamples`: a stated figure for an app that
    /// wants one; nil: as `sampling` says.
    public var resampleLatency: Double?
    /// How a frame samples the pan: `screen` (the default) at the frame's start less the
    /// screen's own delay, interpolated, extrapolated only as far as its regularity earns
    /// (`PanRecognizer.frameSampling()`); `halfInterval`, the rule before it: one period plus
    /// half the report interval before presentation, extrapolated up to half an interval
    /// (`PanResampler.sampleLatency(period:interval:)`), kept for the feel bench's comparison.
    public var sampling = Sampling.screen
    /// How a frame samples the pan (`sampling`).
    public enum Sampling: Sendable {
        /// The screen's own delay and allowance.
        case screen
        /// Half a report interval before the frame's pass, extrapolated up to half an interval.
        case halfInterval
    }
    /// The last `changed` event while resampling: what a frame's resampled event is made from.
    private var held: PanRecognizer.Event?
    /// The pan's sample time of the last frame pass that resampled it, until taken.
    private var frameSample: Double?

    /// The time the last frame pass sampled the pan at (seconds), once: nil when no frame
    /// sampled it since the last call (the frame presenter's sample to glass).
    public func takeFrameSample() -> Double? {
        defer { frameSample = nil }
        return frameSample
    }

    /// The translation the scroll views were last moved to, px.
    private var delivered = Point(x: 0, y: 0)

    /// A dispatcher for `rootView`'s tree; `scrollView` gets pans that no inner scroll view takes.
    public init(rootView: View, scrollView: ScrollView?,
                configuration: PanRecognizer.Configuration = .init()) {
        (self.rootView, self.scrollView) = (rootView, scrollView)
        pan = PanRecognizer(configuration: configuration)
        tap = TapRecognizer(slop: configuration.slop)
    }

    /// Routes one touch frame: to the pan's scroll views or, for a tap, to the view under it.
    public func handle(_ frame: TouchFrame) {
        // The glass's points into the tree's: a picture moved for burn-in care
        // (`Screen.contentShift`) is touched where it shows.
        let shift = rootView.frame.origin
        let frame = shift == .zero ? frame : frame.moved(by: Point(x: -shift.x, y: -shift.y))
        let wasDown = fingersDown
        fingersDown = !frame.active.isEmpty
        if !wasDown && fingersDown {
            panned = false
            route = nil
            chain = scrollViews(under: frame)
            caughtFling = chain.contains { $0.isDecelerating }
            for view in chain { view.touchesBegan() }
            if !caughtFling, frame.active.count == 1, let point = frame.active.first?.position { beginPress(at: point) }
        }
        if let event = pan.handle(frame) {
            if event.state == .began {
                panned = true
                tap.fail()
                // A scroll, not a press: the row it began on does not stay highlighted.
                endPress()
                route = PanRoute(chain: chain, movement: pan.movementAtBegin)
            }
            onPan?(event)
            if event.state == .changed, pan.configuration.resamples, let animator {
                // The scroll views move at the next frame, to where the pan is at its sample time.
                held = event
                let key = AnimationKey(self, "resample")
                if !animator.isRunning(key) {
                    animator.drive(key, step: { [weak self] _ in self?.resampleForFrame() ?? true })
                }
            } else {
                route?.deliver(event)
                delivered = event.translation
            }
            if event.state == .ended || event.state == .cancelled {
                route = nil
                held = nil
                animator?.cancel(AnimationKey(self, "resample"))
            }
        }
        if frame.active.count > 1 { endPress() }
        if let point = frame.active.first?.position { fingerAt = point }
        var tapped = false
        if let recognized = tap.handle(frame) {
            tapped = true
            if caughtFling { onTap?(recognized, nil) } else { flashPress(); deliver(recognized) }
        }
        if wasDown && !fingersDown {
            if !panned { for view in chain { view.touchesEnded() } }
            // A lift that was no tap (held too long) clears the press; a tap's flash clears it later.
            if !tapped { endPress() }
        }
    }

    /// A frame pass while resampling: the scroll views go to the pan's translation at the
    /// frame's sample time. Returns true once they rest where the pan's events leave them.
    private func resampleForFrame() -> Bool {
        guard let held, let route, let animator else { return true }
        let now = animator.clock.now
        let time: Double, sampled: Point?
        if resampleLatency != nil || sampling == .halfInterval {
            let latency = resampleLatency
                ?? PanResampler.sampleLatency(period: presentationDelay, interval: pan.reportInterval ?? PanResampler.assumedInterval)
            time = now + presentationDelay - latency
            sampled = pan.translation(at: time)
        } else {
            time = now - pan.frameSampling().delay
            sampled = pan.frameTranslation(at: now)
        }
        frameSample = time
        if let translation = sampled, translation != delivered {
            var event = held
            (event.translation, event.timestamp) = (translation, time)
            route.deliver(event)
            delivered = translation
        }
        return pan.settledTranslation.map { $0 == delivered } ?? true
    }

    /// The finger came down on `point`: the nearest view under it that shows a press does,
    /// after `pressDelay` inside a scroll view, else at once.
    private func beginPress(at point: Point) {
        endPress()
        var view = rootView.hitTest(point)
        while let v = view, !v.showsPress { view = v.superview }
        guard let candidate = view else { return }
        pressCandidate = candidate
        (pressOrigin, fingerAt) = (point, point)
        var ancestor = candidate.superview
        var inScrollView = false
        while let a = ancestor, !inScrollView { inScrollView = a is ScrollView; ancestor = a.superview }
        if inScrollView, let animator, pressDelay > 0 {
            animator.schedule(AnimationKey(self, "press"), after: pressDelay) { [weak self] in self?.showPress() }
        } else {
            showPress()
        }
    }

    private func showPress() {
        guard let candidate = pressCandidate, pressedView !== candidate else { return }
        // A finger already sliding towards a scroll (half the slop) is not pressing: the delay
        // can run out in the very frame the pan begins.
        let moved = fingerAt - pressOrigin
        guard (moved.x * moved.x + moved.y * moved.y).squareRoot() <= pan.configuration.slop / 2 || !fingersDown else { return }
        pressedView = candidate
        candidate.setPressed(true)
        onPress?(candidate, true)
    }

    /// A tap: the press shows (if the delay had not run out yet) and clears `pressAfterTap` later.
    private func flashPress() {
        guard pressCandidate != nil else { return }
        animator?.cancel(AnimationKey(self, "press"))
        showPress()
        guard let animator else { return endPress() }
        animator.schedule(AnimationKey(self, "press"), after: pressAfterTap) { [weak self] in self?.endPress() }
    }

    /// Clears the press (a pan began, a second finger came, the finger lifted).
    private func endPress() {
        animator?.cancel(AnimationKey(self, "press"))
        if let view = pressedView {
            view.setPressed(false)
            onPress?(view, false)
        }
        pressedView = nil
        pressCandidate = nil
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
        endPress()
        if let event = pan.cancel(at: timestamp) {
            onPan?(event)
            route?.deliver(event)
        } else {
            for view in chain { view.touchesEnded() }
        }
        route = nil
        held = nil
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
