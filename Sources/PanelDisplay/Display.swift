import PanelGestures
import PanelRender
import PanelUI

/// What a display reports after its connector was probed again (a DRM hotplug event).
public enum DisplayProbe: Sendable, Hashable {
    /// Nothing changed that the picture depends on.
    case unchanged
    /// The panel went away: nothing is drawn until it comes back.
    case disconnected
    /// The panel is (back) on, at this picture size; the next frame must be a full one.
    case connected(width: Int, height: Int)
}

/// Something that shows frames: a DRM output, a framebuffer, or memory.
///
/// The renderer draws into `backSurface`, memory the program owns that always holds the last
/// frame (a shadow), so a frame draws only its own damage; `present` takes the changed
/// rectangles to the glass. The run loop needs nothing else: it watches `eventDescriptor`,
/// calls `handleEvents()` when it is readable, and `close()`s at the end.
@MainActor
public protocol Display: AnyObject {
    /// Pixels of the picture (after rotation: what the UI lays out in).
    var width: Int { get }
    /// Pixels down, of the picture.
    var height: Int { get }
    /// How its pixels are stored.
    var format: PixelFormat { get }
    /// Where frames are drawn: the program's own memory, holding the last frame.
    var backSurface: Surface { get }
    /// Takes `damage` (picture pixels) to the glass. `completion` runs once the frame is
    /// visible (after the flip on DRM; at once in memory). Never call it again before then.
    func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws
    /// Whether a presented frame waits for its completion.
    var isFrameInFlight: Bool { get }
    /// Whether completions come from the hardware (page-flip events): the loop then needs no
    /// frame timer of its own.
    var pacesFrames: Bool { get }
    /// A descriptor that becomes readable when the display has events; nil: it has none.
    var eventDescriptor: Int32? { get }
    /// Reads the display's events (call when `eventDescriptor` is readable): completions run.
    func handleEvents() throws
    /// When the last completed frame reached the glass, seconds of CLOCK_MONOTONIC; nil when
    /// the display cannot say (then the completion's own time stands for it).
    var lastPresentationTime: Double? { get }
    /// Whether the panel is off.
    var isBlank: Bool { get }
    /// Turns the panel off or on; on again, the next frame is a full one.
    func setBlank(_ blank: Bool) throws
    /// Looks at the connector again (after a hotplug event).
    func reprobe() -> DisplayProbe
    /// Counts the times `eventDescriptor` was replaced (a DRM card that went away and came back
    /// is a new device with a new descriptor). When it changes, the loop watches the new
    /// descriptor, stops watching the old one, then calls `releaseRetiredDescriptors()`.
    var eventDescriptorGeneration: Int { get }
    /// Closes the descriptors that `eventDescriptor` no longer names.
    func releaseRetiredDescriptors()
    /// Touches the display saw itself, stamped on the loop's clock (`now` is the present).
    func takeTouches(now: Double) -> [TouchFrame]
    /// Whether events were read but not handled yet: call `handleEvents()` now.
    var hasPendingEvents: Bool { get }
    /// Seconds between the refreshes of what shows the frames, when known; nil: 1/60.
    var frameInterval: Double? { get }
    /// When the frame in flight completes, in virtual time, when the display says (a paced
    /// headless display); nil: at its next event (a DRM flip).
    var frameDue: Double? { get }
    /// Whether the display is paused: another VT is in front (or logind paused the card), so
    /// nothing is presented and DRM master is given up.
    var isPaused: Bool { get }
    /// Stops presenting (a pending flip is waited for) and gives up DRM master.
    func pause()
    /// Takes DRM master back; the next frame sets the mode again and is a full one.
    func resume()
    /// One line for the log: what drives the glass and how.
    var summary: String { get }
    /// What the glass shows now, as the glass is turned: the scanned-out buffer (a DRM card's
    /// front buffer, the framebuffer's memory, the window's picture; the frame in memory for the
    /// headless display); nil before anything was shown. For an operator's screenshot: it reads
    /// scan-out memory once, which a frame never does.
    func glassSnapshot() -> GlassSnapshot?
    /// Gives back what the display took (the CRTC as it was, buffers, the device). Safe twice.
    func close()
    /// Takes `width`×`height` pixels when asked to: a headless display does (a test or an
    /// offline frame at another size); a panel's mode and a window's size come from elsewhere.
    /// Whether it did.
    func resize(width: Int, height: Int) -> Bool
}

