import Foundation
import PanelRender
import PanelUI

/// A panel driven through KMS: a connected connector in its preferred (or a configured)
/// mode, two dumb buffers, page flips on vertical blank, never two pending.
///
/// Resources are acquired in order (card, CRTC state, buffers, framebuffers, mappings, mode)
/// and released in reverse, also when bring-up fails half way; `close()` waits for a pending
/// flip and restores the CRTC as it was, so the console comes back.
@MainActor
public final class DRMDisplay: Display {
    public let card: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat = .xrgb8888
    public let mode: DRMMode
    public let connector: UInt32
    public let crtc: UInt32

    private let drm: any DRMCalls
    private let fd: Int32
    private let saved: DRMCrtc?
    private var buffers: [(dumb: DRMDumbBuffer, framebuffer: UInt32, pixels: UnsafeMutableRawPointer, surface: Surface)] = []
    private var front = 0
    private var pendingCompletion: (@MainActor () -> Void)?
    private var previousDamage: [Rect] = []
    private var closed = false

    /// How long `close()` waits for a pending flip, seconds (two frames at 30 Hz).
    public static let drainTimeout: Double = 0.066

    /// - Parameters:
    ///   - path: a card node; nil: the first card with a connected connector.
    ///   - size: a mode to use instead of the preferred one.
    public init(path: String? = nil, size: (width: Int, height: Int)? = nil, drm: any DRMCalls = LibDRM()) throws {
        self.drm = drm
        let found = try Self.find(drm, path: path, size: size)
        card = found.card
        fd = found.fd
        connector = found.connector
        crtc = found.crtc
        mode = found.mode
        width = found.mode.width
        height = found.mode.height
        saved = try? drm.crtc(found.fd, found.crtc)
        do {
            try bringUp()
        } catch {
            drm.close(found.fd)
            closed = true
            throw error
        }
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

    /// Two buffers, their framebuffers and mappings, then the mode. Undoes itself on failure.
    private func bringUp() throws {
        do {
            for _ in 0..<2 {
                let dumb = try drm.createDumbBuffer(fd, width: width, height: height, bitsPerPixel: 32)
                let framebuffer: UInt32
                do {
                    framebuffer = try drm.addFramebuffer(fd, width: width, height: height, format: DRMFormat.xrgb8888, buffer: dumb)
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
                let surface = Surface(wrapping: pixels, width: width, height: height, stride: dumb.pitch, format: .xrgb8888)
                buffers.append((dumb, framebuffer, pixels, surface))
            }
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

    private func releaseBuffers() {
        for buffer in buffers.reversed() {
            drm.unmap(buffer.pixels, size: buffer.dumb.size)
            drm.removeFramebuffer(fd, buffer.framebuffer)
            drm.destroyDumbBuffer(fd, buffer.dumb.handle)
        }
        buffers.removeAll()
    }

    /// The card's descriptor, for a Dispatch read source that calls `handleEvents()`.
    public var fileDescriptor: Int32 { fd }

    public var backSurface: Surface { buffers[1 - front].surface }
    public var frontSurface: Surface? { buffers[front].surface }
    public var isFlipPending: Bool { pendingCompletion != nil }

    /// The back buffer holds the frame before last: redraw what this frame and the last one
    /// changed.
    public func damageToRedraw(for damage: [Rect]) -> [Rect] { damage + previousDamage }

    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        guard !closed else { throw DisplayError.call("present after close", errno: EBADF) }
        guard pendingCompletion == nil else { throw DisplayError.flipPending }
        try drm.pageFlip(fd, crtc: crtc, framebuffer: buffers[1 - front].framebuffer)
        previousDamage = damage
        pendingCompletion = completion
    }

    /// Reads the card's events (call when its descriptor is readable): a completed flip makes
    /// the presented buffer the front one and runs the frame's completion.
    public func handleEvents() throws {
        let flips = try drm.handleEvents(fd)
        guard flips > 0, let completion = pendingCompletion else { return }
        front = 1 - front
        pendingCompletion = nil
        completion()
    }

    /// Waits for a pending flip (briefly), puts the saved CRTC back, releases the buffers,
    /// closes the card. Safe to call twice; also what SIGTERM handling calls.
    public func close() {
        guard !closed else { return }
        closed = true
        if pendingCompletion != nil, drm.waitReadable(fd, timeout: Self.drainTimeout) {
            _ = try? drm.handleEvents(fd)
        }
        pendingCompletion = nil
        if let saved {
            try? drm.setCrtc(fd, crtc: saved.id, framebuffer: saved.framebuffer, x: saved.x, y: saved.y,
                             connectors: [connector], mode: saved.mode)
        }
        releaseBuffers()
        drm.close(fd)
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
