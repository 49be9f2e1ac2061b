import PanelUI
/// The languages the components ship texts for: MJRefresh's built-in six and eight more, two of
/// them right to left.
public enum RefreshLanguage: String, Sendable, Hashable, CaseIterable {
    /// English.
    case english = "en"
    /// Simplified Chinese.
    case simplifiedChinese = "zh-Hans"
    /// Traditional Chinese.
    case traditionalChinese = "zh-Hant"
    /// Korean.
    case korean = "ko"
    /// Russian.
    case russian = "ru"
    /// Ukrainian.
    case ukrainian = "uk"
    /// German.
    case german = "de"
    /// French.
    case french = "fr"
    /// Spanish.
    case spanish = "es"
    /// Italian.
    case italian = "it"
    /// Portuguese.
    case portuguese = "pt"
    /// Japanese.
    case japanese = "ja"
    /// Arabic (right to left).
    case arabic = "ar"
    /// Hebrew (right to left).
    case hebrew = "he"

    /// Which way the language reads: Arabic and Hebrew from the right. Components in such a
    /// language put their arrow and spinner on the right of their texts, rows align right and a
    /// horizontal list starts at the right.
    public var layoutDirection: LayoutDirection {
        switch self {
        case .arabic, .hebrew: .rightToLeft
        case .english, .simplifiedChinese, .traditionalChinese, .korean, .russian, .ukrainian, .german, .french,
             .spanish, .italian, .portuguese, .japanese: .leftToRight
        }
    }

    /// Maps a BCP 47 or POSIX locale code ("zh_TW.UTF-8", "ru-RU", "zh-Hans-CN") to a shipped
    /// language; anything else is English. Unlike MJRefresh, plain "zh", "zh-CN" and "zh-SG"
    /// are Simplified (MJ sent every `zh` without "Hans" to Traditional).
    public init(code: String) {
        let normalized = String(code.map { $0 == "_" ? "-" : $0 }).lowercased()
        let base = normalized.split(whereSeparator: { $0 == "-" || $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        switch base {
        case "zh":
            if normalized.contains(text: "hant") || normalized.contains(text: "-tw") || normalized.contains(text: "-hk")
                || normalized.contains(text: "-mo") {
                self = .traditionalChinese
            } else {
                self = .simplifiedChinese
            }
        case "ko": self = .korean
        case "ru": self = .russian
        case "uk": self = .ukrainian
        case "de": self = .german
        case "fr": self = .french
        case "es": self = .spanish
        case "it": self = .italian
        case "pt": self = .portuguese
        case "ja": self = .japanese
        case "ar": self = .arabic
        // "iw" is Hebrew's code before ISO 639 changed it; Java and old glibc locales still use it.
        case "he", "iw": self = .hebrew
        default: self = .english
        }
    }
}

/// Every text the components show.
public enum RefreshTextKey: String, Sendable, Hashable, CaseIterable {
    /// The header's texts, by state.
    case headerIdle, headerPulling, headerRefreshing, headerFinished, headerFailed
    /// The auto footer's texts, by state.
    case autoFooterIdle, autoFooterRefreshing
    /// The back footer's texts, by state.
    case backFooterIdle, backFooterPulling, backFooterRefreshing
    /// Texts every footer shows: no more data, a result, a failure.
    case footerNoMoreData, footerFinished, footerFailed
    /// The persistent failed state of an auto footer (a tap or a new drag retries) and of a
    /// back footer (a new pull retries).
    case footerRetryTap, footerRetryPull
    /// A header pulled past its second threshold: releasing opens the second floor.
    case headerReleaseToTwoLevel
    /// The trailer's texts, by state.
    case trailerIdle, trailerPulling, trailerRefreshing, trailerNoMoreData
    /// The trailer's persistent failed state: the last load failed, a new swipe retries (as
    /// the footers' `footerRetryPull`).
    case trailerFailed
    /// Prefix of the last-updated line.
    case lastUpdated
    /// "Today" in the last-updated line.
    case today
    /// Shown instead of a time when there is no record.
    case noRecord
    /// A list whose first page is on its way, under a spinner.
    case listLoading
    /// A list whose source has no items, and the pull that asks again (vertical lists).
    case listEmpty, listEmptyHint
    /// A list whose first page could not be loaded (over the reason), and the pull that retries.
    case listFailed, listRetryHint
    /// The button that loads the list again.
    case retry
    /// The banner over a list whose refresh failed: "Could not refresh: reason · items from
    /// 10:42" (`itemsFrom` holds `{time}` where the time of the items shown goes).
    case refreshFailed, itemsFrom
    /// The banner's next attempt when the kiosk refreshes by itself: "retrying at 10:45"
    /// (`{time}` where the time goes).
    case retryingAt
    /// The banner over a list whose source, a broker, has been out of reach for a while:
    /// "offline since 10:42" (`{time}` where the time it was last reached goes).
    case offlineSince
    /// The control that leaves a detail page.
    case back
    /// The second floor's hint at its bottom edge: the way back to the list.
    case twoLevelBackHint
}
