import PanelGestures

/// A control with a title that runs `action` when tapped (UIButton's filled style): the retry
/// of a list that could not load, the back control of a page.
@MainActor
open class Button: View {
    /// The title, centred.
    public let titleLabel = Label()
    /// Runs when the button is tapped.
    public var action: (() -> Void)?
    /// The fill at rest.
    public var fillColor: Color { didSet { if !isPressed { backgroundColor = fillColor } } }
    /// The fill while a finger rests on it: the rest fill darkened by a quarter (UIKit dims a
    /// pressed filled button).
    public var pressedColor: Color
    /// Whether a finger rests on the button now.
    public private(set) var isPressed = false

    /// A button titled `title`, in the system blue (#007AFF) with white text.
    public init(title: String = "", frame: Rect = .zero) {
        let blue = Color(red: 0, green: 122, blue: 255)
        fillColor = blue
        pressedColor = Color(red: 0, green: 92, blue: 191)
        super.init(frame: frame)
        backgroundColor = blue
        cornerRadius = 8
        titleLabel.text = title
        titleLabel.font = .bold(17)
        titleLabel.textColor = .white
        titleLabel.alignment = .center
        titleLabel.minimumScaleFactor = 0.75
        titleLabel.isUserInteractionEnabled = false
        addSubview(titleLabel)
    }

    /// The size the title needs with 20 points on each side and 44 points high (the smallest
    /// touch target of Apple's guidelines), at most `maxWidth`.
    public func fittingSize(maxWidth: Double) -> Size {
        Size(width: min(maxWidth, (titleLabel.textWidth + 40).rounded(.up)), height: 44)
    }

    /// The title fills the button.
    open override func layoutSubviews() {
        titleLabel.frame = Rect(x: 8, y: 0, width: max(0, frame.width - 16), height: frame.height)
    }

    /// A button shows its press.
    open override var showsPress: Bool { true }

    /// Darkens while pressed.
    open override func setPressed(_ pressed: Bool) {
        isPressed = pressed
        backgroundColor = pressed ? pressedColor : fillColor
    }

    /// Runs the action.
    open override func handleTap(at point: Point) -> Bool {
        guard let action else { return false }
        action()
        return true
    }
}
