import CLinuxFB
import Glibc
import PanelRender
import PanelUI

/// What a framebuffer device is.
public struct FramebufferInfo: Sendable, Hashable {
    /// Visible pixels across.
    public var width: Int
    /// Visible pixels down.
    public var height: Int
    /// Bits per pixel (16 or 32).
    public var bitsPerPixel: Int
    /// Bytes per row.
    public var stride: Int
    /// Bytes to map.
    public var size: Int
    /// Bit offset of red in a pixel (16 for XRGB8888, 11 for RGB565).
    public var redOffset: Int
    /// A framebuffer's record.
    public init(width: Int, height: Int, bitsPerPixel: Int, stride: Int, size: Int, redOffset: Int) {
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.stride = stride
        self.size = size
        self.redOffset = redOffset
    }
}

/// The calls a framebuffer display makes: the seam for tests.
@MainActor
public protocol FramebufferCalls: AnyObject {
    /// Opens the framebuffer device read-write.
    func open(_ path: String) throws -> Int32
    /// FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO: the mode and the memory's layout.
    func info(_ fd: Int32) throws -> FramebufferInfo
    /// Maps the framebuffer's memory.
    func map(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer
    /// Unmaps it.
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int)
    /// FBIOBLANK: the panel off (powerdown) or on.
    func blank(_ fd: Int32, _ blank: Bool) throws
    /// Closes the device.
    func close(_ fd: Int32)
}

/// /dev/fb0 and friends, for boards with no KMS driver: frames are drawn in memory and the
/// damaged areas copied (turned for `rotation`) to the mapped framebuffer, which is never
/// read (no page flips, no vertical-blank pacing).
@MainActor
public final class FramebufferDisplay: ImmediateDisplay {
    /// The device node.
    public let path: String
    /// Picture pixels (the framebuffer's, exchanged for 90 and 270 degrees).
    public let width: Int
    /// The picture's height, pixels (after rotation).
    public let height: Int
    /// How its pixels are stored (from the framebuffer's bit depth and channel offsets).
    public let format: PixelFormat
    /// The picture's turn on the glass.
    public let rotation: Rotation
    /// The shadow the renderer draws in.
    public let backSurface: Surface
    /// The mapped framebuffer, write-only.
    private let screen: ScanoutTarget
    private let calls: any FramebufferCalls
    private let fd: Int32
    private let mapped: UnsafeMutableRawPointer
    private let size: Int
    private var closed = false
    /// Whether FBIOBLANK turned the panel off.
    public private(set) var isBlank = false

    /// Opens and maps the framebuffer at `path`, the picture turned by `rotation`.
    public init(path: String = "/dev/fb0", rotation: Rotation = .none, calls: any FramebufferCalls = LinuxFramebuffer()) throws {
        (self.path, self.calls, self.rotation) = (path, calls, rotation)
        let fd = try calls.open(path)
        let info: FramebufferInfo
        do {
            info = try calls.info(fd)
        } catch {
            calls.close(fd)
            throw error
        }
        let format: PixelFormat
        switch (info.bitsPerPixel, info.redOffset) {
        case (32, 16): format = .xrgb8888
        case (16, 11): format = .rgb565
        default:
            calls.close(fd)
            throw DisplayError.call("\(path): unsupported pixel layout \(info.bitsPerPixel) bpp, red at bit \(info.redOffset)", errno: EINVAL)
        }
        let pointer: UnsafeMutableRawPointer
        do {
            pointer = try calls.map(fd, size: info.size)
        } catch {
            calls.close(fd)
            throw error
        }
        (self.fd, self.format) = (fd, format)
        (width, height) = rotation.swapsSides ? (info.height, info.width) : (info.width, info.height)
        size = info.size
        mapped = pointer
        screen = ScanoutTarget(pixels: pointer, width: info.width, height: info.height, stride: info.stride, format: format)
        backSurface = Surface(width: width, height: height, format: format)
    }

    /// Copies `damage` from the shadow to the mapped framebuffer (turned if the panel is) and completes at once.
    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        guard !closed else { throw DisplayError.call("present after close", errno: EBADF) }
        guard !isBlank else { throw DisplayError.blank }
        for rect in damage {
            guard let pixels = PixelRect(covering: rect, width: width, height: height) else { continue }
            screen.store(pixels, from: backSurface, rotation: rotation)
        }
        completion()
    }

    /// The framebuffer's memory, as the panel shows it.
    public func glassSnapshot() -> GlassSnapshot? { screen.snapshot() }
    /// The device, its size and format, and the rotation.
    public var summary: String { "\(path) \(screen.width)x\(screen.height) \(format), rotation \(rotation.rawValue)" }

    /// fbdev blanking (FBIOBLANK); on again, the whole picture is copied back.
    public func setBlank(_ blank: Bool) throws {
        guard blank != isBlank, !closed else { return }
        try calls.blank(fd, blank)
        isBlank = blank
        if !blank { screen.store(PixelRect(x: 0, y: 0, width: width, height: height), from: backSurface, rotation: rotation) }
    }

    /// Unmaps and closes, in reverse order of opening. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        calls.unmap(mapped, size: size)
        calls.close(fd)
    }

    isolated deinit { close() }
}

/// `FramebufferCalls` on a real device.
@MainActor
public final class LinuxFramebuffer: FramebufferCalls {
    /// The kernel's fbdev.
    public init() {}

    /// open(2) with O_RDWR and O_CLOEXEC.
    public func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.call("open \(path)", errno: errno) }
        return fd
    }

    /// The two FBIOGET ioctls.
    public func info(_ fd: Int32) throws -> FramebufferInfo {
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard panel_fb_get_var(fd, &variable) == 0 else { throw DisplayError.call("FBIOGET_VSCREENINFO", errno: errno) }
        guard panel_fb_get_fix(fd, &fixed) == 0 else { throw DisplayError.call("FBIOGET_FSCREENINFO", errno: errno) }
        return FramebufferInfo(width: Int(variable.xres), height: Int(variable.yres), bitsPerPixel: Int(variable.bits_per_pixel),
                               stride: Int(fixed.line_length), size: Int(fixed.smem_len), redOffset: Int(variable.red.offset))
    }

    /// mmap(2), shared.
    public func map(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer {
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != MAP_FAILED else { throw DisplayError.call("mmap framebuffer", errno: errno) }
        return pointer
    }

    /// munmap(2).
    public func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { munmap(pointer, size) }

    /// FBIOBLANK: the panel off (powerdown) or on (unblank).
    public func blank(_ fd: Int32, _ blank: Bool) throws {
        guard panel_fb_blank(fd, blank ? 4 : 0) == 0 else { throw DisplayError.call("FBIOBLANK", errno: errno) }
    }

    /// close(2).
    public func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
