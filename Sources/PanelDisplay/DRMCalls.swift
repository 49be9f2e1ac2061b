import Glibc

/// A display mode (a row of the connector's mode list).
public struct DRMMode: Sendable, Hashable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Hz.
    public var refresh: Int
    /// DRM_MODE_TYPE_PREFERRED: the panel's native mode.
    public var isPreferred: Bool
    /// The kernel's name of the mode ("1280x800").
    public var name: String
    /// The kernel's record, handed back to SetCrtc unchanged (opaque; empty in tests).
    public var raw: [UInt8]

    /// A mode; `raw` is the kernel's record (empty in tests).
    public init(width: Int, height: Int, refresh: Int, isPreferred: Bool, name: String, raw: [UInt8] = []) {
        self.width = width
        self.height = height
        self.refresh = refresh
        self.isPreferred = isPreferred
        self.name = name
        self.raw = raw
    }
}

/// The objects of a card (drmModeGetResources).
public struct DRMResources: Sendable, Hashable {
    /// Connector ids.
    public var connectors: [UInt32]
    /// CRTC ids.
    public var crtcs: [UInt32]
    /// Encoder ids.
    public var encoders: [UInt32]
    /// The card's objects.
    public init(connectors: [UInt32], crtcs: [UInt32], encoders: [UInt32]) {
        (self.connectors, self.crtcs, self.encoders) = (connectors, crtcs, encoders)
    }
}

/// A connector (drmModeGetConnector): an output and the modes its panel offers.
public struct DRMConnector: Sendable, Hashable {
    /// The connector's id.
    public var id: UInt32
    /// Whether a panel is plugged in.
    public var isConnected: Bool
    /// The modes the panel offers, preferred first when it says so.
    public var modes: [DRMMode]
    /// The encoder in use, 0 for none.
    public var encoder: UInt32
    /// The encoders that can drive it.
    public var encoders: [UInt32]
    /// A connector's record.
    public init(id: UInt32, isConnected: Bool, modes: [DRMMode], encoder: UInt32, encoders: [UInt32]) {
        (self.id, self.isConnected, self.modes, self.encoder, self.encoders) = (id, isConnected, modes, encoder, encoders)
    }
}

/// An encoder (drmModeGetEncoder).
public struct DRMEncoder: Sendable, Hashable {
    /// The encoder's id.
    public var id: UInt32
    /// The CRTC in use, 0 for none.
    public var crtc: UInt32
    /// Bit i: the i-th CRTC of the resources can drive it.
    public var possibleCrtcs: UInt32
    /// An encoder's record; `possibleCrtcs` is a bit mask of CRTC indices.
    public init(id: UInt32, crtc: UInt32, possibleCrtcs: UInt32) {
        (self.id, self.crtc, self.possibleCrtcs) = (id, crtc, possibleCrtcs)
    }
}

/// A CRTC's state, saved at start and restored at exit.
public struct DRMCrtc: Sendable, Hashable {
    /// The CRTC's id.
    public var id: UInt32
    /// The framebuffer it scans out (0: none).
    public var framebuffer: UInt32
    /// The scanout's left edge in the framebuffer.
    public var x: Int
    /// The scanout's top edge in the framebuffer.
    public var y: Int
    /// The mode it runs (nil: off).
    public var mode: DRMMode?
    /// A CRTC's record.
    public init(id: UInt32, framebuffer: UInt32, x: Int, y: Int, mode: DRMMode?) {
        (self.id, self.framebuffer, self.x, self.y, self.mode) = (id, framebuffer, x, y, mode)
    }
}

/// A dumb buffer: memory the kernel scans out, written by the program.
public struct DRMDumbBuffer: Sendable, Hashable {
    /// The buffer's GEM handle.
    public var handle: UInt32
    /// Bytes per row.
    public var pitch: Int
    /// Bytes of the whole buffer.
    public var size: Int
    /// A buffer's record: `pitch` bytes per row.
    public init(handle: UInt32, pitch: Int, size: Int) { (self.handle, self.pitch, self.size) = (handle, pitch, size) }
}

/// What a read of the card's events found: how many flips (legacy or atomic) completed, and
/// when the last one did.
public struct DRMFlipReport: Sendable, Hashable {
    /// Flips completed by this read.
    public var count: Int
    /// The flip's time stamp, seconds of CLOCK_MONOTONIC (the kernel stamps page-flip events on
    /// the same clock as evdev events once `libevdev_set_clock_id` asked for it).
    public var seconds: Double
    /// A report of `count` flips, the last at `seconds`.
    public init(count: Int, seconds: Double) { (self.count, self.seconds) = (count, seconds) }
}

