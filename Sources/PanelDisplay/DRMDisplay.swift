import Glibc
import PanelRender
import PanelUI

/// A panel driven through KMS: a connected connector in its preferred (or a configured)
/// mode, two dumb buffers, a flip per frame (an atomic commit with damage clips where the
/// driver has atomic KMS, a page flip otherwise), never two pending.
///
/// Frames are drawn into a shadow surface in RAM; `present` copies what each dumb buffer is
/// missing into it (this frame's damage and what changed since that buffer was last shown),
/// turned for `rotation`, and never reads a mapped buffer: on real boards they are
/// write-combined or uncached.
///
/// Resources are acquired in order (card, CRTC state, buffers, framebuffers, mappings, mode)
/// and released in reverse, also when bring-up fails half way; `close()` waits for a pending
/// flip and restores the CRTC as it was, so the console comes back.
@MainActor
public final class DRMDisplay: Display {
    /// The card node in use (after the card went away and came back, the one found then).
    public private(set) var card: String
    /// Picture pixels (the mode's, exchanged for 90 and 270 degrees).
    public private(set) var width: Int
    /// The picture's height, pixels (after rotation).
    public private(set) var height: Int
    /// XRGB8888: what every KMS driver scans out.
    public let format: PixelFormat = .xrgb8888
    /// The mode the connector runs.
    public private(set) var mode: DRMMode
    /// The connector driven.
    public private(set) var connector: UInt32
    /// The CRTC that drives it.
    public private(set) var crtc: UInt32
    /// How the picture is turned on the glass (a rotating copy into the dumb buffers).
    public let rotation: Rotation
    /// How frames reach the glass.
    public private(set) var presentPath: DRMPresentPath
    /// What the driver answers to DRM_CAP_DUMB_PREFER_SHADOW (nil: it does not know the
    /// question). Frames are drawn in a shadow either way; this is for the log.
    public private(set) var driverPrefersShadow: Bool?
    /// The shadow the renderer draws in (replaced when the panel comes back in another mode).
    public private(set) var backSurface: Surface
    /// The last page-flip event's time stamp, seconds of CLOCK_MONOTONIC.
    public private(set) var lastPresentationTime: Double?
    /// Whether the panel is off (DPMS or an inactive CRTC).
    public private(set) var isBlank = false
    /// False after a hotplug event found the panel gone.
    public private(set) var isConnected = true
    /// Whether another VT is in front (or logind paused the card): no frames, no DRM master.
    public private(set) var isPaused = false

    /// Times the card was opened anew after it went away (`eventDescriptor` changed).
    public private(set) var eventDescriptorGeneration = 0

    private let drm: any DRMCalls
    private var fd: Int32
    private var saved: DRMCrtc?
    /// The card asked for at start (nil: the first with a connected panel), looked for again
    /// when the card goes away.
    private let requestedPath: String?
    private let configuredSize: (width: Int, height: Int)?
    /// The card's device went away (unplugged, its driver unbound): every call on `fd` fails
    /// with ENODEV until a card is found again.
    private var cardIsGone = false
    /// Descriptors of cards that went away, open until the loop stops watching them
    /// (`releaseRetiredDescriptors`): a descriptor must not be closed under a read source.
    private var retired: [Int32] = []
    private struct Buffer {
        var dumb: DRMDumbBuffer
        var framebuffer: UInt32
        var pixels: UnsafeMutableRawPointer
        var target: ScanoutTarget
        /// What this buffer lacks of the shadow, picture pixels.
        var stale: PixelRegion
    }
    private var buffers: [Buffer] = []
    private var front = 0
    private var pendingCompletion: (@MainActor () -> Void)?
    /// The next frame sets the mode (SetCrtc) instead of flipping: after a failed flip or
    /// commit, whoever took the card may have changed it.
    private var needsModeset = false
    /// Cleared when the driver answers ENOSYS: it shows writes without being told.
    private var dirtyFramebufferWorks = true
    private var closed = false

    /// How long `close()` waits for a pending flip, seconds (two frames at 30 Hz).
    public static let drainTimeout: Double = 0.066

