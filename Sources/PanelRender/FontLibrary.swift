import CFontconfig
import CFreeType
import CHarfBuzz
import CPixman
import Glibc
import PanelUI

/// Fonts found through fontconfig, shaped by HarfBuzz and rasterised by FreeType, with glyph,
/// layout and line caches. A text is split into runs by direction, script and face: each
/// character is drawn by the requested family's face when it has it, else by fontconfig's best
/// face that covers it, and marks, joiners and spaces stay in the run they are in.
@MainActor
public final class FontLibrary: TextMeasurer {
    private var library: OpaquePointer?
    private let config: OpaquePointer

    /// A face loaded at one pixel size, with its HarfBuzz font.
    struct LoadedFace {
        /// FreeType's face, sized.
        let face: FT_Face
        /// HarfBuzz's font over it (hb-ft: the same outlines, advances and kerning tables).
        let font: OpaquePointer
        /// The file it came from, for tests that shape it with `hb-shape`.
        let path: String
        /// Its index in the file.
        let index: Int
        /// Pixels drawn per pixel the face gives: 1 for outlines; for a bitmap-only face
        /// (colour emoji strikes, 109 pixels in Noto Color Emoji) the size asked for over the strike's.
        let scale: Double
        /// A colour bitmap face (emoji).
        let isColor: Bool
        /// Bold asked for and the face has none: outlines are emboldened, as browsers do.
        let embolden: Bool
    }
    /// Faces by number (`PlacedGlyph.face`).
    private(set) var loaded: [LoadedFace] = []
    /// Face numbers by file, size and boldness (a struct key: a string built for each lookup
    /// cost more than the lookup, and `faceFor` asks for every character laid out).
    private var faceNumbers: [FaceKey: Int] = [:]
    /// The requested family's own file, per (family, weight).
    private var primaries: [String: FontFile] = [:]
    /// The family's own face, per font and size: `faceFor` starts from it for every character.
    private var primaryFaces: [InstanceKey: Int] = [:]
    /// The face that draws a character outside the primary face, per (family, weight, character).
    private var fallbacks: [FallbackKey: FontFile?] = [:]
    private var glyphs: [GlyphKey: Glyph?] = [:]
    private var metricsCache: [InstanceKey: (ascender: Double, descender: Double, height: Double)] = [:]

    struct FontFile: Hashable { var path: String; var index: Int }
    private struct InstanceKey: Hashable { var font: Font; var pixels: Int }
    private struct FaceKey: Hashable { var file: FontFile; var pixels: Int; var bold: Bool }
    private struct FallbackKey: Hashable {
        var family: String; var weight: Font.Weight; var scalar: UInt32; var color: Bool; var language: String?
    }
    private struct GlyphKey: Hashable { var face: Int; var index: UInt32 }

