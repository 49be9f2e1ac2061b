import CLinuxFB
import Foundation
import PanelRender
import PanelUI

/// What a framebuffer device is.
public struct FramebufferInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var bitsPerPixel: Int
    /// Bytes per row.
    public var stride: Int
    /// Bytes to map.
    public var size: Int
    /// Bit offset of red in a pixel (16 for XRGB8888, 11 for RGB565).
    public var redOffset: Int
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
    func open(_ path: String) throws -> Int32
    func info(_ fd: Int32) throws -> FramebufferInfo
    func map(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int)
    func close(_ fd: Int32)
}

/// /dev/fb0 and friends, for boards with no KMS driver: frames are drawn in memory and the
/// damaged areas copied to the mapped framebuffer (no page flips, no vertical-blank pacing).
@MainActor
public final class FramebufferDisplay: Display {
    public let path: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let backSurface: Surface
    /// The mapped framebuffer.
    public let screenSurface: Surface
    private let calls: any FramebufferCalls
    private let fd: Int32
    private let mapped: UnsafeMutableRawPointer
    private let size: Int
    private var closed = false

    public init(path: String = "/dev/fb0", calls: any FramebufferCalls = LinuxFramebuffer()) throws {
        self.path = path
        self.calls = calls
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
        self.fd = fd
        self.format = format
        width = info.width
        height = info.height
        size = info.size
        mapped = pointer
        screenSurface = Surface(wrapping: pointer, width: info.width, height: info.height, stride: info.stride, format: format)
        backSurface = Surface(width: info.width, height: info.height, format: format)
    }

    /// One memory buffer holds the last frame.
    public var frontSurface: Surface? { nil }
    public func damageToRedraw(for damage: [Rect]) -> [Rect] { damage }

    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        guard !closed else { throw DisplayError.call("present after close", errno: EBADF) }
        let canvas = Canvas(surface: screenSurface)
        for rect in damage { canvas.move(rect, dx: 0, dy: 0, from: backSurface) }
        completion()
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
    public init() {}

    public func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.call("open \(path)", errno: errno) }
        return fd
    }

    public func info(_ fd: Int32) throws -> FramebufferInfo {
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard panel_fb_get_var(fd, &variable) == 0 else { throw DisplayError.call("FBIOGET_VSCREENINFO", errno: errno) }
        guard panel_fb_get_fix(fd, &fixed) == 0 else { throw DisplayError.call("FBIOGET_FSCREENINFO", errno: errno) }
        return FramebufferInfo(width: Int(variable.xres), height: Int(variable.yres), bitsPerPixel: Int(variable.bits_per_pixel),
                               stride: Int(fixed.line_length), size: Int(fixed.smem_len), redOffset: Int(variable.red.offset))
    }

    public func map(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer {
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != MAP_FAILED else { throw DisplayError.call("mmap framebuffer", errno: errno) }
        return pointer
    }

    public func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { munmap(pointer, size) }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
