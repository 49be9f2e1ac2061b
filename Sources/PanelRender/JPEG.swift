import CTurboJPEG

/// JPEG pictures through libjpeg-turbo's TurboJPEG API: the header first (the pixel budget is
/// checked before anything is allocated), then a decode that scales down inside the IDCT by
/// 1/2, 1/4 or 1/8 when the picture is shown that much smaller (a 4000x3000 photo for a
/// 112-pixel thumbnail decodes at 500x375: 64 times fewer pixels written).
public enum JPEG {
    /// Progressive scans decoded at most (TJFLAG_LIMITSCANS: libjpeg-turbo's own limit of
    /// 500). A crafted file with thousands of tiny scans otherwise costs minutes of CPU.
    static let flags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING

    /// The picture's stored size in pixels, from its header.
    public static func size(_ bytes: [UInt8], path: String) throws(RenderError) -> (width: Int, height: Int) {
        let handle = try open(path)
        defer { tjDestroy(handle) }
        let header = try header(handle, bytes, path: path)
        return (header.width, header.height)
    }

    /// Decodes `bytes` into a premultiplied ARGB surface (opaque: JPEG has no alpha), if the
    /// declared size is at most `maxPixels`. With `atLeast` (pixels), decoded at the smallest
    /// of libjpeg-turbo's scales that keeps both sides at least that large. A warning (a
    /// truncated file: "Premature end of JPEG file") fails the decode, so a half-grey picture
    /// is never shown.
    public static func decode(_ bytes: [UInt8], path: String, maxPixels: Int = PNG.defaultMaxPixels,
                              atLeast: (width: Int, height: Int)? = nil) throws(RenderError) -> Surface {
        let handle = try open(path)
        defer { tjDestroy(handle) }
        let (width, height, subsampling) = try header(handle, bytes, path: path)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw RenderError.imageTooLarge(path: path, width: width, height: height, maxPixels: maxPixels)
        }
        if atLeast != nil, isProgressive(bytes) {
            let need = coefficientBytes(width: width, height: height, subsampling: subsampling)
            guard need <= ImageDecoder.maxWorkBytes else {
                throw RenderError.image(path: path, message: "a progressive JPEG of \(width)x\(height) needs \(need >> 20) MiB to decode, "
                                        + "more than \(ImageDecoder.maxWorkBytes >> 20) MiB: save it as baseline JPEG, or smaller")
            }
        }
        let (w, h) = scaledSize(width: width, height: height, atLeast: atLeast)
        let surface = Surface(width: w, height: h, format: .argb8888)
        let status = bytes.withUnsafeBufferPointer { buffer in
            tjDecompress2(handle, buffer.baseAddress, UInt(buffer.count), surface.pixels.assumingMemoryBound(to: UInt8.self),
                          Int32(w), Int32(surface.stride), Int32(h), Int32(TJPF_BGRA.rawValue), flags)
        }
        guard status == 0 else { throw RenderError.image(path: path, message: errorText(handle)) }
        return surface
    }

    /// The smallest of libjpeg-turbo's scaled sizes of a `width` x `height` picture whose sides
    /// are both at least `atLeast` (the full size without it, or when none is that large).
    static func scaledSize(width: Int, height: Int, atLeast: (width: Int, height: Int)?) -> (Int, Int) {
        guard let atLeast else { return (width, height) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for i in 0..<Int(count) {
            let f = factors[i]
            let num = Int(f.num), denom = Int(max(f.denom, 1))
            guard num <= denom else { continue }
            // TJSCALED: the dimension times the factor, rounded up.
            let w = (width * num + denom - 1) / denom, h = (height * num + denom - 1) / denom
            if w >= atLeast.width, h >= atLeast.height, w * h < best.0 * best.1 { best = (w, h) }
        }
        return best
    }

    /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14): the markers are walked from
    /// SOI to the first start of frame. TurboJPEG 2.1's header call does not say; libjpeg then
    /// keeps every coefficient of the picture until its last scan.
    static func isProgressive(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { return false }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            switch marker {
            case 0xC2, 0xC6, 0xCA, 0xCE: return true
            case 0xC0, 0xC1, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF, 0xDA, 0xD9: return false
            case 0xD0...0xD7, 0x01: i += 2
            default: i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
            }
        }
        return false
    }

    /// The bytes libjpeg's coefficient buffers take for a whole picture: 2 per coefficient, one
    /// coefficient a pixel of each component, the chroma components at their subsampled size
    /// (TurboJPEG's TJSAMP_*), blocks rounded up to 8 pixels.
    static func coefficientBytes(width: Int, height: Int, subsampling: Int32) -> Int {
        let blocks = ((width + 7) / 8) * ((height + 7) / 8) * 64
        let chroma: Double
        switch subsampling {
        case Int32(TJSAMP_444.rawValue): chroma = 1
        case Int32(TJSAMP_422.rawValue), Int32(TJSAMP_440.rawValue): chroma = 0.5
        case Int32(TJSAMP_GRAY.rawValue): chroma = 0
        default: chroma = 0.25
        }
        return Int(Double(blocks) * (1 + 2 * chroma)) * 2
    }

    private static func open(_ path: String) throws(RenderError) -> tjhandle {
        guard let handle = tjInitDecompress() else { throw RenderError.image(path: path, message: "libjpeg-turbo could not start") }
        return handle
    }

    /// The stored size and the chroma subsampling (TJSAMP_*) from the header.
    private static func header(_ handle: tjhandle, _ bytes: [UInt8], path: String) throws(RenderError)
        -> (width: Int, height: Int, subsampling: Int32) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw RenderError.image(path: path, message: errorText(handle)) }
        guard width > 0, height > 0 else { throw RenderError.image(path: path, message: "empty image") }
        return (Int(width), Int(height), subsampling)
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "not a JPEG file" }
        return "JPEG: " + String(cString: text)
    }
}
