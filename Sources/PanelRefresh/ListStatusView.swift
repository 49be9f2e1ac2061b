import PanelUI

/// What a list with no rows to show says instead of a blank screen.
public enum ListStatus: Sendable, Hashable {
    /// The first page is on its way: a spinner over "Loading…".
    case loading
    /// The source has no items: "Nothing here yet" and the pull (or the button) that asks again.
    case empty
    /// The first page could not be loaded: "Could not load", the reason, the pull that retries
    /// and a retry button.
    case failed(reason: String)
}

/// The centred message of a list that shows no rows (`ListStatus`), in the localizer's
/// language, over the list's background. It sits inside the list, so a vertical list's pull
/// still reaches the header (the pull it suggests), and its retry button takes taps.
@MainActor
open class ListStatusView: View {
    /// Spins while the first page loads.
    public let spinner = ActivityIndicator()
    /// "Loading…", "Nothing here yet" or "Could not load".
    public let titleLabel = Label()
    /// The reason of a failure, up to three lines.
    public let messageLabel = Label()
    /// The pull that retries ("Pull down to retry"), where the list has a header.
    public let hintLabel = Label()
    /// Loads the list again.
    public let retryButton = Button()
    /// What the view says; nil: nothing (the view hides).
    public var status: ListStatus? { didSet { if status != oldValue { update() } } }
    /// Whether the list is pulled to refresh (a vertical list with a header): the view
    /// suggests the pull; without it, the empty list gets the retry button instead.
    public var suggestsPull = true { didSet { if suggestsPull != oldValue { update() } } }
    /// Runs when the retry button is tapped.
    public var retryAction: (() -> Void)? {
        get { retryButton.action }
        set { retryButton.action = newValue }
    }
    /// The texts' language (read when the status is set).
    public var localizer: RefreshLocalizer { didSet { update() } }

    /// The widest the texts get, points: 360 (a comfortable line at 17 points).
    static let maxTextWidth: Double = 360
    /// Space between the parts, points.
    static let gap: Double = 10

    /// An empty view in `localizer`'s language.
    public init(localizer: RefreshLocalizer = .shared) {
        self.localizer = localizer
        super.init(frame: .zero)
        titleLabel.font = .bold(17)
        titleLabel.textColor = Color(red: 60, green: 60, blue: 67)
        messageLabel.font = .system(15)
        messageLabel.numberOfLines = 3
        hintLabel.font = .system(13)
        for label in [messageLabel, hintLabel] { label.textColor = Color(red: 110, green: 110, blue: 115) }
        for label in [titleLabel, messageLabel, hintLabel] {
            label.alignment = .center
            label.minimumScaleFactor = 0.75
            label.numberOfLines = max(label.numberOfLines, 2)
            label.isUserInteractionEnabled = false
        }
        for view in [spinner, titleLabel, messageLabel, hintLabel, retryButton] as [View] { addSubview(view) }
        update()
    }

    private func update() {
        isHidden = status == nil
        let failedReason: String? = if case .failed(let reason)? = status { reason } else { nil }
        switch status {
        case .loading?: titleLabel.text = localizer.text(.listLoading)
        case .empty?: titleLabel.text = localizer.text(.listEmpty)
        case .failed?: titleLabel.text = localizer.text(.listFailed)
        case nil: titleLabel.text = ""
        }
        messageLabel.text = failedReason ?? ""
        switch status {
        case .empty? where suggestsPull: hintLabel.text = localizer.text(.listEmptyHint)
        case .failed? where suggestsPull: hintLabel.text = localizer.text(.listRetryHint)
        default: hintLabel.text = ""
        }
        // A failure always offers the button; an empty list without a pull needs it to ask again.
        let button: Bool = switch status {
        case .failed?: true
        case .empty?: !suggestsPull
        case .loading?, nil: false
        }
        retryButton.isHidden = !button
        retryButton.titleLabel.text = localizer.text(.retry)
        if status == .loading { spinner.startAnimating() } else { spinner.stopAnimating() }
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// The parts one under the other, the column centred in the view.
    open override func layoutSubviews() {
        let width = min(frame.width - 40, Self.maxTextWidth)
        let x = (frame.width - width) / 2
        func height(_ label: Label) -> Double {
            guard !label.text.isEmpty else { return 0 }
            return label.textMeasurer.size(of: label.text, font: label.font, width: width, maxLines: label.numberOfLines).height.rounded(.up)
        }
        var parts: [(View, Double, Double)] = []   // view, width, height
        if spinner.isAnimating { parts.append((spinner, 20, 20)) }
        for label in [titleLabel, messageLabel, hintLabel] where !label.text.isEmpty { parts.append((label, width, height(label))) }
        if !retryButton.isHidden {
            let size = retryButton.fittingSize(maxWidth: width)
            parts.append((retryButton, size.width, size.height))
        }
        let total = parts.reduce(0) { $0 + $1.2 } + Self.gap * Double(max(0, parts.count - 1))
        var y = ((frame.height - total) / 2).rounded(.down)
        for (view, w, h) in parts {
            view.frame = Rect(x: (x + (width - w) / 2).rounded(.down), y: y, width: w, height: h)
            y += h + Self.gap
        }
        for label in [titleLabel, messageLabel, hintLabel] where label.text.isEmpty { label.frame = .zero }
        if retryButton.isHidden { retryButton.frame = .zero }
    }
}
