import PanelGestures
/// Horizontal placement of text in its label.
public enum TextAlignment: String, Sendable, Hashable {
    /// Against the left edge.
    case left
    /// In the middle.
    case center
    /// Against the right edge.
    case right
    /// Against the edge the text starts from: the right for a paragraph whose first strong
    /// letter is Arabic or Hebrew, else the left; a text with no strong letter follows the
    /// screen's `layoutDirection` (UIKit's and Android's natural alignment).
    case natural

    /// The edge `natural` stands for in a paragraph of that direction; the others as they are.
    public func resolved(rightToLeft: Bool) -> TextAlignment {
        self == .natural ? (rightToLeft ? .right : .left) : self
    }
}

/// Which way a user interface reads: where its lines start, its indicators sit beside texts,
/// and a horizontal list begins.
public enum LayoutDirection: String, Sendable, Hashable {
    /// Latin, Cyrillic, Greek, CJK, Indic, Thai: from the left.
    case leftToRight
    /// Arabic and Hebrew: from the right.
    case rightToLeft
}

/// Text on the screen.
@MainActor
open class Label: View {
    /// The text shown.
    public var text: String = "" { didSet { if text != oldValue { setNeedsDisplay() } } }
    /// The text's font.
    public var font: Font = .system(14) { didSet { if font != oldValue { setNeedsDisplay() } } }
    /// The text's colour.
    public var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// Where each line sits across the label.
    public var alignment: TextAlignment = .left { didSet { if alignment != oldValue { setNeedsDisplay() } } }
    /// 1: one line, cut with an ellipsis at its logical end; more: lines broken at UAX #14's
    /// opportunities (between words; between characters only where one word is wider than the
    /// label), the last cut with "…"; 0: as many as the label's height holds (MJRefresh's
    /// vertical trailer label).
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { setNeedsDisplay() } } }

    /// Vertical text: one character (an extended grapheme cluster: a letter with its marks, an
    /// emoji with its modifiers) a line, top to bottom, and an empty line where words meet
    /// (MJRefresh's vertical trailer label). Without it a column one em wide stacked narrow
    /// letters two to a line ("il") and dropped the spaces at line ends ("Couldnotloadmore").
    public var stacksCharacters = false { didSet { if stacksCharacters != oldValue { setNeedsDisplay() } } }

    /// The text as it is laid out: `text`, or for a stacked label its characters one a line,
    /// each run of white space one empty line.
    public var laidOutText: String { stacksCharacters ? Self.stacked(text) : text }

    /// `text`'s characters one a line, a run of white space between them one empty line,
    /// white space at either end dropped.
    public static func stacked(_ text: String) -> String {
        var lines: [String] = []
        var gap = false
        for character in text {
            if character.isWhitespace {
                gap = !lines.isEmpty
                continue
            }
            if gap { lines.append("") }
            gap = false
            lines.append(String(character))
        }
        return lines.joined(separator: "\n")
    }

    /// The smallest fraction of `font`'s size the text shrinks to when it does not fit one line
    /// (UILabel's `minimumScaleFactor`); 1: it never shrinks. A text that does not fit even
    /// then wraps, when `numberOfLines` allows more than one.
    public var minimumScaleFactor = 1.0 { didSet { if minimumScaleFactor != oldValue { setNeedsDisplay() } } }

    /// The font and line limit the text is drawn with in `width` points: `font` on one line if
    /// it fits; else shrunk as far as `minimumScaleFactor` allows (in half points) if that
    /// fits one line; else at the smallest size on up to `numberOfLines` lines.
    public func fitted(width: Double) -> (font: Font, lines: Int) {
        guard minimumScaleFactor < 1, !text.isEmpty, width > 0 else { return (font, numberOfLines) }
        let measurer = textMeasurer
        let whole = measurer.width(of: text, font: font)
        guard whole > width else { return (font, 1) }
        var smallest = font
        smallest.size = max(1, (font.size * minimumScaleFactor * 2).rounded(.up) / 2)
        var shrunk = font
        shrunk.size = max(smallest.size, (font.size * width / whole * 2).rounded(.down) / 2)
        if measurer.width(of: text, font: shrunk) <= width { return (shrunk, 1) }
        if measurer.width(of: text, font: smallest) <= width || numberOfLines == 1 { return (smallest, 1) }
        return (smallest, numberOfLines)
    }

    /// The widest line of the text as drawn in the label's width (fitted), points; the one-line
    /// width where the label has no width yet.
    public var fittedTextWidth: Double {
        guard !text.isEmpty else { return 0 }
        guard frame.width > 0, minimumScaleFactor < 1 || numberOfLines != 1 else { return textWidth }
        let (font, lines) = fitted(width: frame.width)
        return min(frame.width, textMeasurer.size(of: text, font: font, width: frame.width, maxLines: lines).width)
    }

    /// An empty label.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    /// The measurer of the screen this label is on, or the estimate.
    public var textMeasurer: any TextMeasurer { screen?.textMeasurer ?? Label.estimate }

    /// Width of the text on one line, points (MJRefresh's `mj_textWidth`).
    public var textWidth: Double { text.isEmpty ? 0 : textMeasurer.width(of: text, font: font) }

    private static let estimate = EstimatedTextMeasurer()
}