extension Display {
    /// Touches the display saw itself (a desktop window's mouse and touch events), each
    /// stamped at its time on the loop's clock, `now` being the present; none for a panel
    /// (its touchscreens are evdev devices of their own).
    public func takeTouches(now: Double) -> [TouchFrame] { [] }
    /// Whether events were read from `eventDescriptor` but not handled yet (a window system's
    /// library may read its connection during other calls); the loop then calls
    /// `handleEvents()` without waiting for the descriptor. None for a panel.
    public var hasPendingEvents: Bool { false }
    /// Seconds between the refreshes of what shows the frames, when the display knows it and
    /// does not pace frames itself (a desktop window: its monitor's rate); nil: 1/60.
    public var frameInterval: Double? { nil }
    /// Never paused: only a DRM card is.
    public var isPaused: Bool { false }
    /// Unknown: a frame in flight completes by an event of the display's own.
    public var frameDue: Double? { nil }
    /// Nothing to pause.
    public func pause() {}
    /// Nothing to resume.
    public func resume() {}
    /// Displays whose descriptor never changes (memory, fbdev) keep generation 0.
    public var eventDescriptorGeneration: Int { 0 }
    /// Nothing to release where the descriptor never changes.
    public func releaseRetiredDescriptors() {}
    /// A panel's or a window's size is not asked for: unchanged.
    public func resize(width: Int, height: Int) -> Bool { false }
}

/// A display whose `present` completes before it returns (memory, fbdev): nothing is ever in
/// flight, it has no events and no connector to probe, and the loop paces its frames.
@MainActor
public protocol ImmediateDisplay: Display {}

extension ImmediateDisplay {
    /// Never: `present` completes at once.
    public var isFrameInFlight: Bool { false }
    /// No: the loop's timer paces frames (60 Hz).
    public var pacesFrames: Bool { false }
    /// None: nothing to watch.
    public var eventDescriptor: Int32? { nil }
    /// Nothing to read.
    public func handleEvents() throws {}
    /// Unknown: the completion's own time stands for it.
    public var lastPresentationTime: Double? { nil }
    /// Nothing to probe.
    public func reprobe() -> DisplayProbe { .unchanged }
}

/// A display in memory: tests, the demo on machines with no panel, replays that save frames.
@MainActor
public final class HeadlessDisplay: ImmediateDisplay {
    /// Pixels across.
    public private(set) var width: Int
    /// Pixels down.
    public private(set) var height: Int
    /// How its pixels are stored.
    public let format: PixelFormat
    /// The picture in memory.
    public private(set) var backSurface: Surface
    /// Frames presented so far.
    public private(set) var framesPresented = 0
    /// Damage of the last present, pixels.
    public private(set) var lastDamage: [Rect] = []
    /// When set, every presented frame is written here as frame-NNNNN.png.
    public var frameDirectory: String?
    /// Whether `setBlank(true)` was the last call.
    public private(set) var isBlank = false
    /// Frames at a display's cadence in virtual time (`replay --display-rate HZ`, the feel
    /// bench): each presented frame stays in flight for `period` seconds of `clock` and
    /// completes at `handleEvents()` from then on, as a DRM flip completes at the vertical
    /// blank one period after the frame is drawn. Nil: a frame completes inside `present`
    /// (a frame for every change).
    public var pacing: (period: Double, clock: @MainActor () -> Double)?
    /// Under `pacing`, a vblank's time (seconds of its clock): a frame then completes at the
    /// first vblank after it is presented (`phase + k·period`), as a flip does on a card,
    /// instead of one period after it. Nil: one period after (a frame drawn right after the
    /// last flip, the late start off).
    public var vblankPhase: Double?
    /// The frame in flight under `pacing`: when it completes, and its completion.
    private var inFlight: (due: Double, completion: @MainActor () -> Void)?
    /// Whether a paced frame waits for its time.
    public var isFrameInFlight: Bool { inFlight != nil }
    /// Whether frames are paced (`pacing`).
    public var pacesFrames: Bool { pacing != nil }
    /// When the paced frame in flight completes (seconds of `pacing.clock`).
    public var frameDue: Double? { inFlight?.due }
    /// When the last paced frame completed; nil unpaced (the completion's time stands for it).
    public private(set) var lastPresentationTime: Double?

