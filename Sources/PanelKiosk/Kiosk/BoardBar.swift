import FoundationEssentials
import PanelHost

/// The bar over a wall board's rows: its name at the leading edge and the panel's local time
/// at the trailing edge, as departure boards and signage players show them
/// (`appearance.board-title`, `appearance.board-clock`). The time is set at each whole minute
/// (a deadline of the host, ``KioskList``'s minute tick), never polled.
public final class BoardBar: View {
    /// The board's name.
    public let titleLabel = Label()
    /// The local time, "18:10".
    public let clockLabel = Label()
    /// Whether the time shows.
    public let showsClock: Bool
    /// The bar's height at text scale 1, points.
    public static let height: Double = 52
    /// The bar's height for its text, points.
    public var height: Double { max(Self.height, (titleLabel.font.size * 52 / 22).rounded()) }
    /// The room at its ends, points.
    static let margin: Double = 16

    /// A bar named `title` (empty: none), with the time when `clock`, `text` on `background`;
    /// its text `scale` times 22 points (`appearance.text-size`).
    public init(title: String, clock: Bool, background: Color, text: Color, scale: Double = 1) {
        showsClock = clock
        super.init(frame: .zero)
        backgroundColor = background
        autoresizingMask = [.flexibleWidth]
        for label in [titleLabel, clockLabel] {
            label.font = .bold((22 * scale).rounded())
            label.textColor = text
            addSubview(label)
        }
        titleLabel.text = title
        titleLabel.alignment = .natural
        clockLabel.isHidden = !clock
    }

    /// Sets the time shown to `date`'s minute on `clock`.
    public func show(time date: Date, clock: ItemClock) {
        guard showsClock else { return }
        clockLabel.text = clock.clockText(date)
        setNeedsLayout()
    }

    /// The name from the leading edge, the time at the trailing one; a long name is cut
    /// before the time.
    public override func layoutSubviews() {
        let rightToLeft = screen?.layoutDirection == .rightToLeft
        let clockWidth = showsClock ? clockLabel.textWidth.rounded(.up) : 0
        let h = frame.height
        let titleWidth = max(0, frame.width - 2 * Self.margin - (clockWidth > 0 ? clockWidth + Self.margin : 0))
        titleLabel.frame = Rect(x: rightToLeft ? frame.width - Self.margin - titleWidth : Self.margin, y: 0, width: titleWidth, height: h)
        clockLabel.frame = Rect(x: rightToLeft ? Self.margin : frame.width - Self.margin - clockWidth, y: 0, width: clockWidth, height: h)
    }
}
