import PanelGestures
/// Horizontal placement of text in its label.
public enum TextAlignment: String, Sendable, Hashable {
    /// Against the left edge.
    case left
    /// In the middle.
    case center
    /// Against the right edge.
    case right
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
    /// 1: one line, cut with an ellipsis; 0: as many lines as needed, broken between
    /// characters where the width requires (MJRefresh's vertical trailer label).
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { setNeedsDisplay() } } }

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
