import CFontconfig
import CFreeType
import CPixman
import FoundationEssentials
import Glibc
import PanelUI

/// Fonts found through fontconfig and rasterised by FreeType, with a glyph cache. Each
/// character is drawn with the first font of fontconfig's sorted list for the requested
/// family and weight that has it, so Chinese, Korean and Cyrillic texts render with a Latin
/// family asked for.
@MainActor
public final class FontLibrary: TextMeasurer {
    private var library: OpaquePointer?
    private let config: OpaquePointer
    /// Candidate files per (family, weight), in fontconfig's order.
    private var candidates: [String: [(path: String, index: Int)]] = [:]
    /// One FreeType face per (file, index, pixel size).
    private var faces: [String: FT_Face] = [:]
    private var glyphs: [GlyphKey: Glyph] = [:]
    /// Which candidate draws a character, per font.
    private var fallback: [FallbackKey: Int] = [:]
    /// Per font and pixel size: glyphs by code point and metrics, so that drawing a glyph is
    /// one integer-keyed lookup (building string keys per glyph cost more than drawing it).
    private var instances: [InstanceKey: Instance] = [:]

    private struct InstanceKey: Hashable { var font: Font; var pixels: Int }

    final class Instance {
        var glyphs: [UInt32: Glyph?] = [:]
        var metrics: (ascender: Double, descender: Double, height: Double)?
    }

    private func instance(_ font: Font, _ pixels: Int) -> Instance {
        let key = InstanceKey(font: font, pixels: pixels)
        if let known = instances[key] { return known }
        let made = Instance()
        instances[key] = made
        return made
    }

    /// How many candidates of the sorted list are tried for a character before giving up.
    private static let maxCandidates = 12

