import CPNG
import FoundationEssentials
import Glibc

/// PNG files through libpng's simplified API.
public enum PNG {
    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Reads a PNG into a premultiplied ARGB surface.
    public static func read(path: String) throws -> Surface {
        var image = png_image()
        image.version = panel_png_image_version
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw RenderError.png(path: path, message: message(image))
        }
        image.format = panel_png_format_bgra
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else {
            png_image_free(&image)
            throw RenderError.png(path: path, message: "empty image")
        }
        let surface = Surface(width: width, height: height, format: .argb8888)
        guard png_image_finish_read(&image, nil, surface.pixels, Int32(surface.stride), nil) != 0 else {
            throw RenderError.png(path: path, message: message(image))
        }
        // libpng gives straight alpha; pixman composites premultiplied.
        for y in 0..<height {
            let row = (surface.pixels + y * surface.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                let a = p >> 24
                if a == 255 { continue }
                func mul(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }
                row[x] = (a << 24) | (mul((p >> 16) & 0xff) << 16) | (mul((p >> 8) & 0xff) << 8) | mul(p & 0xff)
            }
        }
        return surface
    }

    /// Writes a surface as an 8-bit RGBA PNG (straight alpha; opaque for XRGB and RGB565).
    public static func write(_ surface: Surface, to path: String) throws {
        let argb = Surface(width: surface.width, height: surface.height, format: .argb8888)
        argb.copy(from: surface)
        for y in 0..<argb.height {
            let row = (argb.pixels + y * argb.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<argb.width {
                let p = row[x]
                let a = p >> 24
                if a == 255 || a == 0 { continue }
                func div(_ c: UInt32) -> UInt32 { min(255, (c * 255 + a / 2) / a) }
                row[x] = (a << 24) | (div((p >> 16) & 0xff) << 16) | (div((p >> 8) & 0xff) << 8) | div(p & 0xff)
            }
        }
        var image = png_image()
        image.version = panel_png_image_version
        image.width = png_uint_32(argb.width)
        image.height = png_uint_32(argb.height)
        image.format = panel_png_format_bgra
        guard png_image_write_to_file(&image, path, 0, argb.pixels, Int32(argb.stride), nil) != 0 else {
            throw RenderError.png(path: path, message: message(image))
        }
    }
}
