import Glibc
@testable import PanelDisplay
import PanelUI

/// A DRM card in memory: logs every call and fails the ones it is told to.
@MainActor
public final class FakeDRM: DRMCalls {
    public var log: [String] = []
    public var failures: [String: Int32] = [:]
    public var cardList = ["/dev/dri/card0"]
    public var connectors: [DRMConnector] = [
        DRMConnector(id: 30, isConnected: false, modes: [], encoder: 0, encoders: [40]),
        DRMConnector(id: 31, isConnected: true,
                     modes: [DRMMode(width: 1920, height: 1080, refresh: 60, isPreferred: false, name: "1920x1080"),
                             DRMMode(width: 1280, height: 720, refresh: 60, isPreferred: true, name: "1280x720")],
                     encoder: 0, encoders: [41]),
    ]
    public var pendingFlips = 0
    /// Cards whose connectors all report disconnected.
    public var disconnectedCards: Set<String> = []
    /// Whether the driver has atomic KMS, and whether its primary plane takes damage clips.
    public var atomic = false
    public var damageClips = false
    /// What DirtyFB answers (nil: success).
    public var dirtyErrno: Int32?
    /// The time stamp flip events carry, seconds.
    public var flipTime = 100.0
    /// Damage-clip blobs by id, as the kernel would read them.
    public var blobs: [UInt32: [UInt8]] = [:]
    /// Every mapping handed out: scanout memory.
    public var mappings: [(start: UnsafeMutableRawPointer, size: Int)] = []
    private var openCard = ""
    private var nextID: UInt32 = 100
    private var memory: [UnsafeMutableRawPointer] = []

    /// A card with one connected connector (1280x720 preferred) and legacy KMS.
    public init() {}

    isolated deinit { for m in memory { m.deallocate() } }

    private func call(_ name: String) throws {
        log.append(name)
        if let e = failures[name.split(separator: " ")[0].description] { throw DisplayError.call(name, errno: e) }
    }

    private func id() -> UInt32 {
        nextID += 1
        return nextID
    }

    /// Whether `pointer` lies in scanout memory.
    public func isScanout(_ pointer: UnsafeRawPointer) -> Bool {
        mappings.contains { pointer >= UnsafeRawPointer($0.start) && pointer < UnsafeRawPointer($0.start + $0.size) }
    }

