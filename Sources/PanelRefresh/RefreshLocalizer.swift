/// The components' texts: a language switchable at run time and per-key overrides
/// (MJRefreshConfig's `languageCode`, `i18nFilename` and `i18nBundle` in one object).
///
/// Components observe their localizer: changing the language or an override makes each of
/// them set its texts again and lay out (MJRefresh's `i18nDidChange`).
@MainActor
public final class RefreshLocalizer {
    /// The localizer components use unless given another.
    public static let shared = RefreshLocalizer()

    /// The language of the texts; changing it relabels the components that use this localizer.
    public var language: RefreshLanguage {
        didSet { if language != oldValue { notify() } }
    }

    private var overrides: [RefreshLanguage: [RefreshTextKey: String]] = [:]
    private var observers: [Weak] = []
    private struct Weak { weak var component: RefreshComponent? }

    /// A localizer in `language`.
    public init(language: RefreshLanguage = .english) {
        self.language = language
    }

    /// The text for `key` in the current language: an override if set, else the built-in one.
    public func text(_ key: RefreshTextKey) -> String { text(key, in: language) }

    /// The text of `key` in `language`.
    public func text(_ key: RefreshTextKey, in language: RefreshLanguage) -> String {
        overrides[language]?[key] ?? RefreshStrings.text(key, language)
    }

    /// Replaces a built-in text (nil restores it).
    public func setText(_ text: String?, for key: RefreshTextKey, in language: RefreshLanguage) {
        overrides[language, default: [:]][key] = text
        if language == self.language { notify() }
    }

    func addObserver(_ component: RefreshComponent) {
        observers.removeAll { $0.component == nil }
        if !observers.contains(where: { $0.component === component }) {
            observers.append(Weak(component: component))
        }
    }

    func removeObserver(_ component: RefreshComponent) {
        observers.removeAll { $0.component == nil || $0.component === component }
    }

    private func notify() {
        for observer in observers { observer.component?.i18nDidChange() }
    }
}
