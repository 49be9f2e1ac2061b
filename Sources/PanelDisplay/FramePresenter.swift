import PanelRender
import PanelUI

/// What one presented frame cost and when it reached the glass.
public struct FrameTiming: Sendable, Hashable {
    /// The kernel's time stamp of the oldest touch event this frame answers, seconds of
    /// CLOCK_MONOTONIC; nil for frames no touch asked for.
    public var inputTime: Double?
    /// When drawing began and how long drawing and the copy to the glass took, seconds.
    public var drawnAt: Double
    /// How long drawing and the copy to the glass took, seconds.
    public var renderSeconds: Double
    /// When the frame was on the glass: the flip event's time stamp, else the completion's.
    public var presentedAt: Double

    /// A frame's timing.
    public init(inputTime: Double?, drawnAt: Double, renderSeconds: Double, presentedAt: Double) {
        (self.inputTime, self.drawnAt, self.renderSeconds, self.presentedAt) = (inputTime, drawnAt, renderSeconds, presentedAt)
    }

    /// Touch to glass, seconds.
    public var latency: Double? { inputTime.map { presentedAt - $0 } }
    /// The time the frame sampled the pan at (its start less the screen's delay), seconds;
    /// nil for frames that sampled none.
    public var sampleTime: Double?
    /// Sample to glass, seconds: how old the finger's place the frame shows is when it shows.
    public var sampleLatency: Double? { sampleTime.map { presentedAt - $0 } }
    /// Vblanks this frame missed: on the glass that many after the vblank it was started for
    /// (`FrameScheduler`); nil on a display that does not pace frames by a vblank.
    public var missedVblanks: Int?
}

/// Draws a screen's frames on a display: the frame pass, the renderer on the damaged area,
/// present, and telling the screen when the frame is on the glass. One frame at a time: a
/// frame asked for while one is in flight waits for its completion. Every command draws
/// through one of these (run, demo, replay, expected-frame, the benchmarks).
///
/// A present that fails (the card taken by another program, EBUSY, EINVAL, ENOSPC, the panel
/// unplugged) drops the frame, tells `onError` once, and waits before trying again, twice as
/// long each time up to `maxRetryDelay`; the first frame that works again is a full one.
@MainActor
public final class FramePresenter {
    /// The view tree drawn.
    public let screen: Screen
    /// Draws the damaged areas.
    public let renderer: Renderer
    /// Where frames go.
    public let display: any Display
    /// Whether a presented frame waits for its completion: the display's own fact (a DRM flip
    /// pending), not a copy of it, so a frame of an earlier presenter on the same display counts.
    public var inFlight: Bool { display.isFrameInFlight }
    /// The next frame redraws the whole picture (the first one; after a failure, a wake-up,
    /// or a new panel size).
    private var fullFrame = true
    /// The clock for retries and timings, seconds (monotonic in the program).
    private let now: () -> Double
    /// Hears the first failure of a run of failures (the frame is dropped; later ones retry).
    public var onError: ((any Error) -> Void)?
    /// Hears the first frame that worked after failures.
    public var onRecovery: (() -> Void)?
    /// Hears every frame on the glass.
    public var onFramePresented: ((FrameTiming) -> Void)?
    /// Gives the pan's sample time of the frame just prepared (nil: it sampled none), for its
    /// timing's sample to glass.
    public var sampleTime: (() -> Double?)?
    /// Hears a frame drawn, before it is presented: what it shows is what the UI holds now
    /// (a frame in flight reaches the glass later, when the UI may have moved on).
    public var onFrameDrawn: (() -> Void)?
    /// Until when drawing waits after a failure (nil: it does not).
    public private(set) var retryAt: Double?
    private var retryDelay = FramePresenter.firstRetryDelay
    private var pendingInput: Double?
    /// The last frame's timing.
    public private(set) var lastTiming: FrameTiming?
    /// When frames start (late in the period, before their vblank), on a display whose frames
    /// reach the glass at vblanks (a DRM card, a paced headless display); nil: a frame starts
    /// as soon as one is needed (fbdev, a window, an unpaced headless display).
    public var scheduler: FrameScheduler?

    /// Seconds before the first retry; each failure doubles it up to `maxRetryDelay`.
    public static let firstRetryDelay = 0.1
    /// The longest wait between retries, seconds.
    public static let maxRetryDelay = 5.0

