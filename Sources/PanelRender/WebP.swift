import CWebP

/// WebP pictures through libwebp: the features (size, alpha, animation) first, the pixel
/// budget checked on them, then a decode straight into a surface of ours in premultiplied
/// BGRA, scaled down by libwebp's own area-averaging rescaler when shown smaller.
public enum WebP {
    /// Decodes `bytes` into a premultiplied ARGB surface, if the declared size is at most
    /// `maxPixels`. With `atLeast` (pixels), decoded at the smallest size of the same aspect
    /// whose sides are both at least that large. Animated WebP is refused (a row shows a still).
    public static func decode(_ bytes: [UInt8], path: String, maxPixels: Int = PNG.defaultMaxPixels,
                              atLeast: (width: Int, height: Int)? = nil) throws(RenderError) -> Surface {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw RenderError.image(path: path, message: "libwebp could not start") }
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard status == VP8_STATUS_OK else { throw RenderError.image(path: path, message: message(status)) }
        let width = Int(config.input.width), height = Int(config.input.height)
        guard width > 0, height > 0 else { throw RenderError.image(path: path, message: "empty image") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw RenderError.imageTooLarge(path: path, width: width, height: height, maxPixels: maxPixels)
        }
        guard config.input.has_animation == 0 else { throw RenderError.image(path: path, message: "WebP: animated pictures are not shown") }
        // What libwebp holds whole while it decodes: a lossless picture's pixels, a lossy one's
        // alpha plane (ImageDecoder.maxWorkBytes).
        let need = atLeast == nil ? 0 : config.input.format == 2 ? pixels * 4 : (config.input.has_alpha != 0 ? pixels : 0)
        guard need <= ImageDecoder.maxWorkBytes else {
            throw RenderError.image(path: path, message: "a \(config.input.format == 2 ? "lossless" : "transparent") WebP of \(width)x\(height) "
                                    + "needs \(need >> 20) MiB to decode, more than \(ImageDecoder.maxWorkBytes >> 20) MiB: save it smaller")
        }
        var (w, h) = (width, height)
        if let atLeast, atLeast.width > 0, atLeast.height > 0, atLeast.width < width, atLeast.height < height {
            let f = max(Double(atLeast.width) / Double(width), Double(atLeast.height) / Double(height))
            (w, h) = (max(atLeast.width, Int((Double(width) * f).rounded(.up))), max(atLeast.height, Int((Double(height) * f).rounded(.up))))
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(w)
            config.options.scaled_height = Int32(h)
        }
        let surface = Surface(width: w, height: h, format: .argb8888)
        config.output.colorspace = MODE_bgrA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = surface.pixels.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(surface.stride)
        config.output.u.RGBA.size = surface.stride * h
        let decoded = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        WebPFreeDecBuffer(&config.output)
        guard decoded == VP8_STATUS_OK else { throw RenderError.image(path: path, message: message(decoded)) }
        return surface
    }

    private static func message(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "WebP: out of memory"
        case VP8_STATUS_INVALID_PARAM: return "WebP: invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "WebP: corrupt data"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "WebP: unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "WebP: truncated"
        default: return "not a WebP file"
        }
    }
}