    /// - Parameters:
    ///   - path: a card node; nil: the first card with a connected connector.
    ///   - size: a mode to use instead of the preferred one.
    ///   - rotation: how the picture is turned on the glass.
    ///   - drm: the DRM calls (libdrm; `MemoryDRM` in tests).
    public init(path: String? = nil, size: (width: Int, height: Int)? = nil, rotation: Rotation = .none,
                drm: any DRMCalls = LibDRM()) throws {
        self.drm = drm
        requestedPath = path
        let found = try Self.find(drm, path: path, size: size)
        card = found.card
        fd = found.fd
        connector = found.connector
        crtc = found.crtc
        mode = found.mode
        configuredSize = size
        self.rotation = rotation
        (width, height) = Self.pictureSize(found.mode, rotation)
        backSurface = Surface(width: 1, height: 1)
        (saved, driverPrefersShadow, presentPath) = Self.inspect(drm, fd: found.fd, crtc: found.crtc)
        do {
            try bringUp()
        } catch {
            drm.close(found.fd)
            closed = true
            throw error
        }
    }

    /// What is read from a card once it is opened, at start and when it comes back: its CRTC
    /// as it was (put back at `close()`), whether the driver prefers a shadow, and how frames
    /// reach the glass.
    private static func inspect(_ drm: any DRMCalls, fd: Int32, crtc: UInt32)
        -> (saved: DRMCrtc?, prefersShadow: Bool?, presentPath: DRMPresentPath) {
        (try? drm.crtc(fd, crtc),
         drm.capability(fd, DRMPresentPath.preferShadowCapability).map { $0 != 0 },
         DRMPresentPath.find(drm, fd: fd, crtc: crtc))
    }

    static func pictureSize(_ mode: DRMMode, _ rotation: Rotation) -> (Int, Int) {
        rotation.swapsSides ? (mode.height, mode.width) : (mode.width, mode.height)
    }

    /// The front buffer, the one the CRTC scans out (nil before the first mode set, or once
    /// closed). Read from the mapping, which is slow on write-combined memory: for a screenshot.
    public func glassSnapshot() -> GlassSnapshot? {
        guard !closed, buffers.indices.contains(front) else { return nil }
        return buffers[front].target.snapshot()
    }

    /// The card, connector, mode, present path and rotation.
    public var summary: String {
        let path: String
        switch presentPath {
        case .atomic(let plane):
            path = "atomic commits on plane \(plane.plane)" + (plane.damageClipsProperty != nil ? " with damage clips" : " (the driver takes no damage clips)")
        case .legacy:
            path = "page flips" + (dirtyFramebufferWorks ? " with DirtyFB" : "")
        }
        let shadow = driverPrefersShadow.map { $0 ? "yes" : "no" } ?? "not said"
        return "\(card) \(mode.width)x\(mode.height)@\(mode.refresh) connector \(connector) crtc \(crtc), \(path), "
            + "rotation \(rotation.rawValue)" + (rotation == .none ? "" : " by copy") + ", driver prefers a shadow: \(shadow)"
    }

    /// The first card (the given one, or each in turn) with a usable connector, opened.
    private static func find(_ drm: any DRMCalls, path: String?, size: (width: Int, height: Int)?) throws
        -> (card: String, fd: Int32, connector: UInt32, mode: DRMMode, crtc: UInt32) {
        let candidates = path.map { [$0] } ?? drm.cards()
        guard !candidates.isEmpty else { throw DisplayError.noCard }
        var lastError: any Error = DisplayError.noCard
        for card in candidates {
            let fd: Int32
            do {
                fd = try drm.open(card)
            } catch {
                lastError = error
                continue
            }
            do {
                let choice = try choose(drm, fd: fd, card: card, size: size)
                return (card, fd, choice.connector, choice.mode, choice.crtc)
            } catch {
                lastError = error
                drm.close(fd)
            }
        }
        throw lastError
    }

    /// Picks a connected connector, its mode and a CRTC that can drive it.
    private static func choose(_ drm: any DRMCalls, fd: Int32, card: String, size: (width: Int, height: Int)?) throws
        -> (connector: UInt32, mode: DRMMode, crtc: UInt32) {
        let resources = try drm.resources(fd)
        for id in resources.connectors {
            let connector = try drm.connector(fd, id)
            guard connector.isConnected, !connector.modes.isEmpty else { continue }
            let mode: DRMMode
            if let size {
                guard let match = connector.modes.first(where: { $0.width == size.width && $0.height == size.height }) else {
                    throw DisplayError.noSuchMode(card: card, width: size.width, height: size.height)
                }
                mode = match
            } else {
                mode = connector.modes.first(where: \.isPreferred) ?? connector.modes[0]
            }
            // The CRTC already driving it, else the first one an encoder of it can use.
            if connector.encoder != 0, let encoder = try? drm.encoder(fd, connector.encoder), encoder.crtc != 0 {
                return (id, mode, encoder.crtc)
            }
            for encoderID in connector.encoders {
                guard let encoder = try? drm.encoder(fd, encoderID) else { continue }
                for (index, crtc) in resources.crtcs.enumerated() where encoder.possibleCrtcs & (1 << UInt32(index)) != 0 {
                    return (id, mode, crtc)
                }
            }
            throw DisplayError.noCrtc(card: card, connector: id)
        }
        throw DisplayError.noConnectedConnector(card: card)
    }