    /// A presenter of `screen`'s frames on `display`; `now` is the clock of retries and timings (CLOCK_MONOTONIC on the panel, the virtual clock in tests).
    public init(screen: Screen, renderer: Renderer, display: any Display, now: @escaping () -> Double) {
        (self.screen, self.renderer, self.display, self.now) = (screen, renderer, display, now)
    }

    /// A touch event (its kernel time stamp) that the next frame answers: the oldest one
    /// counts for the frame's latency.
    public func noteInput(at timestamp: Double) {
        pendingInput = min(pendingInput ?? timestamp, timestamp)
    }

    /// The next frame draws everything (after a wake-up or a new panel size).
    public func invalidate() { fullFrame = true }

    /// Tries at the next frame instead of waiting out the retry delay (the panel is back).
    public func retryNow() {
        if retryAt != nil { retryAt = -Double.infinity }
        retryDelay = Self.firstRetryDelay
    }

    /// When a frame needed at `time` starts (`scheduler`'s late start; `time` without one).
    public func frameStart(at time: Double) -> Double { scheduler?.start(at: time) ?? time }

    /// Vblanks missed since the start: frames on the glass after the vblank they were for.
    public var missedVblanks: Int { scheduler?.missedVblanks ?? 0 }

    /// Runs one frame if none is in flight, no retry waits and its start has come (the
    /// scheduler's). Returns whether it drew (nothing changed: no draw). While the panel is
    /// off or paused only the frame pass runs.
    @discardableResult
    public func drawFrame() -> Bool {
        // A frame of an earlier presenter on the same display (before a reload) may still be out.
        guard !inFlight else { return false }
        // Late in the period: the loop comes back at the start (`frameStart(at:)`). A
        // nanosecond's leeway for the clock's rounding.
        if scheduler != nil, !display.isBlank, !display.isPaused, frameStart(at: now()) > now() + 1e-9 { return false }
        if display.isBlank || display.isPaused {
            // The UI goes on (a refresh begun now must reach its states), nothing is drawn; the
            // frame after the wake-up (or after the VT came back) draws it all.
            guard screen.needsFrame else { return false }
            _ = screen.prepareFrame(allowingMoves: false)
            // A sample no frame shows is no sample to glass.
            _ = sampleTime?()
            screen.didPresentFrame()
            fullFrame = true
            return true
        }
        let start = now()
        if let retryAt, start < retryAt { return false }
        var update = screen.prepareFrame(allowingMoves: !fullFrame)
        let scale = renderer.scale
        let whole = Rect(x: 0, y: 0, width: screen.size.width, height: screen.size.height)
        if fullFrame {
            update.moves = []
            update.damage = [whole]
        }
        // Moved areas are new pixels too, as far as the glass is concerned.
        let changed = update.damage + update.moves.map(\.area)
        guard !changed.isEmpty else {
            _ = sampleTime?()
            return false
        }
        let pixels = changed.map { Rect(x: $0.minX * scale, y: $0.minY * scale, width: $0.width * scale, height: $0.height * scale) }
        let sample = sampleTime?()
        renderer.render(screen, into: display.backSurface, damage: update.damage, moves: update.moves)
        onFrameDrawn?()
        let input = pendingInput
        pendingInput = nil
        renderedAt = nil
        // The vblank this frame is for (one started at a vblank is for the next).
        let aim = scheduler?.vblank(after: start)
        do {
            try display.present(damage: pixels) { [weak self] in
                guard let self else { return }
                self.screen.didPresentFrame()
                let end = self.now()
                // A display that completes at once does so inside present, after its copy.
                let rendered = self.renderedAt ?? end
                var timing = FrameTiming(inputTime: input, drawnAt: start, renderSeconds: rendered - start,
                                         presentedAt: self.display.lastPresentationTime ?? end)
                timing.sampleTime = sample
                self.scheduler?.record(cost: timing.renderSeconds)
                timing.missedVblanks = self.scheduler?.presented(at: timing.presentedAt, target: aim)
                self.lastTiming = timing
                self.onFramePresented?(timing)
            }
            renderedAt = now()
            fullFrame = false
            if retryAt != nil {
                retryAt = nil
                retryDelay = Self.firstRetryDelay
                onRecovery?()
            }
            return true
        } catch {
            // The picture in memory is whole; the glass is not: the next frame draws it all.
            fullFrame = true
            if retryAt == nil { onError?(error) }
            retryAt = start + retryDelay
            retryDelay = min(retryDelay * 2, Self.maxRetryDelay)
            return false
        }
    }

    /// When the last frame's drawing and copy ended (nil while its present runs).
    private var renderedAt: Double?
}
