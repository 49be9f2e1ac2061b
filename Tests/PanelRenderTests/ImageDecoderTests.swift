import FoundationEssentials
import Glibc
import Testing
import PanelInput
import PanelFuzz
@testable import PanelRender

@Suite("Row pictures: PNG, JPEG and WebP decoded under the budget, turned and scaled once")
struct ImageDecoderTests {
    /// The colour of a pixel of a bitmap, 0xRRGGBB (premultiplied as stored).
    static func rgb(_ b: Bitmap, _ x: Int, _ y: Int) -> UInt32 {
        let at = (y * b.width + x) * 4
        return UInt32(b.pixels[at + 2]) << 16 | UInt32(b.pixels[at + 1]) << 8 | UInt32(b.pixels[at])
    }

    /// Whether two colours are within `tolerance` per channel (JPEG is lossy).
    static func near(_ a: UInt32, _ b: UInt32, tolerance: UInt32 = 40) -> Bool {
        [16, 8, 0].allSatisfy { s in
            let x = (a >> UInt32(s)) & 0xff, y = (b >> UInt32(s)) & 0xff
            return max(x, y) - min(x, y) <= tolerance
        }
    }

    /// The four corners of `b`: top left, top right, bottom left, bottom right.
    static func corners(_ b: Bitmap) -> [UInt32] {
        [rgb(b, 1, 1), rgb(b, b.width - 2, 1), rgb(b, 1, b.height - 2), rgb(b, b.width - 2, b.height - 2)]
    }

    static let upright = [TestPictures.red, TestPictures.green, TestPictures.blue, TestPictures.yellow]

    static func encoded(_ format: ImageFormat, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        let picture = TestPictures.quadrants(width: width, height: height)
        switch format {
        case .png:
            // A name of its own per call: the tests run in parallel, and with one name per
            // process one call's unlink removed the file another was about to read.
            let path = "/tmp/panel-refresh-decoder-\(UUID().uuidString).png"
            try PNG.write(picture, to: path)
            defer { unlink(path) }
            return try BoundedFile.read(path, limit: 1 << 20)
        case .jpeg: return TestPictures.jpeg(picture)
        case .webp: return TestPictures.webp(picture)
        }
    }

    @Test("each format is told by its bytes and fills a thumbnail the right way up", arguments: ImageFormat.allCases)
    func thumbnails(format: ImageFormat) throws {
        let bytes = try Self.encoded(format)
        #expect(ImageFormat.sniff(bytes) == format)
        let thumb = try ImageDecoder.thumbnail(bytes, path: "quadrants", width: 20, height: 20)
        #expect(thumb.width == 20 && thumb.height == 20 && thumb.pixels.count == 20 * 20 * 4)
        for (found, expected) in zip(Self.corners(thumb), Self.upright) {
            #expect(Self.near(found, expected), "corner \(String(found, radix: 16)) for \(String(expected, radix: 16))")
        }
    }

    @Test("a 64x48 picture fills a 20x20 thumbnail by its height: the sides are cut, the middle kept")
    func aspectFill() throws {
        // Scaled by 20/48 the picture is 26.7 wide: 3.3 pixels cut each side. The boundary
        // between the halves stays in the middle column.
        let thumb = try ImageDecoder.thumbnail(try Self.encoded(.png), path: "quadrants", width: 20, height: 20)
        #expect(Self.near(Self.rgb(thumb, 8, 5), TestPictures.red))
        #expect(Self.near(Self.rgb(thumb, 11, 5), TestPictures.green))
        #expect(Self.near(Self.rgb(thumb, 5, 8), TestPictures.red))
        #expect(Self.near(Self.rgb(thumb, 5, 11), TestPictures.blue))
    }

    @Test("the Exif orientation turns the picture: each of the eight", arguments: ImageOrientation.allCases)
    func orientation(orientation: ImageOrientation) throws {
        let jpeg = TestPictures.withOrientation(jpeg: try Self.encoded(.jpeg), orientation.rawValue)
        #expect(ImageOrientation.of(jpeg, format: .jpeg) == orientation)
        let shown = try ImageDecoder.decode(jpeg, path: "turned")
        #expect((shown.width, shown.height) == (orientation.swapsAxes ? (48, 64) : (64, 48)))
        // Where each stored corner ends up (Exif 2.32, 4.6.4 A, Orientation).
        let (r, g, b, y) = (TestPictures.red, TestPictures.green, TestPictures.blue, TestPictures.yellow)
        let expected: [UInt32] = switch orientation {
        case .up: [r, g, b, y]
        case .upMirrored: [g, r, y, b]
        case .down: [y, b, g, r]
        case .downMirrored: [b, y, r, g]
        case .leftMirrored: [r, b, g, y]
        case .right: [b, r, y, g]
        case .rightMirrored: [y, g, b, r]
        case .left: [g, y, r, b]
        }
        let found = Self.corners(Bitmap(surface: shown))
        #expect(zip(found, expected).allSatisfy { Self.near($0, $1) }, "\(found.map { String($0, radix: 16) })")
        // The thumbnail turns the same way.
        let thumb = try ImageDecoder.thumbnail(jpeg, path: "turned", width: 24, height: 32)
        #expect(zip(Self.corners(thumb), expected).allSatisfy { Self.near($0, $1) })
    }

