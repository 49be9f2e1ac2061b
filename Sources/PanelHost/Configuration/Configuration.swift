import PanelInput
import PanelRender

/// What the host takes from a configuration, for an app and for the kiosk program alike: the
/// display (`[display]`), the touchscreens (`[input]`), the pictures' limits
/// (`limits.image-pixels`, `limits.image-cache-mb`), the texts' language (`appearance.locale`)
/// and where the headers keep their last-updated time (`state.directory`). The program's own
/// keys (its data source, rows, refreshes, broker, control socket, metrics) are the kiosk's
/// configuration, which holds this one. docs/configuration.md documents every key (a test
/// checks it), and says which are the host's.
public struct Configuration: KeyedConfiguration {
    /// What draws the picture (`display.backend`).
    public enum Backend: String, Sendable, CaseIterable {
        /// DRM, else fbdev, else a desktop window when a window system is there.
        case auto
        /// A DRM/KMS card.
        case drm
        /// A Linux framebuffer.
        case fbdev
        /// Memory only.
        case headless
        /// A desktop window through SDL2 (developing on a desktop: X11 or XWayland).
        case window
    }

    // [input]
    /// `input.devices`: touchscreen nodes; empty: every one udev reports.
    public var devices: [String] = []
    /// How the touchscreen is turned against the glass, beyond `displayRotation` (a sensor
    /// mounted differently from the panel); the touch mapping uses the sum of both.
    public var rotation: Rotation = .none
    /// `input.calibration`: libinput's matrix; nil: none (a device's udev property wins).
    public var calibration: CalibrationMatrix?
    /// `input.swap-axes`.
    public var swapAxes = false
    /// `input.invert-x`.
    public var invertX = false
    /// `input.invert-y`.
    public var invertY = false
    /// `input.position-axes`: the ABS codes that carry X and Y; nil: the usual ones.
    public var positionAxes: (x: UInt16, y: UInt16)?
    /// `input.grab`: take the touchscreens exclusively.
    public var grab = true
    /// `input.resample`: the list follows the finger at each frame's sample time, resampled
    /// between touch events (`PanRecognizer.Configuration.resamples`), rather than to each event.
    public var resample = true
    /// `input.filter`: how every touchscreen's positions are smoothed (a device's udev
    /// property PANEL_REFRESH_TOUCH_FILTER wins).
    public var filter: TouchFilter = .off

    /// The input settings as one value, for a picture turned by `picture` (by default
    /// `display.rotation`): touch follows the picture's turn plus the sensor's own.
    public func touchMapping(picture: Rotation? = nil) -> TouchMapping {
        TouchMapping(rotation: (picture ?? displayRotation).adding(rotation), calibration: calibration ?? .identity,
                     swapAxes: swapAxes, invertX: invertX, invertY: invertY, filter: filter)
    }

    // [display]
    /// `display.backend`.
    public var backend: Backend = .auto
    /// `display.card`: a DRM card node; nil: the first with a connected panel.
    public var card: String?
    /// `display.mode`: a mode instead of the panel's preferred one.
    public var mode: (width: Int, height: Int)?
    /// `display.framebuffer`: the fbdev node.
    public var framebuffer = "/dev/fb0"
    /// `display.headless-size`: the headless display's glass, pixels (`display.rotation` turns
    /// the picture on it).
    public var headlessSize = (width: 800, height: 480)
    /// `display.window-size`: the desktop window's pixels when it opens (it can be resized).
    public var windowSize = (width: 800, height: 480)
    /// `display.frame-window`: how long before its vblank a frame starts on a card, as
    /// `FrameScheduler` says: learned from frame costs (`auto`, the default), a stated figure
    /// in milliseconds, or `off` (a frame starts right after the last flip).
    public var frameWindow: FrameScheduler.Window = .learned
    /// `display.window-title`: the desktop window's title; nil: "PanelRefresh" for the
    /// program, else `appName`.
    public var windowTitle: String?
    /// The app's name (no file key: the app sets it): the tag of its log lines and its
    /// journal entries' SYSLOG_IDENTIFIER, and its window's title unless one is set. The
    /// program's own is "panel-refresh".
    public var appName = "panel-refresh"
    /// How the picture is turned on the glass, clockwise; touch follows it.
    public var displayRotation: Rotation = .none
    /// Seconds without touch or data change before the panel goes off; 0: never.
    public var blankAfter = 0.0
    /// The backlight turned off with the panel: a /sys/class/backlight entry, "auto" (the
    /// first there is) or "none".
    public var backlight = "auto"
    /// The light over the day: levels, the dim stage, the night and off hours.
    public var light = LightSettings()
    /// Burn-in care: how often and how far the picture moves while untouched.
    public var shift = PixelShift()

