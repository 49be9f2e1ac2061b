import FoundationEssentials
import Glibc

/// A header with a state label and a last-updated label (MJRefreshStateHeader).
@MainActor
open class StateHeader: RefreshHeader, StateTitled {
    /// The state's text ("Pull down to refresh").
    public let stateLabel = Label()
    /// "Last updated: …".
    public let lastUpdatedTimeLabel = Label()
    /// Gap between the text and the arrow, spinner or gif, points.
    public var labelLeftInset = RefreshStyle.labelLeftInset { didSet { setNeedsLayout() } }
    /// Makes the last-updated text from the time (nil: no record); replaces the built-in one.
    public var lastUpdatedTimeText: ((Date?) -> String)? { didSet { updateTimeText() } }
    /// Formats the built-in last-updated text.
    public var lastUpdatedFormatter = LastUpdatedFormatter() { didSet { updateTimeText() } }

    /// Adds the state label and the last-updated line.
    open override func prepare() {
        super.prepare()
        prepareStateLabel(TitleKeys(idle: .headerIdle, pulling: .headerPulling, refreshing: .headerRefreshing,
                                    noMoreData: .headerIdle, failed: .headerIdle, success: .headerFinished,
                                    failure: .headerFailed, releaseToTwoLevel: .headerReleaseToTwoLevel))
        RefreshStyle.styleLabel(lastUpdatedTimeLabel)
        addSubview(lastUpdatedTimeLabel)
        updateTimeText()
    }

    /// Widest visible text, points.
    var visibleTextWidth: Double {
        max(stateLabel.fittedTextWidth, lastUpdatedTimeLabel.isHidden ? 0 : lastUpdatedTimeLabel.fittedTextWidth)
    }

    /// The state text above the last-updated line, or alone when that is hidden.
    open override func placeSubviews() {
        super.placeSubviews()
        let area = RefreshStyle.textArea(width: frame.width, labelLeftInset: labelLeftInset)
        if !stateLabel.isHidden {
            if lastUpdatedTimeLabel.isHidden {
                stateLabel.frame = Rect(x: area.x, y: 0, width: area.width, height: frame.height)
            } else {
                let half = frame.height * 0.5
                stateLabel.frame = Rect(x: area.x, y: 0, width: area.width, height: half)
                lastUpdatedTimeLabel.frame = Rect(x: area.x, y: half, width: area.width, height: frame.height - half)
            }
        }
        // After the labels: the picture goes beside the text as fitted in their width.
        gif?.place(in: frame.size, textWidth: visibleTextWidth, labelLeftInset: labelLeftInset,
                   textHidden: stateLabel.isHidden && lastUpdatedTimeLabel.isHidden, rightToLeft: isRightToLeft)
    }

    /// Shows the state's text.
    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        updateTimeText()
    }

    /// Sets the last-updated line in the new language too.
    open override func i18nDidChange() {
        updateTimeText()
        super.i18nDidChange()
    }

    /// Sets the last-updated line again.
    open override func lastUpdatedTimeDidChange() {
        super.lastUpdatedTimeDidChange()
        updateTimeText()
    }

    private func updateTimeText() {
        let date = lastUpdatedTime
        if let custom = lastUpdatedTimeText {
            lastUpdatedTimeLabel.text = custom(date)
        } else {
            // Before the header is on a scroll view there is no clock: "today" cannot be told.
            let now = animator?.clock.date ?? date ?? Date(timeIntervalSince1970: 0)
            lastUpdatedTimeLabel.text = lastUpdatedFormatter.text(for: date, now: now, localizer: localizer)
        }
    }

    /// Reads the last-updated time for the new scroll view.
    open override func didAttach(to scrollView: ScrollView) {
        super.didAttach(to: scrollView)
        updateTimeText()
    }
}