    /// Two buffers, their framebuffers and mappings, the shadow, then the mode. Undoes itself
    /// on failure.
    private func bringUp() throws {
        do {
            for _ in 0..<2 {
                let dumb = try drm.createDumbBuffer(fd, width: mode.width, height: mode.height, bitsPerPixel: 32)
                let framebuffer: UInt32
                do {
                    framebuffer = try drm.addFramebuffer(fd, width: mode.width, height: mode.height, format: DRMFormat.xrgb8888, buffer: dumb)
                } catch {
                    drm.destroyDumbBuffer(fd, dumb.handle)
                    throw error
                }
                let pixels: UnsafeMutableRawPointer
                do {
                    pixels = try drm.map(fd, dumb)
                } catch {
                    drm.removeFramebuffer(fd, framebuffer)
                    drm.destroyDumbBuffer(fd, dumb.handle)
                    throw error
                }
                let target = ScanoutTarget(pixels: pixels, width: mode.width, height: mode.height, stride: dumb.pitch, format: .xrgb8888)
                buffers.append(Buffer(dumb: dumb, framebuffer: framebuffer, pixels: pixels, target: target, stale: PixelRegion()))
            }
            backSurface = Surface(width: width, height: height, format: .xrgb8888)
            // The first buffer goes on screen as it is (dumb buffers start zeroed: black); both
            // lack the whole picture until frames fill them.
            markAllStale()
            front = 0
            do {
                try drm.setCrtc(fd, crtc: crtc, framebuffer: buffers[0].framebuffer, x: 0, y: 0, connectors: [connector], mode: mode)
            } catch DisplayError.call(_, let errno) where errno == EBUSY || errno == EACCES || errno == EPERM {
                throw DisplayError.busy(card: card, errno: errno)
            }
        } catch {
            releaseBuffers()
            throw error
        }
    }

    private func markAllStale() {
        let all = PixelRect(x: 0, y: 0, width: width, height: height)
        for index in buffers.indices {
            buffers[index].stale.removeAll()
            buffers[index].stale.add(all)
        }
    }

    private func releaseBuffers() {
        for buffer in buffers.reversed() {
            drm.unmap(buffer.pixels, size: buffer.dumb.size)
            drm.removeFramebuffer(fd, buffer.framebuffer)
            drm.destroyDumbBuffer(fd, buffer.dumb.handle)
        }
        buffers.removeAll()
    }

    /// The card's descriptor: page-flip events.
    public var eventDescriptor: Int32? { closed ? nil : fd }
    /// Whether a flip waits for its event.
    public var isFrameInFlight: Bool { pendingCompletion != nil }
    /// Flip events pace the frames.
    public var pacesFrames: Bool { true }
    /// The mode's period, seconds (1 / its refresh rate): the vblank grid frames start late in.
    public var frameInterval: Double? { mode.refresh > 0 ? 1 / Double(mode.refresh) : nil }

