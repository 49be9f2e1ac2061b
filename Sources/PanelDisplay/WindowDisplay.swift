import CWindow
import Glibc
import PanelGestures
import PanelRender
import PanelUI

/// The kiosk in a desktop window (`display.backend = window`), for developing on a desktop:
/// SDL2, opened at the first window and never linked, shows the frames; the left mouse button
/// and the desktop's touch events are touches; the window's size is the glass, so a resize
/// lays the UI out again; the picture is turned in it as on the panel.
///
/// SDL's video driver must be X11 (also under XWayland): its connection's descriptor is what
/// the loop watches, so an idle window costs no wake-ups.
@MainActor
public final class WindowDisplay: ImmediateDisplay {
    /// Pixels across the picture (the window's width, or its height when turned a quarter).
    public private(set) var width: Int
    /// Pixels down the picture.
    public private(set) var height: Int
    /// Always 32-bit: the window's texture is XRGB8888.
    public let format = PixelFormat.xrgb8888
    /// The picture: the program's own memory, holding the last frame.
    public private(set) var backSurface: Surface
    /// The turn of the picture in the window.
    public let rotation: Rotation
    /// Whether `setBlank(true)` was the last call (the window shows black meanwhile).
    public private(set) var isBlank = false
    /// Seconds between the desktop display's refreshes (nil when SDL does not know).
    public private(set) var frameInterval: Double?
    /// Frames presented so far.
    public private(set) var framesPresented = 0
    /// The window's own descriptor: the window system's connection.
    public let eventDescriptor: Int32?
    private let window: OpaquePointer
    /// Where turned frames are composed in the glass's shape before they go to the window
    /// (nil when the picture is not turned: the texture takes the shadow's rows directly).
    private var glass: (memory: Surface, target: ScanoutTarget)?
    private var pointer: WindowPointer
    /// Events read and not yet taken, each stamped with minus its age in seconds.
    private var pending: [WindowEvent] = []
    private var closed = false

    /// Opens a `width`×`height` window (the glass; the picture is `rotation` turned in it).
    /// Throws `WindowError` when SDL cannot be loaded or gives no window.
    public init(width: Int, height: Int, rotation: Rotation = .none, title: String = "PanelRefresh") throws(WindowError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { throw .size(width: width, height: height) }
        if let error = panel_sdl_load() { throw .unavailable(String(cString: error)) }
        guard let window = panel_window_open(title, Int32(width), Int32(height)) else {
            throw .unavailable(String(cString: panel_window_error()))
        }
        let descriptor = panel_window_descriptor(window)
        guard descriptor >= 0 else {
            panel_window_close(window)
            throw .notX11(video: String(cString: panel_window_video_driver()))
        }
        self.window = window
        eventDescriptor = descriptor
        self.rotation = rotation
        let rate = panel_window_refresh_rate(window)
        frameInterval = rate > 0 ? 1 / Double(rate) : nil
        (self.width, self.height) = rotation.swapsSides ? (height, width) : (width, height)
        backSurface = Surface(width: rotation.swapsSides ? height : width, height: rotation.swapsSides ? width : height)
        pointer = WindowPointer(rotation: rotation, glassWidth: Double(width), glassHeight: Double(height))
        glass = Self.glass(width: width, height: height, rotation: rotation)
    }

    private var handle: OpaquePointer { window }

    /// Whether this build has the window: SDL2's headers were there when it was built (a build
    /// for panels, such as the arm64 one, may have none). libSDL2 itself is looked for only when
    /// a window opens.
    public nonisolated static var isBuiltIn: Bool { panel_window_built_in() != 0 }

    private static func glass(width: Int, height: Int, rotation: Rotation) -> (memory: Surface, target: ScanoutTarget)? {
        guard rotation != .none else { return nil }
        let memory = Surface(width: width, height: height)
        return (memory, ScanoutTarget(pixels: memory.pixels, width: width, height: height, stride: memory.stride, format: .xrgb8888))
    }

