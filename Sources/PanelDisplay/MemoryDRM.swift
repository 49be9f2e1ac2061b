import Glibc

/// A DRM card in memory: one connector with one mode, dumb buffers in plain RAM, flips that
/// complete at the next `handleEvents()`. For benchmarks of the whole DRM path and for apps'
/// own tests; it answers like a legacy driver that accepts DirtyFB.
@MainActor
public final class MemoryDRM: DRMCalls {
    /// The mode's width.
    public let width: Int
    /// The mode's height.
    public let height: Int
    private var pending = 0
    private var nextID: UInt32 = 100
    private var memory: [UnsafeMutableRawPointer: Int] = [:]
    /// Each dumb buffer's memory, by its handle, and each framebuffer's buffer, by its id.
    private var mapped: [UInt32: UnsafeMutableRawPointer] = [:]
    private var framebuffers: [UInt32: DRMDumbBuffer] = [:]
    /// The framebuffer a waiting flip shows once it completes.
    private var flipTo: UInt32?
    /// The framebuffer the CRTC scans out: the last mode set's, or the last completed flip's
    /// (0: none yet).
    public private(set) var scanout: UInt32 = 0
    /// The time stamp flip events carry: the last `handleEvents()` time, seconds of the clock.
    public var now: () -> Double = { 0 }

    /// A card whose one mode is `width`×`height`.
    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }

    isolated deinit { for (pointer, _) in memory { pointer.deallocate() } }

    private func id() -> UInt32 {
        nextID += 1
        return nextID
    }

    /// One card, "memory".
    public func cards() -> [String] { ["memory"] }
    /// A descriptor that stands for the card.
    public func open(_ path: String) throws -> Int32 { 3 }
    /// Nothing to close.
    public func close(_ fd: Int32) {}
    /// One connector, one CRTC, one encoder.
    public func resources(_ fd: Int32) throws -> DRMResources { DRMResources(connectors: [1], crtcs: [2], encoders: [3]) }
    /// The one connector, connected, with the one mode.
    public func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector {
        DRMConnector(id: 1, isConnected: true, modes: [DRMMode(width: width, height: height, refresh: 60, isPreferred: true, name: "\(width)x\(height)")],
                     encoder: 3, encoders: [3])
    }
    /// The one encoder, feeding the one CRTC.
    public func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder { DRMEncoder(id: 3, crtc: 2, possibleCrtcs: 1) }
    /// The one CRTC, scanning out nothing yet.
    public func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc { DRMCrtc(id: 2, framebuffer: 0, x: 0, y: 0, mode: nil) }
    /// A buffer in plain memory.
    public func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer {
        DRMDumbBuffer(handle: id(), pitch: width * 4, size: width * height * 4)
    }
    /// A new framebuffer id.
    public func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32 {
        let framebuffer = id()
        framebuffers[framebuffer] = buffer
        return framebuffer
    }
    /// The buffer's memory.
    public func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: buffer.size, alignment: 4096)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.size)
        memory[pointer] = buffer.size
        mapped[buffer.handle] = pointer
        return pointer
    }
    /// Nothing to unmap (the memory is kept).
    public func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) {}
    /// Nothing to remove.
    public func removeFramebuffer(_ fd: Int32, _ id: UInt32) {}
    /// Nothing to destroy.
    public func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32) {}
    /// Accepts any configuration.
    public func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws {
        guard isMaster else { throw DisplayError.call("drmModeSetCrtc", errno: EACCES) }
        modesets += 1
        scanout = framebuffer
    }
    /// Whether the program is DRM master (dropped and taken by `dropMaster`/`acquireMaster`).
    public private(set) var isMaster = true
    /// SetCrtc calls so far (the bring-up's, and a mode set again after a pause or failure).
    public private(set) var modesets = 0
    /// Flips asked for so far.
    public private(set) var flips = 0
    /// Counts a flip whose event waits.
    public func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        guard isMaster else { throw DisplayError.call("drmModePageFlip", errno: EACCES) }
        pending += 1
        flips += 1
        flipTo = framebuffer
    }
    /// Completes every waiting flip, stamped with `now()`.
    public func handleEvents(_ fd: Int32) throws -> DRMFlipReport? {
        defer { pending = 0 }
        if pending > 0, let flipTo {
            scanout = flipTo
            self.flipTo = nil
        }
        return pending > 0 ? DRMFlipReport(count: pending, seconds: now()) : nil
    }
    /// What the glass shows: the scanned-out buffer's pixels (XRGB8888, a row after another,
    /// `width` a row), or nil before the first mode set. A test compares it with a frame drawn
    /// whole: damage that missed something leaves it behind on the glass.
    public func glassPixels() -> [UInt32]? {
        guard let buffer = framebuffers[scanout], let pointer = mapped[buffer.handle] else { return nil }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = pointer.advanced(by: y * buffer.pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { pixels[y * width + x] = row[x] }
        }
        return pixels
    }

    /// Readable while a flip waits.
    public func waitReadable(_ fd: Int32, timeout: Double) -> Bool { pending > 0 }
    /// Every capability reads 0 (no prefer-shadow hint, no dumb-buffer preference).
    public func capability(_ fd: Int32, _ capability: UInt64) -> UInt64? { 0 }
    /// No atomic support: the legacy path.
    public func enableAtomic(_ fd: Int32) -> Bool { false }
    /// No planes: the legacy path.
    public func planes(_ fd: Int32) throws -> [DRMPlane] { [] }
    /// A connector with a DPMS property; nothing else has properties.
    public func properties(_ fd: Int32, object: UInt32, type: DRMObjectType) throws -> [String: DRMProperty] {
        type == .connector ? ["DPMS": DRMProperty(id: 9, value: 0)] : [:]
    }
    /// Accepts any property.
    public func setProperty(_ fd: Int32, object: UInt32, type: DRMObjectType, property: UInt32, value: UInt64) throws {}
    /// A new blob id.
    public func createBlob(_ fd: Int32, _ bytes: [UInt8]) throws -> UInt32 { id() }
    /// Nothing to destroy.
    public func destroyBlob(_ fd: Int32, _ id: UInt32) {}
    /// Records the commit; a flip event is pending when it asked for one.
    public func atomicCommit(_ fd: Int32, _ entries: [DRMAtomicEntry], flags: DRMCommitFlags) throws {
        if flags.contains(.pageFlipEvent) { pending += 1 }
    }
    /// Master again.
    public func acquireMaster(_ fd: Int32) -> Bool {
        isMaster = true
        return true
    }
    /// Gives master up: mode sets and flips are refused until `acquireMaster`.
    public func dropMaster(_ fd: Int32) -> Bool {
        isMaster = false
        return true
    }
    /// Accepts any clips.
    public func dirtyFramebuffer(_ fd: Int32, _ framebuffer: UInt32, clips: [DRMClip]) throws {}
}