    // [appearance]
    /// `appearance.locale`: the texts' language; nil: the machine's `LANG`.
    public var locale: String?

    // [state]
    /// `state.directory`: where the headers keep their last-updated time (last-updated.json).
    public var stateDirectory = "/var/lib/panel-refresh"
    /// Whether `stateDirectory` was set by the file or `--set` (else `$STATE_DIRECTORY` wins).
    public var stateDirectoryIsSet = false

    // [limits]
    /// The most pixels one image may declare (`PNG.defaultMaxPixels`, 16 Mpx).
    public var maxImagePixels = PNG.defaultMaxPixels
    /// Bytes the decoded images may take together (`Renderer.defaultImageCacheBytes`).
    public var imageCacheBytes = Renderer.defaultImageCacheBytes

    /// The keys set and their text (``KeyedConfiguration/setKeys``).
    public var setKeys: [String: String] = [:]

    /// The built-in defaults (what an empty file gives).
    public init() {}

    /// The keys a running host takes in place at a reload (``Stage/reconfigure(_:)``):
    /// blanking, the light, the burn-in shift and resampling. The rest of `[display]` and `[input]` apply at
    /// the next start; the language, the pictures' limits and the state directory reach the
    /// views through the stage.
    public static let keysInPlace: Set<String> = [
        "display.blank-after", "display.backlight", "display.brightness", "display.dim-after", "display.dim-brightness",
        "display.night", "display.night-brightness", "display.off-hours", "display.shift-every", "display.shift-pixels",
        "input.resample",
    ]

    /// The keys that choose the display and the touchscreens: a reload that changes them
    /// applies them at the next start, as the journal says.
    public var deviceSettings: [String] {
        [devices.joined(separator: ","), "\(rotation)", "\(displayRotation)", backend.rawValue, card ?? "-"]
    }

    /// The host's keys, in the manual's order.
    public static let keys: [ConfigurationKey<Configuration>] = inputKeys + displayKeys + [
        ConfigurationKey(section: "appearance", name: "locale", doc: "language of the texts (en, zh_CN, zh_TW, ko, ru, uk, de, fr, es, it, pt, ja, ar, he; other codes: English); ar and he lay the kiosk out right to left; empty: LANG") { $0.locale = $1 },
        ConfigurationKey(section: "state", name: "directory", doc: "where the last-updated time is kept; unset: $STATE_DIRECTORY when systemd sets it (the unit's StateDirectory), else /var/lib/panel-refresh") {
            $0.stateDirectory = try ConfigurationValue.path($1)
            $0.stateDirectoryIsSet = true
        },
        ConfigurationKey(section: "limits", name: "image-pixels", doc: "the most pixels one image file may declare, checked from its header before decoding (65536 to 268435456; 16777216, 16 Mpx); a second floor may have at most four times the screen's pixels") {
            $0.maxImagePixels = try ConfigurationValue.integer($1, 65_536...268_435_456)
        },
        ConfigurationKey(section: "limits", name: "image-cache-mb", doc: "MiB the decoded images may take together, each kept at the size it is drawn (1 to 1024; 32)") {
            $0.imageCacheBytes = try ConfigurationValue.integer($1, 1...1024) << 20
        },
    ]