/// A KMS object type, for property queries (drm_mode.h's DRM_MODE_OBJECT_*).
public enum DRMObjectType: UInt32, Sendable {
    /// DRM_MODE_OBJECT_CRTC.
    case crtc = 0xcccc_cccc
    /// DRM_MODE_OBJECT_CONNECTOR.
    case connector = 0xc0c0_c0c0
    /// DRM_MODE_OBJECT_PLANE.
    case plane = 0xeeee_eeee
}

/// One property of a KMS object: its id, current value and, for enum and bitmask properties,
/// the names of its values (a bitmask's values are bit numbers).
public struct DRMProperty: Sendable, Hashable {
    /// The property's id.
    public var id: UInt32
    /// Its current value.
    public var value: UInt64
    /// For an enum property, its names' values (DPMS "On", "Off").
    public var enums: [String: UInt64]
    /// A property's record.
    public init(id: UInt32, value: UInt64, enums: [String: UInt64] = [:]) {
        (self.id, self.value, self.enums) = (id, value, enums)
    }
}

/// A plane (drmModeGetPlane).
public struct DRMPlane: Sendable, Hashable {
    /// The plane's id.
    public var id: UInt32
    /// Bit i: the plane can be used with the i-th CRTC of the resources.
    public var possibleCrtcs: UInt32
    /// A plane's record; `possibleCrtcs` is a bit mask of CRTC indices.
    public init(id: UInt32, possibleCrtcs: UInt32) { (self.id, self.possibleCrtcs) = (id, possibleCrtcs) }
}

/// A rectangle in framebuffer pixels, as FB_DAMAGE_CLIPS and DirtyFB take it (x2, y2 exclusive).
public struct DRMClip: Sendable, Hashable {
    /// The clip's corners, pixels: left, top, right (exclusive), bottom (exclusive).
    public var x1: Int32, y1: Int32, x2: Int32, y2: Int32
    /// A clip from (`x1`, `y1`) to (`x2`, `y2`).
    public init(x1: Int32, y1: Int32, x2: Int32, y2: Int32) { (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2) }
}

/// One property assignment of an atomic request.
public struct DRMAtomicEntry: Sendable, Hashable {
    /// The object set.
    public var object: UInt32
    /// The property set.
    public var property: UInt32
    /// The value.
    public var value: UInt64
    /// One property of one object.
    public init(object: UInt32, property: UInt32, value: UInt64) {
        (self.object, self.property, self.value) = (object, property, value)
    }
}

/// Flags of an atomic commit (drm_mode.h).
public struct DRMCommitFlags: OptionSet, Sendable, Hashable {
    /// The DRM_MODE_* flag bits.
    public let rawValue: UInt32
    /// Flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// DRM_MODE_PAGE_FLIP_EVENT: an event when the commit is on screen.
    public static let pageFlipEvent = DRMCommitFlags(rawValue: 0x01)
    /// DRM_MODE_ATOMIC_NONBLOCK: return at once; the event says when it is done.
    public static let nonBlocking = DRMCommitFlags(rawValue: 0x0200)
    /// DRM_MODE_ATOMIC_ALLOW_MODESET: the commit may switch the CRTC on or off.
    public static let allowModeset = DRMCommitFlags(rawValue: 0x0400)
}

