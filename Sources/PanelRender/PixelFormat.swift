import CPixman

/// Pixel formats the renderer draws into.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// 32 bits, alpha unused: what DRM scan-out buffers hold (DRM_FORMAT_XRGB8888).
    case xrgb8888
    /// 32 bits with premultiplied alpha.
    case argb8888
    /// 16 bits, for small panels (DRM_FORMAT_RGB565).
    case rgb565

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int { self == .rgb565 ? 2 : 4 }

    var pixman: pixman_format_code_t {
        switch self {
        case .xrgb8888: return PIXMAN_x8r8g8b8
        case .argb8888: return PIXMAN_a8r8g8b8
        case .rgb565: return PIXMAN_r5g6b5
        }
    }
}