    @Test("PNG carries its orientation in an eXIf chunk, read by libpng; a bad CRC makes it no orientation, not a failure")
    func pngOrientation() throws {
        let plain = try Self.encoded(.png)
        let png = TestPictures.withOrientation(png: plain, 6)
        #expect(ImageOrientation.of(png, format: .png) == .right)
        let shown = try ImageDecoder.decode(png, path: "turned")
        #expect((shown.width, shown.height) == (48, 64))
        // The chunk's CRC (its last 4 bytes) spoilt: libpng drops the chunk, the picture stays.
        var broken = png
        broken[33 + (png.count - plain.count) - 1] ^= 0xff
        #expect(ImageOrientation.of(broken, format: .png) == .up)
        #expect(try ImageDecoder.decode(broken, path: "crc").width == 64)
        #expect(ImageOrientation.of(plain, format: .png) == .up)
    }

    @Test("WebP carries its orientation in an EXIF chunk")
    func webpOrientation() throws {
        let webp = TestPictures.withOrientation(webp: try Self.encoded(.webp), 6)
        #expect(ImageOrientation.of(webp, format: .webp) == .right)
        let shown = try ImageDecoder.decode(webp, path: "turned")
        #expect((shown.width, shown.height) == (48, 64))
    }

    @Test("JPEG decodes scaled down in the IDCT to the smallest scale still covering the thumbnail")
    func scaledDecode() throws {
        let jpeg = TestPictures.jpeg(TestPictures.quadrants(width: 640, height: 480))
        let whole = try JPEG.decode(jpeg, path: "big")
        #expect((whole.width, whole.height) == (640, 480))
        let scaled = try JPEG.decode(jpeg, path: "big", atLeast: (80, 60))
        #expect((scaled.width, scaled.height) == (80, 60), "1/8")
        let between = try JPEG.decode(jpeg, path: "big", atLeast: (100, 60))
        #expect(between.width >= 100 && between.height >= 60 && between.width < 640, "\(between.width)x\(between.height)")
        let webp = try WebP.decode(TestPictures.webp(TestPictures.quadrants(width: 640, height: 480)), path: "big", atLeast: (80, 40))
        #expect((webp.width, webp.height) == (80, 60), "libwebp's rescaler, aspect kept")
    }

    @Test("WebP keeps its alpha, premultiplied")
    func webpAlpha() throws {
        let webp = TestPictures.webp(TestPictures.quadrants(width: 16, height: 16, alpha: 128))
        let surface = try WebP.decode(webp, path: "half")
        let p = surface.pixel(x: 2, y: 2)
        #expect(p >> 24 == 128)
        #expect((p >> 16) & 0xff >= 125 && (p >> 16) & 0xff <= 129, "red premultiplied by half")
    }

    /// Where the committed test pictures are.
    static let pictures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Pictures").path