/// Every call PanelDisplay makes into the kernel's DRM interface: the one seam that lets tests
/// check the bring-up and tear-down order and inject EBUSY, EACCES, ENODEV without hardware.
/// Calls throw `DisplayError.call` with the errno.
@MainActor
public protocol DRMCalls: AnyObject {
    /// The card nodes there are (/dev/dri/card*), sorted.
    func cards() -> [String]
    /// Opens the card node `path` read-write; returns its descriptor.
    func open(_ path: String) throws -> Int32
    /// Closes the card's descriptor.
    func close(_ fd: Int32)
    /// drmModeGetResources: the card's connectors, CRTCs and encoders.
    func resources(_ fd: Int32) throws -> DRMResources
    /// drmModeGetConnector: connector `id`, whether something is plugged in, its modes.
    func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector
    /// drmModeGetEncoder: encoder `id` and the CRTCs it can feed.
    func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder
    /// drmModeGetCrtc: CRTC `id` and what it scans out now.
    func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc
    /// DRM_IOCTL_MODE_CREATE_DUMB: a buffer of `width`×`height` at `bitsPerPixel`.
    func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer
    /// drmModeAddFB2: a framebuffer of `format` over `buffer`; returns its id.
    func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32
    /// Maps a dumb buffer into memory (DRM_IOCTL_MODE_MAP_DUMB, mmap).
    func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer
    /// Unmaps memory `map` returned.
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int)
    /// drmModeRmFB.
    func removeFramebuffer(_ fd: Int32, _ id: UInt32)
    /// DRM_IOCTL_MODE_DESTROY_DUMB.
    func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32)
    /// drmModeSetCrtc: `crtc` scans out `framebuffer` from (`x`, `y`) on `connectors` in `mode`.
    func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws
    /// Queues a flip to `framebuffer` at the next vertical blank, with an event.
    func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws
    /// Reads pending events; nil when no flip completed.
    func handleEvents(_ fd: Int32) throws -> DRMFlipReport?
    /// drmGetCap; nil when the kernel does not know the capability.
    func capability(_ fd: Int32, _ capability: UInt64) -> UInt64?
    /// Asks for universal planes and atomic commits (DRM_CLIENT_CAP_ATOMIC); false when the
    /// driver has no atomic support.
    func enableAtomic(_ fd: Int32) -> Bool
    /// drmModeGetPlaneResources and drmModeGetPlane: the planes and the CRTCs each can serve.
    func planes(_ fd: Int32) throws -> [DRMPlane]
    /// The object's properties by name.
    func properties(_ fd: Int32, object: UInt32, type: DRMObjectType) throws -> [String: DRMProperty]
    /// Sets one property outside an atomic request (the connector's DPMS on legacy drivers).
    func setProperty(_ fd: Int32, object: UInt32, type: DRMObjectType, property: UInt32, value: UInt64) throws
    /// drmModeCreatePropertyBlob: a blob of `bytes` (a mode, damage clips); returns its id.
    func createBlob(_ fd: Int32, _ bytes: [UInt8]) throws -> UInt32
    /// drmModeDestroyPropertyBlob.
    func destroyBlob(_ fd: Int32, _ id: UInt32)
    /// drmModeAtomicCommit of `entries` with `flags` (test only, nonblocking, page-flip event, allow modeset).
    func atomicCommit(_ fd: Int32, _ entries: [DRMAtomicEntry], flags: DRMCommitFlags) throws
    /// drmSetMaster: takes the card back after another program held it; false when refused.
    func acquireMaster(_ fd: Int32) -> Bool
    /// drmDropMaster: lets another program (the console, the next VT's owner) drive the card.
    func dropMaster(_ fd: Int32) -> Bool
    /// drmModeDirtyFB: tells drivers that upload only on request (virtio-gpu, USB and SPI
    /// panels) which parts of the framebuffer changed. ENOSYS: the driver does not need it.
    func dirtyFramebuffer(_ fd: Int32, _ framebuffer: UInt32, clips: [DRMClip]) throws
    /// Whether `fd` becomes readable within `timeout` seconds.
    func waitReadable(_ fd: Int32, timeout: Double) -> Bool
}

/// Why a display could not be brought up or used.
public enum DisplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No DRM card in /dev/dri.
    case noCard
    /// The card has no connector with a panel plugged in.
    case noConnectedConnector(card: String)
    /// No CRTC can drive the connector.
    case noCrtc(card: String, connector: UInt32)
    /// The configured mode is not one the connector offers.
    case noSuchMode(card: String, width: Int, height: Int)
    /// Another program drives the card (EBUSY), or this one may not (EACCES / not DRM master:
    /// a compositor or a console holds it, or the service user is not in the video group).
    case busy(card: String, errno: Int32)
    /// A libdrm call failed with `errno`.
    case call(String, errno: Int32)
    /// `present` while the last frame is still waiting for its vertical blank.
    case flipPending
    /// `present` while the panel is off.
    case blank
    /// `present` while the panel is unplugged.
    case disconnected(card: String)
    /// No backend could be brought up; says why for each.
    case noDisplay(String)
    /// `present` while the display is paused (its VT switched away, or logind paused the card).
    case paused

    /// What failed, naming the card, call and errno.
    public var description: String {
        func message(_ e: Int32) -> String { String(cString: strerror(e)) + " (errno \(e))" }
        switch self {
        case .noCard: return "no DRM card (no /dev/dri/card*): no KMS driver, or the device is not passed through"
        case .noConnectedConnector(let card): return "\(card): no connected connector with a mode (is a panel plugged in?)"
        case let .noCrtc(card, connector): return "\(card): no CRTC can drive connector \(connector)"
        case let .noSuchMode(card, w, h): return "\(card): the connector offers no \(w)x\(h) mode"
        case let .busy(card, e): return "\(card): cannot take the display: \(message(e)); another program (a compositor, a console) may hold it"
        case let .call(name, e): return "\(name) failed: \(message(e))"
        case .flipPending: return "a frame is already waiting for its vertical blank"
        case .blank: return "the panel is off"
        case .disconnected(let card): return "\(card): the panel is disconnected"
        case .noDisplay(let reasons): return "no display: \(reasons)"
        case .paused: return "the display is paused (another VT is in front)"
        }
    }
}
