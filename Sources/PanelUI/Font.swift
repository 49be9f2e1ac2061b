import PanelGestures
/// What a label asks of a font; PanelRender finds a face for it through fontconfig.
public struct Font: Hashable, Sendable {
    /// The stroke weight.
    public enum Weight: String, Sendable, Hashable {
        /// The face's normal weight, or its bold face.
        case regular, bold
    }

    /// fontconfig family or generic name ("sans-serif").
    public var family: String
    /// Size in points.
    public var size: Double
    /// Regular or bold.
    public var weight: Weight
    /// The language of the text drawn in it, a BCP 47 tag ("ja", "zh-Hant", "sr"): it picks
    /// the local forms a script has in that language (OpenType `locl`: Japanese and Chinese Han,
    /// Serbian Cyrillic) and the face fontconfig prefers for it; nil: the renderer's language
    /// (the panel's locale).
    public var language: String?

    /// A font of `family` (fontconfig's name), `size` points, `weight`, for text in `language`
    /// (nil: the panel's).
    public init(family: String = "sans-serif", size: Double, weight: Weight = .regular, language: String? = nil) {
        (self.family, self.size, self.weight, self.language) = (family, size, weight, language)
    }

    /// The sans-serif font at `size` points.
    public static func system(_ size: Double) -> Font { Font(size: size) }
    /// The bold sans-serif font at `size` points.
    public static func bold(_ size: Double) -> Font { Font(size: size, weight: .bold) }
}

/// Measures text for layout. The renderer supplies one backed by real glyph metrics; the
/// core falls back to `EstimatedTextMeasurer`.
@MainActor
public protocol TextMeasurer: AnyObject {
    /// Advance width of `text` on one line, points.
    func width(of text: String, font: Font) -> Double
    /// Height of one line, points.
    func lineHeight(of font: Font) -> Double
    /// The size of `text` broken into lines no wider than `width` points, at most `maxLines`
    /// (0: as many as it needs): the widest line's advance, and the lines' heights.
    func size(of text: String, font: Font, width: Double, maxLines: Int) -> Size
}

extension TextMeasurer {
    /// The estimate's wrap: as many lines as the one-line width needs, rounded up.
    public func size(of text: String, font: Font, width: Double, maxLines: Int) -> Size {
        guard !text.isEmpty else { return Size(width: 0, height: 0) }
        let whole = self.width(of: text, font: font)
        var lines = width > 0 && width.isFinite ? max(1, Int((whole / width).rounded(.up))) : 1
        if maxLines > 0 { lines = min(lines, maxLines) }
        return Size(width: min(whole, width), height: lineHeight(of: font) * Double(lines))
    }
}

/// Text metrics without a font file: 0.55 em per narrow character, 1 em per wide one (CJK,
/// Hangul, full-width forms), 1.2 em line height. Close enough to lay out arrows beside
/// labels where no renderer is attached (tests, headless logic); the renderer replaces it.
@MainActor
public final class EstimatedTextMeasurer: TextMeasurer {
    /// An estimate with no font files.
    public init() {}

    /// 0.55 of the size per character (an estimate without fonts).
    public func width(of text: String, font: Font) -> Double {
        var ems = 0.0
        for scalar in text.unicodeScalars {
            ems += Self.isWide(scalar) ? 1.0 : 0.55
        }
        return ems * font.size
    }

    /// 1.2 times the size, rounded up.
    public func lineHeight(of font: Font) -> Double { (font.size * 1.2).rounded(.up) }

    /// East Asian wide ranges: Hangul Jamo, CJK symbols to Yi, Hangul syllables, CJK
    /// compatibility, full-width forms.
    static func isWide(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6: return true
        default: return false
        }
    }
}
