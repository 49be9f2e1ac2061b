import PanelGestures

/// A whole UI without a display: a manual clock, a screen and a touch dispatcher, its frames
/// the bare frame pass. Stepped in virtual time by ``VirtualTimeDriver`` (`play`, `settle`,
/// `wait` here say it shorter); the kiosk puts the same scene on a display through its stage.
@MainActor
public final class Scene: TimeStepped {
    /// The scene's time: moved only by `tick(at:)` and `touch(_:at:)`.
    public let clock: ManualClock
    /// The animations of every view in the scene, on `clock`.
    public let animator: Animator
    /// The view tree and its frame pass.
    public let screen: Screen
    /// Routes touch frames to the views and the scroll view.
    public let dispatcher: TouchDispatcher
    /// Seconds between frames while something moves (1/60: 60 Hz).
    public var frameInterval: Double = 1.0 / 60
    /// Called after each bare frame pass with its damage (not when a display draws the scene:
    /// then the frame presenter says when a frame is presented).
    public var onFrame: ((_ damage: [Rect]) -> Void)?
    /// Bare frame passes run so far.
    public private(set) var frameCount = 0

    /// A scene of `size` points on `clock`, `scale` pixels per point.
    public init(size: Size, clock: ManualClock = ManualClock(), scale: Double = 1) {
        self.clock = clock
        animator = Animator(clock: clock)
        screen = Screen(size: size, scale: scale, animator: animator)
        dispatcher = TouchDispatcher(rootView: screen.rootView, scrollView: nil)
        dispatcher.animator = animator
    }

    /// Runs one bare frame pass now (layout, animations, display pass) and marks it presented.
    public func frame() {
        let damage = screen.prepareFrame()
        onFrame?(damage)
        screen.didPresentFrame()
        frameCount += 1
    }

    // MARK: TimeStepped

    /// The clock's time, seconds.
    public var now: Double { clock.now }
    /// The next animation's wake-up (a frame is drawn only while one runs).
    public var nextWakeUp: Double? { animator.nextWakeUp }

    /// Moves the clock to `time` and draws a frame if something changed.
    public func tick(at time: Double) {
        arrive(at: time)
        if screen.needsFrame { frame() }
    }

    /// Hands touch frames to the dispatcher at `time`; the frame they cause is drawn at the next tick.
    public func touch(_ frames: [TouchFrame], at time: Double) {
        arrive(at: time)
        for frame in frames { dispatcher.handle(frame) }
    }

    /// The one place the scene's clock moves: to the time a driver gives.
    private func arrive(at time: Double) { clock.advance(to: time) }

    // MARK: Virtual time, said shorter

    /// This scene's virtual-time driver.
    public var time: VirtualTimeDriver { VirtualTimeDriver(self) }
    /// `time.advance(to:)`.
    public func run(until time: Double) { self.time.advance(to: time) }
    /// `time.play(_:)`.
    @discardableResult
    public func play(_ frames: [TouchFrame]) -> Double { time.play(frames) }
    /// `time.settle(limit:)`.
    @discardableResult
    public func settle(limit: Double = 30) -> Bool { time.settle(limit: limit) }
    /// `time.advance(by:)`.
    public func wait(_ seconds: Double) { time.advance(by: seconds) }
}
