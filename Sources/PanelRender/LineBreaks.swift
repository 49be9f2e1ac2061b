import CUnibreak

/// Where a line may end, by UAX #14 (libunibreak): after spaces and hyphens in alphabetic
/// text, between ideographs and kana, never inside a word or a cluster.
enum LineBreaks {
    /// After each character: must the line end there, may it, or may it not.
    enum Opportunity: Equatable {
        /// A hard break (a newline, a paragraph separator): the line ends.
        case must
        /// The line may end after this character.
        case allowed
        /// The line may not end here.
        case none
    }

    /// The opportunity after each of `scalars`; `language` picks the rules' tailoring (ISO 639,
    /// e.g. "ja"), nil for the default.
    static func opportunities(_ scalars: [UInt32], language: String? = nil) -> [Opportunity] {
        guard !scalars.isEmpty else { return [] }
        var breaks = [CChar](repeating: CChar(PANEL_LINEBREAK_NOBREAK), count: scalars.count)
        let status = scalars.map(Self.safe).withUnsafeBufferPointer { text in
            panel_linebreaks_utf32(text.baseAddress, scalars.count, language, &breaks)
        }
        guard status == 0 else { return fallback(scalars) }
        return breaks.map { value in
            switch Int32(value) {
            case PANEL_LINEBREAK_MUSTBREAK: return .must
            case PANEL_LINEBREAK_ALLOWBREAK: return .allowed
            default: return .none
            }
        }
    }

    /// `scalar`, or a stand-in that breaks the same way where libunibreak 1.1 (bookworm's)
    /// would abort: its pair table ends before the regional indicators (flags), and
    /// `set_linebreaks` asserts on them; a flag's two letters become two letters (no break
    /// between them, as UAX #14 keeps a pair together). U+FFFC (contingent break) is
    /// likewise outside its table, and U+FFFF is its end-of-text mark (a text holding that
    /// noncharacter asserted in the middle): both become U+FFFD.
    static func safe(_ scalar: UInt32) -> UInt32 {
        switch scalar {
        case 0x1F1E6...0x1F1FF: return 0x41
        case 0xFFFC, 0xFFFF: return 0xFFFD
        default: return scalar
        }
    }

    /// Breaks after white space and at newlines, for a system without libunibreak.
    private static func fallback(_ scalars: [UInt32]) -> [Opportunity] {
        scalars.map { value in
            switch value {
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return .must
            case 0x20, 0x09, 0x3000: return .allowed
            default: return .none
            }
        }
    }
}