    /// Opens FreeType and fontconfig; the faces in `fontDirectories` join the system's as the
    /// application's own (`FcConfigAppFontAddDir`): an app that ships a face for its texts.
    public init(fontDirectories: [String] = []) throws {
        var lib: OpaquePointer?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw RenderError.fonts("FT_Init_FreeType failed") }
        guard let config = FcInitLoadConfigAndFonts() else {
            FT_Done_FreeType(lib)
            throw RenderError.fonts("FcInitLoadConfigAndFonts failed")
        }
        for directory in fontDirectories where FcConfigAppFontAddDir(config, directory) == 0 {
            FcConfigDestroy(config)
            FT_Done_FreeType(lib)
            throw RenderError.fonts("fontconfig cannot read the fonts in \(directory)")
        }
        library = lib
        self.config = config
    }

    isolated deinit {
        layouts.removeAll()
        glyphs.removeAll()
        for face in loaded {
            hb_font_destroy(face.font)
            FT_Done_Face(face.face)
        }
        if let library { FT_Done_FreeType(library) }
        FcConfigDestroy(config)
    }

    /// The language of text whose font names none (`Font.language`), a BCP 47 tag ("ja",
    /// "zh-TW", "sr"); nil: HarfBuzz's default, the process's C locale. The program sets the
    /// panel's locale here (`appearance.locale`, else `LANG`): without it every run was shaped
    /// as the process's language, and Han, Cyrillic and others took their default forms where
    /// the panel's language has local ones (`locl`).
    public var language: String? {
        didSet { if language != oldValue { layouts.removeAll() } }
    }

    /// fontconfig's language for a BCP 47 tag. Its languages are ISO 639 codes with at most a
    /// region ("zh-tw", "sr"), and FcLangNormalize refuses a script subtag: "zh-Hans" (the
    /// configuration's own example) printed "Fontconfig warning: ignoring zh-Hans: not a valid
    /// region tag" twice per item and lost the language. A region is kept; for Chinese without
    /// one the script says which (Hant: zh-tw, Hans: zh-cn); other scripts are left out
    /// (sr-Latn: sr). Nil for what is no language tag.
    public static func fontconfigLanguage(_ tag: String) -> String? {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let rest = parts.dropFirst()
        if let region = rest.first(where: { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }) {
            return language + "-" + region
        }
        if language == "zh", let script = rest.first(where: { $0.count == 4 }) { return script == "hant" ? "zh-tw" : "zh-cn" }
        return language
    }

    /// The BCP 47 tag of a POSIX locale name: "ja_JP.UTF-8" is "ja-JP", "sr_RS@latin"
    /// "sr-RS"; "C", "POSIX" and an empty name are none.
    public static func languageTag(locale: String) -> String? {
        var name = Substring(locale)
        if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = name[..<cut] }
        guard !name.isEmpty, name != "C", name != "POSIX",
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else { return nil }
        return String(name.map { $0 == "_" ? "-" : $0 })
    }

    /// The language `font`'s text is shaped as: its own, else the library's.
    func language(of font: Font) -> String? { font.language ?? language }

    /// Pixel size of a font: points × scale.
    static func pixels(_ font: Font, scale: Double) -> Int { max(1, Int((font.size * scale).rounded())) }

    private static func weight(_ font: Font) -> Int32 { font.weight == .bold ? panel_fc_weight_bold : panel_fc_weight_regular }

    /// fontconfig's match for a pattern, substituted as applications do.
    private func match(_ pattern: OpaquePointer) -> FontFile? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let found = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(found) }
        guard let file = panel_fc_file(found) else { return nil }
        return FontFile(path: String(cString: file), index: Int(panel_fc_index(found)))
    }

    private func primary(_ font: Font) throws -> FontFile {
        let key = "\(font.family)|\(font.weight.rawValue)"
        if let known = primaries[key] { return known }
        guard let pattern = panel_fc_pattern(font.family, Self.weight(font)) else { throw RenderError.noFont(family: font.family) }
        defer { FcPatternDestroy(pattern) }
        guard let file = match(pattern) else { throw RenderError.noFont(family: font.family) }
        primaries[key] = file
        return file
    }

    /// The face number of `file` at `pixels`, loading it at the first use.
    func face(_ file: FontFile, pixels: Int, bold: Bool) -> Int? {
        let key = FaceKey(file: file, pixels: pixels, bold: bold)
        if let known = faceNumbers[key] { return known }
        var opened: FT_Face?
        guard panel_ft_open_face(library, file.path, FT_Long(file.index), &opened) == 0, let face = opened else { return nil }
        var scale = 1.0
        if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 {
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels))
        } else if face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes {
            // A bitmap-only face (colour emoji): its one strike, scaled to the size when drawn.
            FT_Select_Size(face, 0)
            scale = Double(pixels) / max(1, Double(sizes[0].y_ppem) / 64)
        } else {
            FT_Done_Face(face)
            return nil
        }
        guard let font = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            return nil
        }
        let embolden = bold && face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) == 0
        let number = loaded.count
        loaded.append(LoadedFace(face: face, font: font, path: file.path, index: file.index, scale: scale,
                                 isColor: face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0, embolden: embolden))
        faceNumbers[key] = number
        return number
    }

    /// The face number of the requested family's own face.
    func primaryFace(_ font: Font, pixels: Int) -> Int? {
        let key = InstanceKey(font: font, pixels: pixels)
        if let known = primaryFaces[key] { return known }
        guard let file = try? primary(font), let number = face(file, pixels: pixels, bold: font.weight == .bold) else { return nil }
        primaryFaces[key] = number
        return number
    }

    /// Whether face `number` has a glyph for `scalar`.
    func covers(_ number: Int, _ scalar: UInt32) -> Bool { FT_Get_Char_Index(loaded[number].face, FT_ULong(scalar)) != 0 }

    /// The face that draws `scalar` in `font`: the family's own face if it has the character,
    /// else fontconfig's best match that covers it, else the family's (its missing-glyph box).
    /// A character shown as an emoji by default (Emoji_Presentation) asks for a colour face
    /// first, as phones and browsers draw it (DejaVu has black-and-white faces for some).
    func faceFor(_ scalar: UInt32, _ font: Font, pixels: Int) -> Int? {
        guard let own = primaryFace(font, pixels: pixels) else { return nil }
        let color = Self.prefersColor(scalar)
        if !color && covers(own, scalar) { return own }
        if let found = fallbackFace(scalar, font, pixels: pixels, color: color) { return found }
        if color && covers(own, scalar) { return own }
        if color, let found = fallbackFace(scalar, font, pixels: pixels, color: false) { return found }
        return own
    }

    /// Whether `scalar` is drawn as a colour emoji by default (Unicode's Emoji_Presentation;
    /// nothing below U+231A has it).
    static func prefersColor(_ scalar: UInt32) -> Bool {
        scalar >= 0x231A && (Unicode.Scalar(scalar)?.properties.isEmojiPresentation ?? false)
    }

    /// fontconfig's face for `scalar` (a colour one when asked), if one covers it; cached.
    private func fallbackFace(_ scalar: UInt32, _ font: Font, pixels: Int, color: Bool) -> Int? {
        let language = language(of: font)
        let key = FallbackKey(family: font.family, weight: font.weight, scalar: scalar, color: color, language: language)
        let file: FontFile?
        if let known = fallbacks[key] {
            file = known
        } else {
            var found: FontFile?
            if let pattern = panel_fc_pattern_covering(font.family, Self.weight(font), scalar, color ? 1 : 0,
                                                       language.flatMap(Self.fontconfigLanguage)) {
                found = match(pattern)
                FcPatternDestroy(pattern)
            }
            fallbacks[key] = found
            file = found
        }
        guard let file, let number = face(file, pixels: pixels, bold: font.weight == .bold), covers(number, scalar),
              !color || loaded[number].isColor else { return nil }
        return number
    }

    /// Whether some face reachable from `font` has a glyph for `scalar` (no missing-glyph box).
    public func canDraw(_ scalar: Unicode.Scalar, in font: Font) -> Bool {
        guard let number = faceFor(scalar.value, font, pixels: Self.pixels(font, scale: 1)) else { return false }
        return covers(number, scalar.value)
    }

    /// Whether `scalar` is drawn at all: white space, controls and default-ignorable characters
    /// (joiners, variation selectors) show no glyph of their own, so no face need cover them.
    static func isDrawn(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .surrogate, .unassigned, .privateUse:
            return false
        default:
            return !properties.isDefaultIgnorableCodePoint && !properties.isWhitespace
        }
    }

    /// The characters of `text` that no installed face draws (each once, in order): what would
    /// show as the missing-glyph box. White space, controls and joiners need no face.
    public func uncovered(in text: String, font: Font = .system(17)) -> [Unicode.Scalar] {
        var seen = Set<UInt32>()
        var found: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where Self.isDrawn(scalar) && !seen.contains(scalar.value) {
            seen.insert(scalar.value)
            if !canDraw(scalar, in: font) { found.append(scalar) }
        }
        return found
    }

    /// Told once per script the first time a laid-out text has a character of it that no
    /// installed face draws (it shows as the missing-glyph box): the script's name, the
    /// character, the package that would draw it (`WritingSystem.advice`) and the text's start.
    /// The program logs it, once per script rather than once per text or frame.
    public var onUncovered: ((_ script: String, _ scalar: UInt32, _ advice: String, _ text: String) -> Void)?
    /// The scripts already told of.
    private var reportedScripts: Set<String> = []

    /// Tells `onUncovered` of `scalar` unless its script was told of already.
    func reportUncovered(_ scalar: UInt32, in scalars: [Unicode.Scalar]) {
        guard let onUncovered, let value = Unicode.Scalar(scalar), Self.isDrawn(value) else { return }
        let script = WritingSystem.name(of: scalar)
        guard reportedScripts.insert(script).inserted else { return }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars.prefix(40))
        onUncovered(script, scalar, WritingSystem.advice(for: scalar), String(text))
    }

    /// The file of face `number` and its index in it (what `hb-shape` is given in the tests).
    public func file(ofFace number: Int) -> (path: String, index: Int) { (loaded[number].path, loaded[number].index) }

    /// Vertical metrics of the font's own face, pixels.
    func metrics(_ font: Font, pixels: Int) -> (ascender: Double, descender: Double, height: Double) {
        let key = InstanceKey(font: font, pixels: pixels)
        if let known = metricsCache[key] { return known }
        var result = (ascender: Double(pixels) * 0.8, descender: -Double(pixels) * 0.2, height: Double(pixels) * 1.2)
        if let number = primaryFace(font, pixels: pixels), let size = loaded[number].face.pointee.size {
            let m = size.pointee.metrics
            result = (Double(m.ascender) / 64, Double(m.descender) / 64, Double(m.height) / 64)
        }
        metricsCache[key] = result
        return result
    }

    /// The rasterised glyph `index` of face `number` (cached).
    func glyph(face number: Int, index: UInt32) -> Glyph? {
        let key = GlyphKey(face: number, index: index)
        if let cached = glyphs[key] { return cached }
        let made = rasterise(loaded[number], index)
        glyphs[key] = made
        return made
    }

    private func rasterise(_ loaded: LoadedFace, _ index: UInt32) -> Glyph? {
        let face = loaded.face
        let flags = loaded.isColor ? panel_ft_load_color : panel_ft_load_light
        guard FT_Load_Glyph(face, index, flags) == 0, let slot = face.pointee.glyph else { return nil }
        if loaded.embolden { FT_GlyphSlot_Embolden(slot) }
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        }
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) else { return Glyph(slot: slot) }
        return Self.colorGlyph(slot, scale: loaded.scale)
    }

    /// A BGRA bitmap (premultiplied, as FreeType gives colour strikes) scaled to the size asked
    /// for with pixman's good filter.
    private static func colorGlyph(_ slot: FT_GlyphSlot, scale: Double) -> Glyph? {
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, let buffer = bitmap.buffer, bitmap.pitch > 0 else { return nil }
        let strike = Surface(width: width, height: height, format: .argb8888)
        for row in 0..<height {
            (strike.pixels + row * strike.stride).copyMemory(from: buffer + row * Int(bitmap.pitch), byteCount: width * 4)
        }
        let drawn = (width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
        let image = Renderer.scaled(strike, toFit: drawn)
        return Glyph(color: image, left: Int((Double(slot.pointee.bitmap_left) * scale).rounded()),
                     top: Int((Double(slot.pointee.bitmap_top) * scale).rounded()),
                     advance: Double(slot.pointee.advance.x) / 64 * scale)
    }

    // MARK: Layout caches

    struct LayoutKey: Hashable {
        var text: String
        var font: Font
        var pixels: Int
        var width: Double
        var maxLines: Int
        var rightToLeftWhenNeutral: Bool
    }
    /// Laid-out texts: a list draws the same texts frame after frame, so each is shaped once.
    var layouts: [LayoutKey: TextLayout] = [:]
    /// Layouts kept; past this the cache starts again (cheaper than tracking use).
    static let maxLayouts = 2048

    /// Forgets the laid-out texts (faces and glyphs stay): the next frame shapes what it shows
    /// again. For benchmarks, whose cases must each start alike whichever ran before them.
    public func removeLayouts() { layouts.removeAll() }

    /// Characters shaped so far (each layout shapes at most `scalarLimit` of them), for tests:
    /// the work must follow what can show, not the length of the text.
    public internal(set) var advancesMeasured = 0

    // MARK: TextMeasurer (points; the UI lays out at scale 1)

    /// The shaped text's advance on one line, points.
    public func width(of text: String, font: Font) -> Double {
        layout(text, font: font, pixels: Self.pixels(font, scale: 1), width: .infinity, maxLines: 1).width
    }

    /// The face's line height, rounded up, points.
    public func lineHeight(of font: Font) -> Double { metrics(font, pixels: Self.pixels(font, scale: 1)).height.rounded(.up) }

    /// The size of `text` broken into lines no wider than `width` points, at most `maxLines`
    /// (0: as many as it needs, up to `Renderer.maxUnlimitedLines`).
    public func size(of text: String, font: Font, width: Double, maxLines: Int) -> Size {
        let pixels = Self.pixels(font, scale: 1)
        let laid = layout(text, font: font, pixels: pixels, width: width,
                          maxLines: maxLines > 0 ? maxLines : Renderer.maxUnlimitedLines)
        return Size(width: laid.width, height: lineHeight(of: font) * Double(max(laid.lines.count, text.isEmpty ? 0 : 1)))
    }

    /// Advance of `text` on one line, pixels.
    public func advance(_ text: String, _ font: Font, pixels: Int) -> Double {
        layout(text, font: font, pixels: pixels, width: .infinity, maxLines: 1).width
    }

    /// Cuts `text` to fit `width` pixels on one line, ending with "…" at its logical end when
    /// it had to cut.
    public func truncate(_ text: String, font: Font, pixels: Int, width: Double) -> String {
        let laid = layout(text, font: font, pixels: pixels, width: width, maxLines: 1)
        return laid.lines.isEmpty ? "" : laid.text(ofLine: 0)
    }

    /// Breaks `text` into lines no wider than `width` pixels at UAX #14's opportunities (between
    /// characters only where a word is wider than the line), at most `maxLines` of them (0:
    /// `Renderer.maxUnlimitedLines`), the last cut with "…" when text is left over.
    public func wrap(_ text: String, font: Font, pixels: Int, width: Double, maxLines: Int = 0) -> [String] {
        let laid = layout(text, font: font, pixels: pixels, width: width, maxLines: maxLines > 0 ? maxLines : Renderer.maxUnlimitedLines)
        return laid.lines.indices.map { laid.text(ofLine: $0) }
    }
}
