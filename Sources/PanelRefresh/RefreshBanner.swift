import FoundationEssentials
import PanelUI

/// The strip along a list's bottom edge after a refresh failed while the list already showed
/// items: "Could not refresh: reason · items from 10:42", until the next refresh succeeds. The
/// list stays as it was (MJRefresh's header shows a failure only while it closes).
@MainActor
open class RefreshBanner: View {
    /// The text, on up to two lines, the last cut with "…".
    public let label = Label()
    /// The banner's height, points: 44 (two lines of 13-point text with room around them).
    public static let height: Double = 44

    /// A hidden banner.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        // UIKit's label colour at 85 %: dark over any list, white text readable on it.
        backgroundColor = Color(red: 44, green: 44, blue: 46, alpha: 235)
        label.font = .system(13)
        label.textColor = .white
        label.alignment = .center
        label.minimumScaleFactor = 0.85
        label.numberOfLines = 2
        label.isUserInteractionEnabled = false
        addSubview(label)
        isHidden = true
    }

    /// "Could not refresh: `reason` · items from `time` · retrying at `retry`" in `localizer`'s
    /// language (without the times that are not known: no items yet, no next attempt).
    public static func text(reason: String, itemsFrom time: String?, retryingAt retry: String? = nil, localizer: RefreshLocalizer) -> String {
        var text = localizer.text(.refreshFailed) + ": " + reason
        if let time { text += " · " + localizer.text(.itemsFrom).replacing(text: "{time}", with: time) }
        if let retry { text += " · " + localizer.text(.retryingAt).replacing(text: "{time}", with: retry) }
        return text
    }

    /// "offline since `since` · items from `time`" in `localizer`'s language: a list whose
    /// broker has been out of reach longer than the panel lets pass unsaid.
    public static func text(offlineSince since: String, itemsFrom time: String?, localizer: RefreshLocalizer) -> String {
        var text = localizer.text(.offlineSince).replacing(text: "{time}", with: since)
        if let time { text += " · " + localizer.text(.itemsFrom).replacing(text: "{time}", with: time) }
        return text
    }

    /// The label inset 12 points on each side.
    open override func layoutSubviews() {
        label.frame = Rect(x: 12, y: 0, width: max(0, frame.width - 24), height: frame.height)
    }
}