    private static let inputKeys: [ConfigurationKey<Configuration>] = [
        ConfigurationKey(section: "input", name: "devices", doc: "touchscreen nodes separated by commas; empty: every touchscreen udev reports") {
            $0.devices = try $1.split(separator: ",").map { try ConfigurationValue.path(TextFormat.trimmed($0)) }
        },
        ConfigurationKey(section: "input", name: "rotation", doc: "how far the touchscreen is turned against the glass beyond display.rotation, clockwise: 0, 90, 180 or 270 (for a sensor mounted differently from the panel)") {
            guard let r = Rotation(degrees: $1) else { throw ConfigurationValueError("\"\($1)\" is not 0, 90, 180 or 270") }
            $0.rotation = r
        },
        ConfigurationKey(section: "input", name: "calibration", doc: "six numbers as libinput's LIBINPUT_CALIBRATION_MATRIX; udev's property wins when a device has one") {
            guard let matrix = try? CalibrationMatrix(udevProperty: $1) else { throw ConfigurationValueError("want six numbers, e.g. 1 0 0 0 1 0") }
            $0.calibration = matrix
        },
        ConfigurationKey(section: "input", name: "swap-axes", doc: "exchange X and Y (true/false)") { $0.swapAxes = try ConfigurationValue.boolean($1) },
        ConfigurationKey(section: "input", name: "invert-x", doc: "mirror X (true/false)") { $0.invertX = try ConfigurationValue.boolean($1) },
        ConfigurationKey(section: "input", name: "invert-y", doc: "mirror Y (true/false)") { $0.invertY = try ConfigurationValue.boolean($1) },
        ConfigurationKey(section: "input", name: "position-axes", doc: "two hex ABS codes that carry X and Y, for quirky devices (e.g. 02,03)") {
            guard let axes = ConfigurationValue.axes($1) else { throw ConfigurationValueError("\"\($1)\" is not two hex ABS codes") }
            $0.positionAxes = axes
        },
        ConfigurationKey(section: "input", name: "grab", doc: "take the touchscreens exclusively (true/false)") { $0.grab = try ConfigurationValue.boolean($1) },
        ConfigurationKey(section: "input", name: "resample", doc: "move the list to where the finger is at each frame's time, resampled between touch events, rather than to each event (on/off; on)") {
            $0.resample = try ConfigurationValue.boolean($1)
        },
        ConfigurationKey(section: "input", name: "filter", doc: "smooth the touch positions of a noisy sensor: off, one-euro (the 1-euro filter: a cutoff of 1 Hz at rest, 0.05 Hz more per pt/s) or one-euro MIN-CUTOFF BETA; a device's udev property PANEL_REFRESH_TOUCH_FILTER wins (off)") {
            guard let filter = try? TouchFilter(text: $1) else {
                throw ConfigurationValueError("\"\($1)\" is not off, one-euro or one-euro MIN-CUTOFF BETA (0.01 to 100 Hz, 0 to 10)")
            }
            $0.filter = filter
        },
    ]