    /// Opens fontconfig and the sans-serif faces with their fallbacks.
    public init() throws {
        var lib: OpaquePointer?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw RenderError.fonts("FT_Init_FreeType failed") }
        guard let config = FcInitLoadConfigAndFonts() else {
            FT_Done_FreeType(lib)
            throw RenderError.fonts("FcInitLoadConfigAndFonts failed")
        }
        library = lib
        self.config = config
    }

    isolated deinit {
        for face in faces.values { FT_Done_Face(face) }
        glyphs.removeAll()
        if let library { FT_Done_FreeType(library) }
        FcConfigDestroy(config)
    }

    /// Pixel size of a font: points × scale.
    static func pixels(_ font: Font, scale: Double) -> Int { max(1, Int((font.size * scale).rounded())) }

    private func candidateFiles(_ font: Font) throws -> [(path: String, index: Int)] {
        let key = "\(font.family)|\(font.weight.rawValue)"
        if let known = candidates[key] { return known }
        let weight = font.weight == .bold ? panel_fc_weight_bold : panel_fc_weight_regular
        guard let pattern = panel_fc_pattern(font.family, weight) else { throw RenderError.noFont(family: font.family) }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        var files: [(String, Int)] = []
        if let set = FcFontSort(config, pattern, FcTrue, nil, &result) {
            defer { FcFontSetDestroy(set) }
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i], let file = panel_fc_file(font) else { continue }
                files.append((String(cString: file), Int(panel_fc_index(font))))
            }
        }
        guard !files.isEmpty else { throw RenderError.noFont(family: font.family) }
        candidates[key] = files
        return files
    }

    private func face(_ file: (path: String, index: Int), pixels: Int) -> FT_Face? {
        let key = "\(file.path)#\(file.index)@\(pixels)"
        if let face = faces[key] { return face }
        var face: FT_Face?
        guard FT_New_Face(library, file.path, FT_Long(file.index), &face) == 0, let face else { return nil }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels))
        faces[key] = face
        return face
    }

    private struct FallbackKey: Hashable { var family: String; var weight: Font.Weight; var scalar: UInt32 }
    struct GlyphKey: Hashable { var face: String; var index: UInt32; var bold: Bool }

    /// The face that draws `scalar` in `font`, and its glyph index.
    private func resolve(_ scalar: Unicode.Scalar, _ font: Font, pixels: Int) throws -> (FT_Face, String, UInt32)? {
        let files = try candidateFiles(font)
        let key = FallbackKey(family: font.family, weight: font.weight, scalar: scalar.value)
        let chosen: Int
        if let known = fallback[key] {
            chosen = known
        } else {
            var found = 0
            for (i, file) in files.prefix(Self.maxCandidates).enumerated() {
                if let f = face(file, pixels: pixels), FT_Get_Char_Index(f, FT_ULong(scalar.value)) != 0 {
                    found = i
                    break
                }
            }
            fallback[key] = found
            chosen = found
        }
        let file = files[chosen]
        guard let f = face(file, pixels: pixels) else { return nil }
        return (f, "\(file.path)#\(file.index)@\(pixels)", FT_Get_Char_Index(f, FT_ULong(scalar.value)))
    }

    /// The rasterised glyph (cached per instance).
    private func glyph(_ scalar: Unicode.Scalar, _ font: Font, pixels: Int) -> Glyph? {
        glyph(scalar, font, pixels: pixels, in: instance(font, pixels))
    }

    private func glyph(_ scalar: Unicode.Scalar, _ font: Font, pixels: Int, in instance: Instance) -> Glyph? {
        if let cached = instance.glyphs[scalar.value] { return cached }
        let made = rasterise(scalar, font, pixels: pixels)
        instance.glyphs[scalar.value] = made
        return made
    }

    private func rasterise(_ scalar: Unicode.Scalar, _ font: Font, pixels: Int) -> Glyph? {
        guard let (face, faceKey, index) = try? resolve(scalar, font, pixels: pixels) else { return nil }
        let key = GlyphKey(face: faceKey, index: index, bold: font.weight == .bold)
        if let cached = glyphs[key] { return cached }
        guard FT_Load_Glyph(face, index, Int32(FT_LOAD_DEFAULT)) == 0, let slot = face.pointee.glyph else { return nil }
        // Bold asked for, but the face that has the character has no bold (WenQuanYi for
        // Hangul and Han): embolden the outline, as browsers do.
        if font.weight == .bold && face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) == 0 {
            FT_GlyphSlot_Embolden(slot)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let glyph = Glyph(slot: slot)
        glyphs[key] = glyph
        return glyph
    }

    /// Whether some font reachable from `font` has a glyph for `scalar` (no missing-glyph box).
    public func canDraw(_ scalar: Unicode.Scalar, in font: Font) -> Bool {
        guard let (_, _, index) = try? resolve(scalar, font, pixels: Self.pixels(font, scale: 1)) else { return false }
        return index != 0
    }

    /// Vertical metrics of the font's first face, pixels.
    func metrics(_ font: Font, pixels: Int) -> (ascender: Double, descender: Double, height: Double) {
        let cache = instance(font, pixels)
        if let known = cache.metrics { return known }
        var result = (ascender: Double(pixels) * 0.8, descender: -Double(pixels) * 0.2, height: Double(pixels) * 1.2)
        if let files = try? candidateFiles(font), let f = face(files[0], pixels: pixels), let size = f.pointee.size {
            let m = size.pointee.metrics
            result = (Double(m.ascender) / 64, Double(m.descender) / 64, Double(m.height) / 64)
        }
        cache.metrics = result
        return result
    }

    /// Advance of `text` in pixels.
    public func advance(_ text: String, _ font: Font, pixels: Int) -> Double {
        let cache = instance(font, pixels)
        var total = 0.0
        for scalar in text.unicodeScalars { total += glyph(scalar, font, pixels: pixels, in: cache)?.advance ?? 0 }
        return total
    }

    // MARK: TextMeasurer (points; the UI lays out at scale 1)

    /// The shaped text's advance with the chosen faces, points.
    public func width(of text: String, font: Font) -> Double { advance(text, font, pixels: Self.pixels(font, scale: 1)) }

    /// The face's line height, rounded up, points.
    public func lineHeight(of font: Font) -> Double { metrics(font, pixels: Self.pixels(font, scale: 1)).height.rounded(.up) }

    // MARK: Drawing

    /// Draws one line with its baseline at `baseline` starting at `x` (pixels).
    func drawLine(_ text: String, font: Font, pixels: Int, x: Double, baseline: Double, color: Color,
                  opacity: Double, on canvas: Canvas) {
        guard let line = lineMask(text, font, pixels: pixels), let mask = line.mask else { return }
        canvas.withSolidSource(color, opacity: opacity) { source in
            canvas.composite(source, mask: mask, x: Int(x.rounded()) + line.left, y: Int(baseline.rounded()) - line.top,
                             width: line.width, height: line.height)
        }
    }

    private struct LineKey: Hashable { var text: String; var font: Font; var pixels: Int }
    /// Rendered lines: a list redraws the same texts frame after frame, and one composite per
    /// line costs far less than one per glyph.
    private var lines: [LineKey: Glyph] = [:]
    /// Lines kept; past this the cache starts again (cheaper than tracking use).
    private static let maxLines = 2048

    /// The line's coverage as one A8 mask (a `Glyph` whose advance is the line's).
    func lineMask(_ text: String, _ font: Font, pixels: Int) -> Glyph? {
        let key = LineKey(text: text, font: font, pixels: pixels)
        if let cached = lines[key] { return cached }
        let cache = instance(font, pixels)
        var placed: [(glyph: Glyph, x: Int)] = []
        var pen = 0.0
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for scalar in text.unicodeScalars {
            guard let g = glyph(scalar, font, pixels: pixels, in: cache) else { continue }
            let x = Int(pen.rounded()) + g.left
            if g.mask != nil {
                placed.append((g, x))
                minX = min(minX, x); maxX = max(maxX, x + g.width)
                minY = min(minY, -g.top); maxY = max(maxY, -g.top + g.height)
            }
            pen += g.advance
        }
        let line = placed.isEmpty ? Glyph(empty: pen)
            : Glyph(line: placed.map { ($0.glyph, $0.x - minX, -$0.glyph.top - minY) },
                    width: maxX - minX, height: maxY - minY, left: minX, top: -minY, advance: pen)
        if lines.count >= Self.maxLines { lines.removeAll(keepingCapacity: true) }
        lines[key] = line
        return line
    }

    /// Glyph advances looked up by `truncate` and `wrap`, for tests: the work they do must
    /// follow what can show, not the length of the text.
    public private(set) var advancesMeasured = 0

    /// Cuts `text` to fit `width` pixels, ending with "…" when it had to cut. One pass over
    /// the characters, stopping at the first that does not fit: nothing past what can show is
    /// measured (a 10,000-character title used to be measured again for every character cut,
    /// 15 s on the run loop).
    public func truncate(_ text: String, font: Font, pixels: Int, width: Double) -> String {
        let cache = instance(font, pixels)
        let ellipsis: Unicode.Scalar = "…"
        let ellipsisWidth = glyph(ellipsis, font, pixels: pixels, in: cache)?.advance ?? 0
        var total = 0.0
        // Where the text could be cut with the ellipsis still fitting, and how many characters
        // were measured past it: zero-width ones (combining marks, joiners, missing glyphs)
        // would otherwise be measured without end while the line never overflows.
        var cut = text.unicodeScalars.startIndex
        var pastCut = 0
        var index = text.unicodeScalars.startIndex
        while index != text.unicodeScalars.endIndex {
            let scalar = text.unicodeScalars[index]
            advancesMeasured += 1
            total += glyph(scalar, font, pixels: pixels, in: cache)?.advance ?? 0
            pastCut += 1
            if total > width || pastCut > Self.maxLookahead {
                guard ellipsisWidth <= width else { return "" }
                var kept = String.UnicodeScalarView()
                kept.append(contentsOf: text.unicodeScalars[..<cut])
                kept.append(ellipsis)
                return String(kept)
            }
            text.unicodeScalars.formIndex(after: &index)
            if total + ellipsisWidth <= width {
                cut = index
                pastCut = 0
            }
        }
        return text
    }

    /// Characters `truncate` measures past the last place it could cut before it cuts there:
    /// 64, more than any real line has between its last fitting ellipsis and its end.
    public static let maxLookahead = 64

    /// Breaks `text` between characters into lines no wider than `width` pixels, at most
    /// `maxLines` of them (0: all); the text past the last line is not looked at.
    public func wrap(_ text: String, font: Font, pixels: Int, width: Double, maxLines: Int = 0) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var lineWidth = 0.0
        for scalar in text.unicodeScalars {
            advancesMeasured += 1
            let w = glyph(scalar, font, pixels: pixels)?.advance ?? 0
            if !line.isEmpty && lineWidth + w > width {
                lines.append(String(line))
                if maxLines > 0 && lines.count == maxLines { return lines }
                line = String.UnicodeScalarView()
                lineWidth = 0
            }
            line.append(scalar)
            lineWidth += w
        }
        if !line.isEmpty { lines.append(String(line)) }
        return lines
    }
}