    @Test("a PNG for a thumbnail is reduced while it is read: each pixel a block's average, the same as the whole decode's")
    func reducedPNG() throws {
        let surface = TestPictures.quadrants(width: 64, height: 48)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reduce-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(surface, to: path)
        let bytes = try PNG.fileBytes(path)
        let reduced = try PNG.reduced(bytes, path: path, atLeast: (16, 12))
        #expect(reduced.width == 16 && reduced.height == 12, "factor 4: 64x48 into 16x12")
        func color(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixel(x: x, y: y) & 0xFFFFFF }
        #expect([color(reduced, 0, 0), color(reduced, 15, 0), color(reduced, 0, 11), color(reduced, 15, 11)] == Self.upright)
        // A block across the quadrants' edge is their average (the reduction is a box filter).
        let odd = try PNG.reduced(bytes, path: path, atLeast: (6, 6))
        #expect(odd.width == (64 + 7) / 8 && odd.height == 6)
        // An interlaced (Adam7) PNG: its seven passes land in the same blocks.
        let interlaced = try PNG.fileBytes(Self.pictures + "/quadrants-interlaced.png")
        let fromPasses = try PNG.reduced(interlaced, path: "quadrants-interlaced.png", atLeast: (16, 12))
        #expect(fromPasses.width == 16 && fromPasses.height == 12)
        for y in 0..<12 { for x in 0..<16 { #expect(fromPasses.pixel(x: x, y: y) == reduced.pixel(x: x, y: y)) } }
        // The thumbnail path takes it: a 2048x2048 picture for a 40-pixel square.
        let large = TestPictures.quadrants(width: 2048, height: 2048)
        try PNG.write(large, to: path)
        let thumbnail = try ImageDecoder.thumbnail(try PNG.fileBytes(path), path: path, width: 40, height: 40)
        #expect(Self.corners(thumbnail) == Self.upright)
    }

    @Test("interlaced PNGs of every small size decode row by row to the same pixels as a whole decode",
          arguments: ["1x1", "3x3", "5x2", "17x13"])
    func interlacedSizes(_ size: String) throws {
        let path = Self.pictures + "/interlaced-\(size).png"
        let bytes = try PNG.fileBytes(path)
        let whole = try PNG.decode(bytes, path: path)
        let rows = try PNG.reduced(bytes, path: path, atLeast: (whole.width, whole.height))
        #expect(rows.width == whole.width && rows.height == whole.height)
        for y in 0..<whole.height { for x in 0..<whole.width { #expect(rows.pixel(x: x, y: y) == whole.pixel(x: x, y: y), "(\(x), \(y))") } }
    }

    @Test("a progressive JPEG or lossless WebP whose decoding would hold more than 7 MiB is refused for a thumbnail, saying what it needs")
    func workMemory() throws {
        let big = TestPictures.quadrants(width: 2400, height: 2400)
        let progressive = TestPictures.jpeg(big, quality: 80, progressive: true)
        #expect(JPEG.isProgressive(progressive) && !JPEG.isProgressive(TestPictures.jpeg(big)))
        #expect(throws: RenderError.self) { try ImageDecoder.thumbnail(progressive, path: "p.jpg", width: 100, height: 100) }
        do {
            _ = try ImageDecoder.thumbnail(progressive, path: "p.jpg", width: 100, height: 100)
        } catch {
            #expect("\(error)".contains("progressive JPEG of 2400x2400 needs 16 MiB"), "\(error)")
        }
        // A baseline one of the same size, and a progressive 1920x1080, decode.
        #expect(Self.corners(try ImageDecoder.thumbnail(TestPictures.jpeg(big), path: "b.jpg", width: 100, height: 100)).enumerated()
            .allSatisfy { Self.near($0.element, Self.upright[$0.offset]) })
        let hd = TestPictures.jpeg(TestPictures.quadrants(width: 1920, height: 1080), quality: 80, progressive: true)
        #expect(JPEG.coefficientBytes(width: 1920, height: 1080, subsampling: 2) <= ImageDecoder.maxWorkBytes)
        _ = try ImageDecoder.thumbnail(hd, path: "hd.jpg", width: 100, height: 100)
        let lossless = TestPictures.webp(TestPictures.quadrants(width: 1500, height: 1500))
        #expect(throws: RenderError.self) { try ImageDecoder.thumbnail(lossless, path: "l.webp", width: 100, height: 100) }
        _ = try ImageDecoder.thumbnail(TestPictures.webp(TestPictures.quadrants(width: 1500, height: 1500), lossless: false),
                                       path: "lossy.webp", width: 100, height: 100)
    }

    @Test("bad pictures fail with a clear error and allocate nothing big: truncated, corrupt, a bomb, the wrong type")
    func badPictures() throws {
        let jpeg = try Self.encoded(.jpeg), webp = try Self.encoded(.webp), png = try Self.encoded(.png)
        for (name, bytes) in [("jpeg", jpeg), ("webp", webp), ("png", png)] {
            #expect(throws: RenderError.self, "\(name) cut in half") {
                _ = try ImageDecoder.thumbnail(Array(bytes.prefix(bytes.count / 2)), path: name, width: 20, height: 20)
            }
            #expect(throws: RenderError.self, "\(name) cut after its header") {
                _ = try ImageDecoder.thumbnail(Array(bytes.prefix(24)), path: name, width: 20, height: 20)
            }
        }
        let html = Array("<html><body>404 Not Found</body></html>".utf8)
        #expect(throws: RenderError.image(path: "x.jpg", message: "not a PNG, JPEG or WebP picture")) {
            _ = try ImageDecoder.thumbnail(html, path: "x.jpg", width: 20, height: 20)
        }
        // 60000 x 60000 declared: refused from the header, before any pixel is allocated.
        let bomb = TestPictures.jpegClaiming(jpeg, width: 60000, height: 60000)
        #expect(throws: RenderError.imageTooLarge(path: "bomb", width: 60000, height: 60000, maxPixels: PNG.defaultMaxPixels)) {
            _ = try ImageDecoder.thumbnail(bomb, path: "bomb", width: 20, height: 20)
        }
        #expect(throws: RenderError.self) { _ = try ImageDecoder.thumbnail(jpeg, path: "huge", width: 5000, height: 20) }
    }
}