    public func cards() -> [String] { cardList }
    public func open(_ path: String) throws -> Int32 {
        try call("open \(path)")
        openCard = path
        return 7
    }
    public func close(_ fd: Int32) { log.append("close") }
    public func resources(_ fd: Int32) throws -> DRMResources {
        try call("resources")
        return DRMResources(connectors: connectors.map(\.id), crtcs: [50, 51], encoders: [40, 41])
    }
    public func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector {
        try call("connector \(id)")
        var connector = connectors.first { $0.id == id } ?? DRMConnector(id: id, isConnected: false, modes: [], encoder: 0, encoders: [])
        if disconnectedCards.contains(openCard) { connector.isConnected = false }
        return connector
    }
    public func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder {
        try call("encoder \(id)")
        return DRMEncoder(id: id, crtc: 0, possibleCrtcs: 0b10)
    }
    public func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc {
        try call("crtc \(id)")
        return DRMCrtc(id: id, framebuffer: 9, x: 0, y: 0, mode: DRMMode(width: 640, height: 480, refresh: 60, isPreferred: false, name: "console"))
    }
    public func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer {
        try call("createDumb \(width)x\(height)x\(bitsPerPixel)")
        return DRMDumbBuffer(handle: id(), pitch: width * 4, size: width * height * 4)
    }
    public func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32 {
        try call("addFB \(buffer.handle)")
        return id()
    }
    public func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer {
        try call("map \(buffer.handle)")
        let m = UnsafeMutableRawPointer.allocate(byteCount: buffer.size, alignment: 64)
        // Dumb buffers start zeroed.
        m.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.size)
        memory.append(m)
        mappings.append((m, buffer.size))
        return m
    }
    public func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { log.append("unmap") }
    public func removeFramebuffer(_ fd: Int32, _ id: UInt32) { log.append("rmFB \(id)") }
    public func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32) { log.append("destroyDumb \(handle)") }
    public func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws {
        try call("setCrtc \(crtc) fb=\(framebuffer) mode=\(mode?.name ?? "none")")
    }
    public func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        try call("flip \(crtc) fb=\(framebuffer)")
        pendingFlips += 1
    }
    public func handleEvents(_ fd: Int32) throws -> DRMFlipReport? {
        try call("events")
        defer { pendingFlips = 0 }
        return pendingFlips > 0 ? DRMFlipReport(count: pendingFlips, seconds: flipTime) : nil
    }
    public func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        log.append("wait")
        return pendingFlips > 0
    }
    public func capability(_ fd: Int32, _ capability: UInt64) -> UInt64? {
        log.append("cap \(capability)")
        return capability == 4 ? 1 : nil
    }
    public func enableAtomic(_ fd: Int32) -> Bool {
        log.append("atomic")
        return atomic
    }
    public func planes(_ fd: Int32) throws -> [DRMPlane] {
        try call("planes")
        return [DRMPlane(id: 60, possibleCrtcs: 0b01), DRMPlane(id: 61, possibleCrtcs: 0b10), DRMPlane(id: 62, possibleCrtcs: 0b10)]
    }
    public func properties(_ fd: Int32, object: UInt32, type: DRMObjectType) throws -> [String: DRMProperty] {
        try call("properties \(object)")
        switch type {
        case .crtc: return ["ACTIVE": DRMProperty(id: 70, value: 1)]
        case .connector: return ["DPMS": DRMProperty(id: 73, value: 0)]
        case .plane:
            // 62 is an overlay (type 0); 61 the primary.
            var p = ["type": DRMProperty(id: 74, value: object == 62 ? 0 : 1), "FB_ID": DRMProperty(id: 71, value: 0),
                     "rotation": DRMProperty(id: 75, value: 1, enums: ["rotate-0": 0, "rotate-180": 2])]
            if damageClips { p["FB_DAMAGE_CLIPS"] = DRMProperty(id: 72, value: 0) }
            return p
        }
    }
    public func setProperty(_ fd: Int32, object: UInt32, type: DRMObjectType, property: UInt32, value: UInt64) throws {
        try call("setProperty \(object).\(property)=\(value)")
    }
    public func createBlob(_ fd: Int32, _ bytes: [UInt8]) throws -> UInt32 {
        try call("blob \(bytes.count)")
        let blob = id()
        blobs[blob] = bytes
        return blob
    }
    public func destroyBlob(_ fd: Int32, _ id: UInt32) { log.append("destroyBlob \(id)") }
    public func atomicCommit(_ fd: Int32, _ entries: [DRMAtomicEntry], flags: DRMCommitFlags) throws {
        try call("commit " + entries.map { "\($0.object).\($0.property)=\($0.value)" }.joined(separator: ",") + " flags=\(flags.rawValue)")
        if flags.contains(.pageFlipEvent) { pendingFlips += 1 }
    }
    public func acquireMaster(_ fd: Int32) -> Bool {
        log.append("master")
        return true
    }
    public func dropMaster(_ fd: Int32) -> Bool {
        log.append("drop master")
        return true
    }
    public func dirtyFramebuffer(_ fd: Int32, _ framebuffer: UInt32, clips: [DRMClip]) throws {
        log.append("dirty fb=\(framebuffer) " + clips.map { "\($0.x1),\($0.y1)-\($0.x2),\($0.y2)" }.joined(separator: " "))
        if let dirtyErrno { throw DisplayError.call("drmModeDirtyFB", errno: dirtyErrno) }
    }

    /// The pixel at (x, y) of the buffer behind framebuffer `index` (0 or 1), as the glass
    /// would show it (a test's look at scanout memory, never the display's).
    public func glassPixel(buffer index: Int, x: Int, y: Int, width: Int) -> UInt32 {
        mappings[index].start.load(fromByteOffset: (y * width + x) * 4, as: UInt32.self) | 0xff00_0000
    }
}