/// A rasterised glyph: an A8 coverage mask (pixman image over memory it owns) and metrics.
final class Glyph {
    /// The bitmap's size, pixels.
    let width, height: Int
    /// Offset of the bitmap from the pen position, pixels (FreeType's bitmap_left/top).
    let left, top: Int
    let advance: Double
    let mask: OpaquePointer?
    private let bits: UnsafeMutableRawPointer?

    init(slot: FT_GlyphSlot) {
        let bitmap = slot.pointee.bitmap
        width = Int(bitmap.width)
        height = Int(bitmap.rows)
        left = Int(slot.pointee.bitmap_left)
        top = Int(slot.pointee.bitmap_top)
        advance = Double(slot.pointee.advance.x) / 64
        guard width > 0, height > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else {
            bits = nil
            mask = nil
            return
        }
        // pixman wants rows on 4-byte boundaries; FreeType's pitch need not be.
        let stride = (width + 3) & ~3
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        for row in 0..<height {
            (memory + row * stride).copyMemory(from: buffer + row * Int(bitmap.pitch), byteCount: width)
        }
        bits = memory
        mask = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height),
                                        memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
    }

    /// A line with no ink (spaces only).
    init(empty advance: Double) {
        width = 0; height = 0; left = 0; top = 0
        self.advance = advance
        mask = nil
        bits = nil
    }

    /// A line: the glyphs' masks added into one, each at (x, y) from its top-left corner.
    init(line glyphs: [(Glyph, Int, Int)], width: Int, height: Int, left: Int, top: Int, advance: Double) {
        (self.width, self.height, self.left, self.top, self.advance) = (width, height, left, top, advance)
        let stride = (width + 3) & ~3
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        bits = memory
        let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height),
                                             memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        mask = image
        for (glyph, x, y) in glyphs {
            guard let source = glyph.mask else { continue }
            pixman_image_composite32(PIXMAN_OP_ADD, source, nil, image, 0, 0, 0, 0, Int32(x), Int32(y),
                                     Int32(glyph.width), Int32(glyph.height))
        }
    }

    deinit {
        if let mask { pixman_image_unref(mask) }
        bits?.deallocate()
    }
}
