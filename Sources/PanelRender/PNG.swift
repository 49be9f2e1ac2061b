import CPNG
import CPNGRows
import Glibc
import PanelInput

/// PNG files through libpng's simplified API.
public enum PNG {
    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The most pixels a decode may allocate unless told otherwise: 16 Mpx (64 MiB at 4 bytes a
    /// pixel), four times a 1920x1080 panel. A PNG declares its size in 8 bytes of its header,
    /// so 74 bytes can claim 100000x100000 (40 GB): the declared size is checked against the
    /// budget before anything is allocated.
    public static let defaultMaxPixels = 16 << 20
    /// The largest PNG file read: 64 MiB (a 16 Mpx image stored uncompressed is 64 MiB).
    public static let maxFileBytes = 64 << 20

    /// Width and height as the file's header declares them, pixels; nothing is decoded.
    /// `maxPixels`: refuse a size over it, as a decode under that budget would.
    public static func size(path: String, maxPixels: Int = .max) throws(RenderError) -> (width: Int, height: Int) {
        let bytes = try fileBytes(path)
        let result: Result<(Int, Int), RenderError> = bytes.withUnsafeBytes { raw in
            var image = png_image()
            if let error = begin(&image, raw, path: path) { return .failure(error) }
            png_image_free(&image)
            return .success((Int(image.width), Int(image.height)))
        }
        let size = try result.get()
        if let error = overBudget(size.0, size.1, maxPixels, path: path) { throw error }
        return size
    }

    /// The error for a declared size over `maxPixels` (the product checked for overflow), nil
    /// when it fits: the one check every read of a size makes.
    private static func overBudget(_ width: Int, _ height: Int, _ maxPixels: Int, path: String) -> RenderError? {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > maxPixels else { return nil }
        return RenderError.imageTooLarge(path: path, width: width, height: height, maxPixels: maxPixels)
    }

    /// Reads a PNG into a premultiplied ARGB surface, if its declared size is at most
    /// `maxPixels` (checked from the header, before the pixels are allocated).
    public static func read(path: String, maxPixels: Int = defaultMaxPixels) throws(RenderError) -> Surface {
        try decode(try fileBytes(path), path: path, maxPixels: maxPixels)
    }

    /// Decodes PNG bytes (`path` names them in errors), under the same pixel budget.
    public static func decode(_ bytes: [UInt8], path: String, maxPixels: Int = defaultMaxPixels) throws(RenderError) -> Surface {
        // libpng reads from the memory until the image is finished or freed: both happen
        // inside, where the bytes are pinned.
        let result: Result<Surface, RenderError> = bytes.withUnsafeBytes { raw in
            do throws(RenderError) {
                return .success(try decode(raw, path: path, maxPixels: maxPixels))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, path: String, maxPixels: Int) throws(RenderError) -> Surface {
        // One png_image from begin to finish: libpng keeps its address (as the read's io_ptr),
        // so it must not be copied or moved in between.
        var image = png_image()
        if let error = begin(&image, raw, path: path) { throw error }
        image.format = panel_png_format_bgra
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else {
            png_image_free(&image)
            throw RenderError.png(path: path, message: "empty image")
        }
        if let error = overBudget(width, height, maxPixels, path: path) {
            png_image_free(&image)
            throw error
        }
        let surface = Surface(width: width, height: height, format: .argb8888)
        guard png_image_finish_read(&image, nil, surface.pixels, Int32(surface.stride), nil) != 0 else {
            let text = message(image)
            png_image_free(&image)
            throw RenderError.png(path: path, message: text)
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

    /// Bytes of sums an interlaced picture's reduction may hold (its passes each run down the
    /// whole picture, so every output row's sums stay until the last): 4 MiB, 20 bytes an
    /// output pixel. A larger reduction is made coarser until it fits.
    static let maxInterlacedSums = 4 << 20

    /// The picture in `bytes` reduced while it is read, row by row: each pixel the average of a
    /// whole-number block, the largest block that keeps both sides at least `atLeast` (pixels).
    /// A 4096x4096 PNG for a 168-pixel thumbnail is read a row at a time into 171x171 averages:
    /// about 64 KB of work memory, where decoding it whole took 64 MiB and more (the simplified
    /// API's full-size buffer; 153 MB of peak RSS was measured for one picture). The declared
    /// size is checked against `maxPixels` first, as a whole decode's is.
    public static func reduced(_ bytes: [UInt8], path: String, maxPixels: Int = defaultMaxPixels,
                               atLeast: (width: Int, height: Int)) throws(RenderError) -> Surface {
        var error = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0, interlaced: Int32 = 0
        let sized = bytes.withUnsafeBufferPointer { data in
            panel_png_rows_size(data.baseAddress, data.count, &width, &height, &interlaced, nil, 0, nil, &error, error.count)
        }
        guard sized == 0 else { throw RenderError.png(path: path, message: Self.text(error, or: "not a PNG file")) }
        guard width > 0, height > 0 else { throw RenderError.png(path: path, message: "empty image") }
        if let error = overBudget(Int(width), Int(height), maxPixels, path: path) { throw error }
        var factor = max(1, min(Int(width) / max(1, atLeast.width), Int(height) / max(1, atLeast.height)))
        func side(_ n: UInt32) -> Int { (Int(n) + factor - 1) / factor }
        while interlaced != 0, side(width) * side(height) * 20 > maxInterlacedSums { factor += 1 }
        let surface = Surface(width: side(width), height: side(height), format: .argb8888)
        let status = bytes.withUnsafeBufferPointer { data in
            panel_png_rows_reduce(data.baseAddress, data.count, UInt32(factor), surface.pixels.assumingMemoryBound(to: UInt32.self),
                                  UInt32(surface.width), UInt32(surface.height), surface.stride, &error, error.count)
        }
        guard status == 0 else { throw RenderError.png(path: path, message: Self.text(error, or: "cannot be decoded")) }
        return surface
    }

    private static func text(_ buffer: [CChar], or fallback: String) -> String {
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? fallback : text
    }

    /// The file, through `BoundedFile`: a FIFO or device is refused at once, not waited on.
    static func fileBytes(_ path: String) throws(RenderError) -> [UInt8] {
        do {
            return try BoundedFile.read(path, limit: maxFileBytes)
        } catch {
            switch error {
            case .tooLarge: throw RenderError.png(path: path, message: "larger than \(maxFileBytes >> 20) MiB")
            case .unreadable, .notRegular: throw RenderError.png(path: path, message: "cannot read: \(error)")
            }
        }
    }

    /// png_image_begin_read_from_memory into `image`: reads the header. The memory must stay
    /// valid, and `image` where it is, until the image is finished or freed. The error, if any
    /// (the image is then freed).
    private static func begin(_ image: inout png_image, _ raw: UnsafeRawBufferPointer, path: String) -> RenderError? {
        image.version = panel_png_image_version
        guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
            let text = message(image)
            png_image_free(&image)
            return RenderError.png(path: path, message: text.isEmpty ? "not a PNG file" : text)
        }
        return nil
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

    /// A snapshot of the glass as an opaque 8-bit PNG, in memory (`png_image_write_to_memory`,
    /// libpng 1.6.29): what `ctl screenshot` sends. Runs anywhere (the snapshot is a value).
    public static func encode(_ snapshot: GlassSnapshot) throws(RenderError) -> [UInt8] {
        // BGRA bytes in memory order are the words 0xAARRGGBB on a little-endian machine;
        // the alpha is made opaque.
        var words = snapshot.pixels.map { ($0 | 0xff00_0000).littleEndian }
        var image = png_image()
        image.version = panel_png_image_version
        image.width = png_uint_32(snapshot.width)
        image.height = png_uint_32(snapshot.height)
        image.format = panel_png_format_bgra
        let stride = Int32(snapshot.width * 4)
        var size = 0
        let measured = words.withUnsafeMutableBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, stride, nil)
        }
        guard measured != 0, size > 0 else { throw RenderError.png(path: "screenshot", message: message(image)) }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { memory in
            words.withUnsafeMutableBytes { raw in
                png_image_write_to_memory(&image, memory.baseAddress, &size, 0, raw.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw RenderError.png(path: "screenshot", message: message(image)) }
        return Array(out.prefix(size))
    }
}