    private static let displayKeys: [ConfigurationKey<Configuration>] = [
        ConfigurationKey(section: "display", name: "backend", doc: "auto (DRM, else fbdev, else a desktop window where a window system is), drm, fbdev, headless or window (a desktop window through SDL2)") {
            $0.backend = try ConfigurationValue.choice($1, Backend.self)
        },
        ConfigurationKey(section: "display", name: "card", doc: "a DRM card node; empty: the first with a connected panel") { $0.card = try ConfigurationValue.path($1) },
        ConfigurationKey(section: "display", name: "mode", doc: "WIDTHxHEIGHT instead of the panel's preferred mode") { $0.mode = try ConfigurationValue.size($1) },
        ConfigurationKey(section: "display", name: "framebuffer", doc: "the fbdev node") { $0.framebuffer = try ConfigurationValue.path($1) },
        ConfigurationKey(section: "display", name: "rotation", doc: "how far the picture is turned clockwise on the glass: 0, 90, 180 or 270 (a portrait UI on a landscape panel); touch follows") {
            guard let r = Rotation(degrees: $1) else { throw ConfigurationValueError("\"\($1)\" is not 0, 90, 180 or 270") }
            $0.displayRotation = r
        },
        ConfigurationKey(section: "display", name: "blank-after", doc: "seconds without touch or data change before the panel (and its backlight) goes off, 0 to 86400; 0: never. The first touch wakes it and does nothing else") {
            $0.blankAfter = try ConfigurationValue.number($1, 0...86_400)
        },
        ConfigurationKey(section: "display", name: "backlight", doc: "the backlight turned off with the panel: a name under /sys/class/backlight, auto (the first there is) or none") {
            guard $1 == "auto" || $1 == "none" || (!$1.isEmpty && !$1.contains("/") && $1 != "." && $1 != "..") else {
                throw ConfigurationValueError("\"\($1)\" is not auto, none or a name under /sys/class/backlight")
            }
            $0.backlight = $1
        },
        ConfigurationKey(section: "display", name: "shift-every", doc: "burn-in care: seconds between moves of the whole picture by one pixel while nobody touches it, 10 to 86400; 0: never. The picture walks the square of shift-pixels around its place and back; touch follows it") {
            $0.shift.every = try ConfigurationValue.zeroOr($1, 10...86_400)
        },
        ConfigurationKey(section: "display", name: "shift-pixels", doc: "how far the picture may move from its place along each axis, pixels, 1 to 16 (4)") {
            $0.shift.pixels = try ConfigurationValue.integer($1, 1...16)
        },
        ConfigurationKey(section: "display", name: "brightness", doc: "percent of the backlight's maximum the panel is lit at by day, 1 to 100; without a backlight the picture is darkened") {
            $0.light.brightness = try ConfigurationValue.integer($1, 1...100)
        },
        ConfigurationKey(section: "display", name: "dim-after", doc: "seconds without touch or data change before the panel dims to dim-brightness, 0 to 86400; 0: never. A touch lights it again and acts") {
            $0.light.dimAfter = try ConfigurationValue.number($1, 0...86_400)
        },
        ConfigurationKey(section: "display", name: "dim-brightness", doc: "percent of the maximum the panel dims to, 1 to 100 (never brighter than it is lit)") {
            $0.light.dimBrightness = try ConfigurationValue.integer($1, 1...100)
        },
        ConfigurationKey(section: "display", name: "night", doc: "hours lit at night-brightness, HH:MM-HH:MM on the panel's clock (its time zone, daylight saving followed; 22:00-06:30 runs past midnight); empty: none") {
            $0.light.night = try ConfigurationValue.dayHours($1)
        },
        ConfigurationKey(section: "display", name: "night-brightness", doc: "percent of the maximum during the night hours, 1 to 100") {
            $0.light.nightBrightness = try ConfigurationValue.integer($1, 1...100)
        },
        ConfigurationKey(section: "display", name: "off-hours", doc: "hours the panel is off, HH:MM-HH:MM on the panel's clock; a touch lights it until it is idle for blank-after (else 60) seconds; new data does not; empty: none") {
            $0.light.offHours = try ConfigurationValue.dayHours($1)
        },
        ConfigurationKey(section: "display", name: "frame-window", doc: "how long before its vblank a frame starts on a DRM card, so that the touch it shows is fresh: auto (learned from what frames cost, plus 2 ms; 5 ms until measured), milliseconds 1 to 50, or off (right after the last flip)") {
            switch $1 {
            case "auto": $0.frameWindow = .learned
            case "off": $0.frameWindow = .off
            default: $0.frameWindow = .fixed(try ConfigurationValue.number($1, 1...50) / 1000)
            }
        },
        ConfigurationKey(section: "display", name: "headless-size", doc: "WIDTHxHEIGHT of the headless display's glass; display.rotation turns the picture on it as on a panel (90: the UI lays out HEIGHTxWIDTH)") { $0.headlessSize = try ConfigurationValue.size($1) },
        ConfigurationKey(section: "display", name: "window-size", doc: "WIDTHxHEIGHT of the desktop window when it opens") { $0.windowSize = try ConfigurationValue.size($1) },
        ConfigurationKey(section: "display", name: "window-title", doc: "the desktop window's title (PanelRefresh)") { $0.windowTitle = $1 },
    ]
}
