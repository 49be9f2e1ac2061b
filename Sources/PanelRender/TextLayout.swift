/// One glyph of a laid-out line, where it is drawn.
public struct PlacedGlyph: Equatable, Sendable {
    /// The face that draws it (the library's numbering).
    public var face: Int
    /// Its glyph index in that face (what HarfBuzz chose: a ligature, a joining form, a mark).
    public var index: UInt32
    /// The first character of the text it draws (HarfBuzz's cluster), an index into
    /// `TextLayout.scalars`.
    public var cluster: Int
    /// The pen position it is drawn at, pixels from the line's left end, offsets included.
    public var x: Double
    /// Its vertical offset from the baseline, pixels, down positive (marks stacked over a letter).
    public var y: Double
    /// How far the pen moved for it, pixels.
    public var advance: Double
}

/// One shown line of a paragraph: its glyphs in the order they are drawn, left to right.
public struct TextLine: Sendable {
    /// The glyphs, left to right (runs reordered for display, each right-to-left run's glyphs
    /// reversed by the shaper).
    public var glyphs: [PlacedGlyph]
    /// The line's advance without its trailing spaces, pixels.
    public var width: Double
    /// The characters it shows, in logical order (indices into `TextLayout.scalars`).
    public var range: Range<Int>
    /// Whether it ends with the ellipsis (text was cut at its logical end).
    public var isTruncated: Bool
}

/// A text shaped (HarfBuzz), ordered for display (FriBidi) and broken into lines (libunibreak)
/// at one font, size and width.
public final class TextLayout {
    /// The characters laid out: the text's, bounded to what can show (`FontLibrary.scalarLimit`)
    /// with control characters dropped and runs of more than 30 combining marks cut (UAX #15's
    /// stream-safe limit).
    public let scalars: [Unicode.Scalar]
    /// The lines, top to bottom.
    public let lines: [TextLine]
    /// The paragraph's direction: its first strong character's, else the one asked for.
    public let isRightToLeft: Bool
    /// The widest line, pixels.
    public var width: Double { lines.reduce(0) { max($0, $1.width) } }
    /// Each line's coverage, built at its first drawing.
    var masks: [Glyph?]
    /// Each line's colour glyphs (emoji) with their places in the line's mask coordinates.
    var colorGlyphs: [[(glyph: Glyph, x: Int, y: Int)]]

    init(scalars: [Unicode.Scalar], lines: [TextLine], isRightToLeft: Bool) {
        (self.scalars, self.lines, self.isRightToLeft) = (scalars, lines, isRightToLeft)
        masks = Array(repeating: nil, count: lines.count)
        colorGlyphs = Array(repeating: [], count: lines.count)
    }

    /// The text of line `i` as shown, in logical order, with "…" where it was cut.
    public func text(ofLine i: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lines[i].range])
        if lines[i].isTruncated { view.append("…") }
        return String(view)
    }
}
