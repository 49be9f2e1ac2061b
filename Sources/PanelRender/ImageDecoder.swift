import CPixman
import PanelUI

/// Any picture a row or a view may show, PNG, JPEG or WebP, told by its first bytes; decoded
/// under the pixel budget, turned as its Exif orientation says, and for thumbnails scaled
/// once to the size they are drawn at.
public enum ImageDecoder {
    /// Sides of a thumbnail, pixels, at most: 4096, a 4K panel's width (a detail page's picture
    /// spans the page; a row's 56-point thumbnail at scale 3 is 168).
    public static let maxThumbnailSide = 4096

    /// Bytes a decode may hold beyond the picture it makes: 7 MiB. Most decoders here need a row
    /// or a few (a PNG reduced as it is read, a baseline JPEG scaled in its IDCT, lossy WebP
    /// through its rescaler), but three kinds must hold the whole picture while they decode:
    /// a progressive JPEG its coefficients (2 bytes a coefficient, 1.5 to 3 a pixel: 48 MiB for
    /// 4096x4096 at 4:2:0, and 220 MB of peak RSS was measured for one), a lossless WebP its
    /// pixels (4 bytes each), a lossy WebP with alpha its alpha plane (1 byte each). Such a
    /// thumbnail larger than this is refused with what it would need, so that decoding any one
    /// row's picture raises the kiosk's memory by at most 8 MB (docs/rows.md; `scripts/decode-memory`
    /// measures it), whatever `limits.image-pixels` allows: a 1920x1080 progressive JPEG needs
    /// 6.2 MB and shows.
    public static let maxWorkBytes = 7 << 20

    /// The picture in the file at `path` (a regular file of at most `PNG.maxFileBytes`), as
    /// `decode` gives it.
    public static func read(path: String, maxPixels: Int = PNG.defaultMaxPixels) throws(RenderError) -> Surface {
        try decode(try PNG.fileBytes(path), path: path, maxPixels: maxPixels)
    }

    /// The whole picture in `bytes`, as shown (orientation applied), premultiplied ARGB.
    public static func decode(_ bytes: [UInt8], path: String, maxPixels: Int = PNG.defaultMaxPixels) throws(RenderError) -> Surface {
        let (format, orientation) = try header(bytes, path: path)
        let stored = try decodeStored(bytes, format: format, path: path, maxPixels: maxPixels, atLeast: nil)
        guard orientation != .up else { return stored }
        let w = orientation.swapsAxes ? stored.height : stored.width, h = orientation.swapsAxes ? stored.width : stored.height
        let shown = Surface(width: w, height: h, format: .argb8888)
        reorient(stored, into: shown, orientation)
        return shown
    }

    /// The picture in `bytes` filling `width` x `height` pixels (UIKit's scaleAspectFill): scaled
    /// so its shorter side fits, the middle kept, box-filtered (pixman's separable convolution),
    /// turned as its orientation says. JPEG and WebP are decoded already scaled down as far as
    /// their libraries can while still covering the thumbnail.
    public static func thumbnail(_ bytes: [UInt8], path: String, width: Int, height: Int,
                                 maxPixels: Int = PNG.defaultMaxPixels) throws(RenderError) -> Bitmap {
        guard width > 0, height > 0, width <= maxThumbnailSide, height <= maxThumbnailSide else {
            throw RenderError.image(path: path, message: "a thumbnail of \(width)x\(height) pixels is not drawn")
        }
        let (format, orientation) = try header(bytes, path: path)
        // The thumbnail in the stored picture's axes; turned at the end.
        let (tw, th) = orientation.swapsAxes ? (height, width) : (width, height)
        let stored = try decodeStored(bytes, format: format, path: path, maxPixels: maxPixels, atLeast: (tw, th))
        let filled = Surface(width: tw, height: th, format: .argb8888)
        let f = max(Double(tw) / Double(stored.width), Double(th) / Double(stored.height))
        let drawn = Rect(x: (Double(tw) - Double(stored.width) * f) / 2, y: (Double(th) - Double(stored.height) * f) / 2,
                         width: Double(stored.width) * f, height: Double(stored.height) * f)
        Canvas(surface: filled).draw(image: stored, in: drawn, filter: .good)
        guard orientation != .up else { return Bitmap(surface: filled) }
        let shown = Surface(width: width, height: height, format: .argb8888)
        reorient(filled, into: shown, orientation)
        return Bitmap(surface: shown)
    }

    /// The picture's format and how it is to be turned, read once from its first bytes and metadata.
    private static func header(_ bytes: [UInt8], path: String) throws(RenderError) -> (ImageFormat, ImageOrientation) {
        guard let format = ImageFormat.sniff(bytes) else {
            throw RenderError.image(path: path, message: "not a PNG, JPEG or WebP picture")
        }
        return (format, ImageOrientation.of(bytes, format: format))
    }

    /// The picture as stored, decoded by its format's library.
    private static func decodeStored(_ bytes: [UInt8], format: ImageFormat, path: String, maxPixels: Int,
                                     atLeast: (width: Int, height: Int)?) throws(RenderError) -> Surface {
        switch format {
        case .png:
            // A thumbnail's PNG is reduced while it is read, never held whole.
            if let atLeast { return try PNG.reduced(bytes, path: path, maxPixels: maxPixels, atLeast: atLeast) }
            return try PNG.decode(bytes, path: path, maxPixels: maxPixels)
        case .jpeg: return try JPEG.decode(bytes, path: path, maxPixels: maxPixels, atLeast: atLeast)
        case .webp: return try WebP.decode(bytes, path: path, maxPixels: maxPixels, atLeast: atLeast)
        }
    }

    /// Copies `stored` into `shown` pixel by pixel as `orientation` turns it (thumbnails and
    /// the odd photo: a remap, not a filter, so no pixel changes value).
    private static func reorient(_ stored: Surface, into shown: Surface, _ orientation: ImageOrientation) {
        for y in 0..<shown.height {
            let out = (shown.pixels + y * shown.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<shown.width {
                let s = orientation.source(x: x, y: y, width: shown.width, height: shown.height)
                out[x] = (stored.pixels + s.y * stored.stride).assumingMemoryBound(to: UInt32.self)[s.x]
            }
        }
    }
}
