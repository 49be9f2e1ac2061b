import PanelGestures

/// A whole UI in virtual time: a manual clock, a screen and a touch dispatcher, stepped frame
/// by frame. What tests, replays and the example program use to run without hardware.
@MainActor
public final class Scene {
    public let clock: ManualClock
    public let animator: Animator
    public let screen: Screen
    public let dispatcher: TouchDispatcher
    /// Seconds between frames while something moves (60 Hz).
    public var frameInterval: Double = 1.0 / 60
    /// Called after each frame pass with the damage (empty when `drawer` drew the frame).
    public var onFrame: ((_ damage: [Rect]) -> Void)?
    /// Draws a frame instead of the bare frame pass: the program's frame driver (frame pass,
    /// renderer, display), which tells the screen when the frame is presented.
    public var drawer: (() -> Void)?
    /// Frames drawn so far.
    public private(set) var frameCount = 0

    public init(size: Size, clock: ManualClock = ManualClock(), scale: Double = 1) {
        self.clock = clock
        animator = Animator(clock: clock)
        screen = Screen(size: size, scale: scale, animator: animator)
        dispatcher = TouchDispatcher(rootView: screen.rootView, scrollView: nil)
    }

    /// Draws one frame now (layout, animations, display pass) and marks it presented.
    public func frame() {
        if let drawer {
            drawer()
            onFrame?([])
        } else {
            let damage = screen.prepareFrame()
            onFrame?(damage)
            screen.didPresentFrame()
        }
        frameCount += 1
    }

    /// Runs frames until `time` (s), drawing only while something moves, as the run loop
    /// does: idle time costs no frames.
    public func run(until time: Double) {
        while clock.now < time {
            if screen.needsFrame {
                frame()
            }
            guard let wake = animator.nextWakeUp else {
                clock.advance(to: time)
                break
            }
            let next = max(wake, clock.now + frameInterval)
            if next >= time {
                clock.advance(to: time)
                break
            }
            clock.advance(to: next)
        }
        if screen.needsFrame { frame() }
    }

    /// Delivers touch frames at their timestamps, running frames in between.
    public func play(_ frames: [TouchFrame]) {
        for touchFrame in frames {
            run(until: touchFrame.timestamp)
            dispatcher.handle(touchFrame)
        }
        if screen.needsFrame { frame() }
    }

    /// Runs until nothing moves or `limit` seconds pass; returns whether it settled.
    @discardableResult
    public func settle(limit: Double = 30) -> Bool {
        let end = clock.now + limit
        while clock.now < end {
            if screen.needsFrame { frame() }
            guard let wake = animator.nextWakeUp else { return true }
            clock.advance(to: max(wake, clock.now + frameInterval))
        }
        return animator.isIdle
    }

    /// Lets `seconds` pass, running frames as needed.
    public func wait(_ seconds: Double) { run(until: clock.now + seconds) }
}
