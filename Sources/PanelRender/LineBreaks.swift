import CLineBreak

/// Where a line may end, by UAX #14 (libunibreak): after spaces and hyphens in alphabetic
/// text, between ideographs and kana, never inside a word or a cluster; inside Thai text, which
/// writes no spaces between words, between the words libthai's dictionary finds.
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
        var found = status == 0 ? breaks.map { value -> Opportunity in
            switch Int32(value) {
            case PANEL_LINEBREAK_MUSTBREAK: return .must
            case PANEL_LINEBREAK_ALLOWBREAK: return .allowed
            default: return .none
            }
        } : fallback(scalars)
        addThaiWordBreaks(scalars, to: &found)
        return found
    }

    /// Whether `scalar` is in the Thai block (U+0E00-U+0E7F).
    static func isThai(_ scalar: UInt32) -> Bool { (0x0E00...0x0E7F).contains(scalar) }

    /// Breaks between Thai words: UAX #14 gives Thai letters class SA, to be broken by a
    /// dictionary, and libunibreak 1.1 (bookworm's) has none, so a Thai line broke only where a
    /// word was wider than the line, inside the word ("...ทุ|กชนิด"). Each run of Thai
    /// letters goes to libthai (`th_brk_wc_find_breaks`, the dictionary in libthai-data);
    /// without libthai the runs keep libunibreak's answer.
    static func addThaiWordBreaks(_ scalars: [UInt32], to found: inout [Opportunity]) {
        var start = 0
        while start < scalars.count {
            guard isThai(scalars[start]) else { start += 1; continue }
            var end = start + 1
            while end < scalars.count, isThai(scalars[end]) { end += 1 }
            if end - start > 1 {
                for position in thaiWordStarts(Array(scalars[start..<end])) where position > 0 && position < end - start {
                    let after = start + position - 1
                    if found[after] == .none { found[after] = .allowed }
                }
            }
            start = end
        }
    }

    /// Where words start inside `run` (Thai letters only) by libthai: offsets into it, at most
    /// one per letter; none when libthai is missing.
    static func thaiWordStarts(_ run: [UInt32]) -> [Int] {
        var positions = [Int32](repeating: 0, count: run.count)
        let count = run.withUnsafeBufferPointer { text in
            positions.withUnsafeMutableBufferPointer { out in
                panel_thai_breaks(text.baseAddress, run.count, out.baseAddress, run.count)
            }
        }
        guard count > 0 else { return [] }
        return positions.prefix(Int(count)).map(Int.init)
    }

    /// Why Thai words cannot be found (libthai or its dictionary is missing), or nil.
    static var thaiUnavailable: String? { panel_thai_error().map { String(cString: $0) } }

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