    /// Copies `damage` from the shadow to the back buffer (turned if the panel is) and flips to it; `completion` runs with the flip's event.
    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        guard !closed else { throw DisplayError.call("present after close", errno: EBADF) }
        guard isConnected else { throw DisplayError.disconnected(card: card) }
        guard !isBlank else { throw DisplayError.blank }
        guard !isPaused else { throw DisplayError.paused }
        guard pendingCompletion == nil else { throw DisplayError.flipPending }
        for rect in damage {
            guard let pixels = PixelRect(covering: rect, width: width, height: height) else { continue }
            for index in buffers.indices { buffers[index].stale.add(pixels) }
        }
        let back = 1 - front
        if needsModeset {
            // After a failure: the whole picture, and the mode set again (whoever took the card
            // may have changed it). SetCrtc is synchronous: the frame is on screen at once.
            markAllStale()
            copyStale(into: back)
            _ = drm.acquireMaster(fd)
            try drm.setCrtc(fd, crtc: crtc, framebuffer: buffers[back].framebuffer, x: 0, y: 0, connectors: [connector], mode: mode)
            needsModeset = false
            front = back
            lastPresentationTime = nil
            completion()
            return
        }
        let clips = copyStale(into: back)
        do {
            switch presentPath {
            case .atomic(let plane):
                var entries = [DRMAtomicEntry(object: plane.plane, property: plane.framebufferProperty, value: UInt64(buffers[back].framebuffer))]
                var blob: UInt32?
                if let property = plane.damageClipsProperty, !clips.isEmpty {
                    let id = try drm.createBlob(fd, Self.damageBlob(clips))
                    blob = id
                    entries.append(DRMAtomicEntry(object: plane.plane, property: property, value: UInt64(id)))
                }
                // The plane's state holds its own reference to the blob once committed.
                defer { if let blob { drm.destroyBlob(fd, blob) } }
                try drm.atomicCommit(fd, entries, flags: [.nonBlocking, .pageFlipEvent])
            case .legacy:
                if dirtyFramebufferWorks, !clips.isEmpty {
                    do {
                        try drm.dirtyFramebuffer(fd, buffers[back].framebuffer, clips: clips)
                    } catch DisplayError.call(_, let errno) where errno == ENOSYS {
                        dirtyFramebufferWorks = false
                    }
                }
                try drm.pageFlip(fd, crtc: crtc, framebuffer: buffers[back].framebuffer)
            }
        } catch {
            // The back buffer holds this frame; the glass does not. Next time: set the mode.
            needsModeset = true
            throw error
        }
        pendingCompletion = completion
    }

    /// Copies what buffer `index` lacks from the shadow and returns it as glass rectangles.
    @discardableResult
    private func copyStale(into index: Int) -> [DRMClip] {
        let rects = buffers[index].stale.rects
        buffers[index].stale.removeAll()
        return rects.map { rect in
            buffers[index].target.store(rect, from: backSurface, rotation: rotation)
            let glass = rect.rotated(rotation, pictureWidth: width, pictureHeight: height)
            return DRMClip(x1: Int32(glass.x), y1: Int32(glass.y), x2: Int32(glass.maxX), y2: Int32(glass.maxY))
        }
    }

    /// FB_DAMAGE_CLIPS' blob: an array of struct drm_mode_rect (four signed 32-bit corners).
    static func damageBlob(_ clips: [DRMClip]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(clips.count * 16)
        for clip in clips {
            for v in [clip.x1, clip.y1, clip.x2, clip.y2] { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        }
        return bytes
    }

    /// Reads the card's events (call when its descriptor is readable): a completed flip makes
    /// the presented buffer the front one and runs the frame's completion.
    public func handleEvents() throws {
        guard let report = try drm.handleEvents(fd), report.count > 0, let completion = pendingCompletion else { return }
        front = 1 - front
        pendingCompletion = nil
        lastPresentationTime = report.seconds
        completion()
    }

    /// Waits briefly for a pending flip. Its completion runs either way, so no caller waits
    /// for a frame forever (a flip that never completes leaves the old buffer in front).
    private func drain() {
        guard let completion = pendingCompletion else { return }
        if drm.waitReadable(fd, timeout: Self.drainTimeout), let report = try? drm.handleEvents(fd) {
            front = 1 - front
            lastPresentationTime = report.seconds
        }
        pendingCompletion = nil
        completion()
    }

    /// A VT switch away (or logind's pause): the pending flip is waited for, then DRM master is
    /// dropped, so the console or the next VT's owner can set its own mode. (Under logind the
    /// service manager has dropped it already; dropping it again changes nothing.)
    public func pause() {
        guard !isPaused, !closed else { return }
        drain()
        isPaused = true
        _ = drm.dropMaster(fd)
    }

    /// Back in front: DRM master again (under logind it is ours already), and the next frame
    /// sets the mode and draws the whole picture (the console had the CRTC meanwhile).
    public func resume() {
        guard isPaused, !closed else { return }
        isPaused = false
        _ = drm.acquireMaster(fd)
        needsModeset = true
        markAllStale()
    }

    /// Off: the CRTC inactive (atomic) or the connector's DPMS off (legacy). On: the reverse,
    /// and the next frame is a full one.
    public func setBlank(_ blank: Bool) throws {
        guard blank != isBlank, !closed else { return }
        drain()
        switch presentPath {
        case .atomic(let plane):
            try drm.atomicCommit(fd, [DRMAtomicEntry(object: crtc, property: plane.activeProperty, value: blank ? 0 : 1)],
                                 flags: [.allowModeset])
        case .legacy:
            guard let dpms = try drm.properties(fd, object: connector, type: .connector)["DPMS"] else {
                throw DisplayError.call("\(card): connector \(connector) has no DPMS property", errno: ENOTSUP)
            }
            // DRM_MODE_DPMS_OFF is 3, DRM_MODE_DPMS_ON 0.
            try drm.setProperty(fd, object: connector, type: .connector, property: dpms.id, value: blank ? 3 : 0)
        }
        isBlank = blank
        if !blank { markAllStale() }
    }

    /// Asks the connector again: gone stops drawing; back (or in another mode) sets the mode,
    /// at a new size with new buffers, and asks for a full frame.
    public func reprobe() -> DisplayProbe {
        guard !closed else { return .unchanged }
        if cardIsGone { return reopen() }
        let probed: DRMConnector?
        do {
            probed = try drm.connector(fd, connector)
        } catch DisplayError.call(_, let code) where code == ENODEV {
            // The device itself went away. A card that comes back is a new device: it is looked
            // for at this and every later event, and brought up as at start.
            let wasConnected = isConnected
            drain()
            cardIsGone = true
            isConnected = false
            let again = reopen()
            if case .connected = again { return again }
            return wasConnected ? .disconnected : .unchanged
        } catch {
            probed = nil
        }
        guard let state = probed, state.isConnected, !state.modes.isEmpty else {
            if isConnected {
                drain()
                isConnected = false
                return .disconnected
            }
            return .unchanged
        }
        let wanted = configuredSize.flatMap { size in state.modes.first { $0.width == size.width && $0.height == size.height } }
            ?? state.modes.first(where: \.isPreferred) ?? state.modes[0]
        let sameMode = wanted.width == mode.width && wanted.height == mode.height && wanted.refresh == mode.refresh
        if isConnected && sameMode { return .unchanged }
        drain()
        do {
            if wanted.width != mode.width || wanted.height != mode.height {
                releaseBuffers()
                mode = wanted
                (width, height) = Self.pictureSize(wanted, rotation)
                try bringUp()
            } else {
                mode = wanted
                markAllStale()
                try drm.setCrtc(fd, crtc: crtc, framebuffer: buffers[front].framebuffer, x: 0, y: 0, connectors: [connector], mode: mode)
            }
        } catch {
            isConnected = false
            return .disconnected
        }
        isConnected = true
        isBlank = false
        needsModeset = false
        return .connected(width: width, height: height)
    }

    /// After the card went away: the card asked for (or the first with a connected panel)
    /// opened and brought up as at start. The old card's mappings are given back (nothing else
    /// can be on a device that is gone) and its descriptor is retired, not closed: the loop
    /// still watches it. `.unchanged` while no card is there yet.
    private func reopen() -> DisplayProbe {
        guard let found = try? Self.find(drm, path: requestedPath, size: configuredSize) else { return .unchanged }
        for buffer in buffers.reversed() { drm.unmap(buffer.pixels, size: buffer.dumb.size) }
        buffers.removeAll()
        let old = (fd: fd, card: card, connector: connector, crtc: crtc, mode: mode, saved: saved)
        fd = found.fd
        card = found.card
        connector = found.connector
        crtc = found.crtc
        mode = found.mode
        (width, height) = Self.pictureSize(found.mode, rotation)
        (saved, driverPrefersShadow, presentPath) = Self.inspect(drm, fd: found.fd, crtc: found.crtc)
        dirtyFramebufferWorks = true
        needsModeset = false
        do {
            try bringUp()
        } catch {
            // Not usable yet (another program has it, or it is still coming up): the next
            // event tries again.
            drm.close(found.fd)
            (fd, card, connector, crtc, mode, saved) = old
            return .unchanged
        }
        retired.append(old.fd)
        cardIsGone = false
        isConnected = true
        isBlank = false
        eventDescriptorGeneration += 1
        return .connected(width: width, height: height)
    }

    /// Closes the descriptors of cards that went away; the loop calls it once it no longer
    /// watches them.
    public func releaseRetiredDescriptors() {
        for descriptor in retired { drm.close(descriptor) }
        retired.removeAll()
    }

    /// Waits for a pending flip (briefly), puts the saved CRTC back, releases the buffers,
    /// closes the card. Safe to call twice; also what SIGTERM handling calls.
    public func close() {
        guard !closed else { return }
        closed = true
        drain()
        if let saved {
            try? drm.setCrtc(fd, crtc: saved.id, framebuffer: saved.framebuffer, x: saved.x, y: saved.y,
                             connectors: [connector], mode: saved.mode)
        }
        releaseBuffers()
        drm.close(fd)
        releaseRetiredDescriptors()
    }

    isolated deinit { close() }
}

/// DRM fourcc formats (drm_fourcc.h), as numbers so the seam needs no C.
public enum DRMFormat {
    /// 'XR24'.
    public static let xrgb8888: UInt32 = 0x3432_5258
    /// 'RG16'.
    public static let rgb565: UInt32 = 0x3631_4752
}