    /// Copies `damage` into the window's texture and shows it; completes at once (SDL's
    /// present waits for the desktop's refresh where the window system synchronises it).
    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        guard !closed else { throw WindowError.closed }
        for rect in damage {
            guard let r = PixelRect(covering: rect, width: backSurface.width, height: backSurface.height) else { continue }
            if let glass {
                glass.target.store(r, from: backSurface, rotation: rotation)
                let g = r.rotated(rotation, pictureWidth: backSurface.width, pictureHeight: backSurface.height)
                try upload(g, from: glass.memory)
            } else {
                try upload(r, from: backSurface)
            }
        }
        if !isBlank { try show() }
        framesPresented += 1
        completion()
    }

    private func upload(_ r: PixelRect, from surface: Surface) throws(WindowError) {
        let start = surface.pixels + r.y * surface.stride + r.x * 4
        guard panel_window_update(handle, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), start, Int32(surface.stride)) == 0 else {
            throw .call("SDL_UpdateTexture", String(cString: panel_window_error()))
        }
    }

    private func show() throws(WindowError) {
        guard panel_window_present(handle) == 0 else { throw .call("SDL_RenderCopy", String(cString: panel_window_error())) }
    }

    /// Whether the window system has events SDL has read but the loop has not handled (Xlib
    /// reads the connection during other calls, so the descriptor alone can miss them).
    public var hasPendingEvents: Bool { !closed && panel_window_has_events() != 0 }

    /// Reads the window's events: mouse and touch wait for `takeTouches(now:)`; a resize makes
    /// a new picture size (the host lays the UI out again); an expose shows the frame again;
    /// the close button stops the kiosk as SIGTERM does.
    public func handleEvents() throws {
        guard !closed else { return }
        var event = panel_window_event()
        let ticks = panel_window_ticks()
        var resized: (Int, Int)?
        var exposed = false
        while panel_window_poll(handle, &event) != 0 {
            // SDL stamps events with its milliseconds; the loop's time is seconds: ages, not stamps.
            let age = Double(ticks &- UInt64(event.timestamp) & 0xffff_ffff) / 1000
            let at = -min(max(age, 0), 1)
            switch event.kind {
            case PANEL_WINDOW_PRESS: pending.append(.press(x: Double(event.x), y: Double(event.y), at: at))
            case PANEL_WINDOW_DRAG: pending.append(.drag(x: Double(event.x), y: Double(event.y), at: at))
            case PANEL_WINDOW_RELEASE: pending.append(.release(x: Double(event.x), y: Double(event.y), at: at))
            case PANEL_WINDOW_FINGER_DOWN, PANEL_WINDOW_FINGER_MOVE, PANEL_WINDOW_FINGER_UP:
                let phase: TouchPhase = event.kind == PANEL_WINDOW_FINGER_DOWN ? .began : event.kind == PANEL_WINDOW_FINGER_UP ? .ended : .moved
                pending.append(.finger(id: event.finger, phase: phase, x: Double(event.fx), y: Double(event.fy), at: at))
            case PANEL_WINDOW_FOCUS_LOST: pending.append(.focusLost(at: at))
            case PANEL_WINDOW_RESIZED: resized = (Int(event.width), Int(event.height))
            case PANEL_WINDOW_EXPOSED: exposed = true
            case PANEL_WINDOW_CLOSE:
                // The kiosk stops the way it always does: its signal pipe hears SIGTERM.
                kill(getpid(), SIGTERM)
            default: break
            }
        }
        if let (w, h) = resized, w > 0, h > 0, (w, h) != glassSize { try takeSize(width: w, height: h) }
        if exposed, !isBlank { try show() }
    }

    /// The window's size now, the glass.
    public var glassSize: (Int, Int) { rotation.swapsSides ? (height, width) : (width, height) }

    private func takeSize(width w: Int, height h: Int) throws(WindowError) {
        guard panel_window_make_texture(handle, Int32(w), Int32(h)) == 0 else {
            throw .call("SDL_CreateTexture", String(cString: panel_window_error()))
        }
        (width, height) = rotation.swapsSides ? (h, w) : (w, h)
        backSurface = Surface(width: width, height: height)
        glass = Self.glass(width: w, height: h, rotation: rotation)
        pointer.glassWidth = Double(w)
        pointer.glassHeight = Double(h)
    }

    /// The touches read since the last call, each at its time: `now` minus its age (SDL's
    /// stamps are milliseconds of its own clock).
    public func takeTouches(now: Double) -> [TouchFrame] {
        defer { pending = [] }
        return pointer.frames(for: pending, shiftedBy: now)
    }

    /// Blank shows black in the window; on again, the next frame is a full one (the stage
    /// draws it, as on a panel).
    public func setBlank(_ blank: Bool) throws {
        guard blank != isBlank else { return }
        isBlank = blank
        if blank {
            let (w, h) = glassSize
            // A new surface starts zeroed: black.
            let black = Surface(width: w, height: h)
            try upload(PixelRect(x: 0, y: 0, width: w, height: h), from: black)
            try show()
        }
    }

    /// The picture as the window shows it: turned in the glass's memory, else the shadow.
    public func glassSnapshot() -> GlassSnapshot? {
        guard framesPresented > 0 else { return nil }
        return GlassSnapshot(glass?.memory ?? backSurface)
    }

    /// "window WxH (x11, software)": the glass's size, SDL's video driver and renderer.
    public var summary: String {
        let (w, h) = glassSize
        let turned = rotation == .none ? "" : ", turned \(rotation.rawValue)"
        return "window \(w)x\(h) (\(String(cString: panel_window_video_driver())), \(String(cString: panel_window_renderer_name(handle)))\(turned))"
    }

    /// Closes the window. Safe twice.
    public func close() {
        guard !closed else { return }
        closed = true
        panel_window_close(handle)
    }
}

/// Why the window cannot be shown.
public enum WindowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SDL could not be loaded or started, or gave no window (no X server: `$DISPLAY` unset).
    case unavailable(String)
    /// SDL runs on another video driver than X11.
    case notX11(video: String)
    /// A size outside 1...16384.
    case size(width: Int, height: Int)
    /// An SDL call failed.
    case call(String, String)
    /// `present` after `close()`.
    case closed

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .unavailable(let why): "no window: \(why) (the window needs libSDL2-2.0.so.0 and an X server: is DISPLAY set?)"
        case .notX11(let video): "no window: SDL's video driver is \(video); the window needs x11 (is DISPLAY set? SDL_VIDEODRIVER=x11 also works under XWayland)"
        case let .size(w, h): "no window of \(w)x\(h): each side must be from 1 to 16384"
        case let .call(name, why): "\(name) failed: \(why)"
        case .closed: "the window is closed"
        }
    }
}
