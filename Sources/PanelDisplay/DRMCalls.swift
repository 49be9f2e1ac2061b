import Foundation

/// A display mode (a row of the connector's mode list).
public struct DRMMode: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Hz.
    public var refresh: Int
    /// DRM_MODE_TYPE_PREFERRED: the panel's native mode.
    public var isPreferred: Bool
    public var name: String
    /// The kernel's record, handed back to SetCrtc unchanged (opaque; empty in tests).
    public var raw: [UInt8]

    public init(width: Int, height: Int, refresh: Int, isPreferred: Bool, name: String, raw: [UInt8] = []) {
        self.width = width
        self.height = height
        self.refresh = refresh
        self.isPreferred = isPreferred
        self.name = name
        self.raw = raw
    }
}

public struct DRMResources: Sendable, Hashable {
    public var connectors: [UInt32]
    public var crtcs: [UInt32]
    public var encoders: [UInt32]
    public init(connectors: [UInt32], crtcs: [UInt32], encoders: [UInt32]) {
        self.connectors = connectors
        self.crtcs = crtcs
        self.encoders = encoders
    }
}

public struct DRMConnector: Sendable, Hashable {
    public var id: UInt32
    public var isConnected: Bool
    public var modes: [DRMMode]
    /// The encoder in use, 0 for none.
    public var encoder: UInt32
    public var encoders: [UInt32]
    public init(id: UInt32, isConnected: Bool, modes: [DRMMode], encoder: UInt32, encoders: [UInt32]) {
        self.id = id
        self.isConnected = isConnected
        self.modes = modes
        self.encoder = encoder
        self.encoders = encoders
    }
}

public struct DRMEncoder: Sendable, Hashable {
    public var id: UInt32
    /// The CRTC in use, 0 for none.
    public var crtc: UInt32
    /// Bit i: the i-th CRTC of the resources can drive it.
    public var possibleCrtcs: UInt32
    public init(id: UInt32, crtc: UInt32, possibleCrtcs: UInt32) {
        self.id = id
        self.crtc = crtc
        self.possibleCrtcs = possibleCrtcs
    }
}

/// A CRTC's state, saved at start and restored at exit.
public struct DRMCrtc: Sendable, Hashable {
    public var id: UInt32
    public var framebuffer: UInt32
    public var x: Int
    public var y: Int
    public var mode: DRMMode?
    public init(id: UInt32, framebuffer: UInt32, x: Int, y: Int, mode: DRMMode?) {
        self.id = id
        self.framebuffer = framebuffer
        self.x = x
        self.y = y
        self.mode = mode
    }
}

public struct DRMDumbBuffer: Sendable, Hashable {
    public var handle: UInt32
    /// Bytes per row.
    public var pitch: Int
    public var size: Int
    public init(handle: UInt32, pitch: Int, size: Int) {
        self.handle = handle
        self.pitch = pitch
        self.size = size
    }
}

/// Every call PanelDisplay makes into the kernel's DRM interface: the one seam that lets tests
/// check the bring-up and tear-down order and inject EBUSY, EACCES, ENODEV without hardware.
/// Calls throw `DisplayError.call` with the errno.
@MainActor
public protocol DRMCalls: AnyObject {
    /// The card nodes there are (/dev/dri/card*), sorted.
    func cards() -> [String]
    func open(_ path: String) throws -> Int32
    func close(_ fd: Int32)
    func resources(_ fd: Int32) throws -> DRMResources
    func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector
    func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder
    func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc
    func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer
    func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32
    func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int)
    func removeFramebuffer(_ fd: Int32, _ id: UInt32)
    func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32)
    func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws
    /// Queues a flip to `framebuffer` at the next vertical blank, with an event.
    func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws
    /// Reads pending events; returns how many page flips completed.
    func handleEvents(_ fd: Int32) throws -> Int
    /// Whether `fd` becomes readable within `timeout` seconds.
    func waitReadable(_ fd: Int32, timeout: Double) -> Bool
}

/// Why a display could not be brought up or used.
public enum DisplayError: Error, Sendable, Hashable, CustomStringConvertible {
    case noCard
    case noConnectedConnector(card: String)
    case noCrtc(card: String, connector: UInt32)
    /// The configured mode is not one the connector offers.
    case noSuchMode(card: String, width: Int, height: Int)
    /// Another program drives the card (EBUSY), or this one may not (EACCES / not DRM master:
    /// a compositor or a console holds it, or the service user is not in the video group).
    case busy(card: String, errno: Int32)
    case call(String, errno: Int32)
    /// `present` while the last frame is still waiting for its vertical blank.
    case flipPending
    /// No backend could be brought up; says why for each.
    case noDisplay(String)

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
        case .noDisplay(let reasons): return "no display: \(reasons)"
        }
    }
}