    /// Completes the paced frame in flight once its time has come.
    public func handleEvents() throws {
        guard let frame = inFlight, let pacing, pacing.clock() >= frame.due else { return }
        inFlight = nil
        lastPresentationTime = frame.due
        frame.completion()
    }

    /// How far the picture is turned on its glass, clockwise (`display.rotation`): the UI lays
    /// out in `width`×`height`, the glass is that turned (`glassSnapshot`, `ctl screenshot`),
    /// as on a card.
    public let rotation: Rotation

    /// A display in memory of `width`×`height` pixels (the picture's).
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        (self.width, self.height, self.format, self.rotation) = (width, height, format, .none)
        backSurface = Surface(width: width, height: height, format: format)
    }

    /// A display in memory whose glass is `glassWidth`×`glassHeight` pixels with the picture
    /// turned by `rotation` on it (a portrait UI on a landscape panel, simulated headless).
    public init(glassWidth: Int, glassHeight: Int, rotation: Rotation, format: PixelFormat = .xrgb8888) {
        (width, height) = rotation.swapsSides ? (glassHeight, glassWidth) : (glassWidth, glassHeight)
        (self.format, self.rotation) = (format, rotation)
        backSurface = Surface(width: width, height: height, format: format)
    }

    /// The display at a new size, as a window is resized or a panel comes back in another
    /// mode: a new picture in memory (black); the host lays its UI out again at its next
    /// `displayEvents(at:)` (or at once, asked through its `resize(width:height:at:)`).
    @discardableResult
    public func resize(width: Int, height: Int) -> Bool {
        (self.width, self.height) = (width, height)
        backSurface = Surface(width: width, height: height, format: format)
        return true
    }

    /// Counts the frame, writes it as a PNG when `frameDirectory` is set, and completes at once
    /// (or one period later under `pacing`).
    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        framesPresented += 1
        lastDamage = damage
        if let frameDirectory {
            let name = "frame-" + String(repeating: "0", count: max(0, 5 - String(framesPresented).count)) + "\(framesPresented).png"
            try PNG.write(backSurface, to: frameDirectory + "/" + name)
        }
        if let pacing {
            let now = pacing.clock()
            var due = now + pacing.period
            if let phase = vblankPhase {
                due = FrameScheduler(period: pacing.period, phase: phase).vblank(after: now)
            }
            inFlight = (due, completion)
        } else {
            completion()
        }
    }

    /// Records the state; nothing to turn off.
    public func setBlank(_ blank: Bool) throws { isBlank = blank }
    /// "headless WxH", and the turn when there is one ("headless 480x800, turned 90° on its
    /// 800x480 glass").
    public var summary: String {
        guard rotation != .none else { return "headless \(width)x\(height)" }
        let glass = rotation.swapsSides ? "\(height)x\(width)" : "\(width)x\(height)"
        return "headless \(width)x\(height), turned \(rotation.rawValue)° on its \(glass) glass"
    }
    /// Nothing to give back.
    public func close() {}

    /// The frame on show, as a PNG file.
    public func savePNG(to path: String) throws { try PNG.write(backSurface, to: path) }
    /// The frame in memory as its glass shows it, turned by `rotation` (nil before the first frame).
    public func glassSnapshot() -> GlassSnapshot? {
        framesPresented > 0 ? GlassSnapshot(backSurface.onGlass(turnedBy: rotation)) : nil
    }
}
