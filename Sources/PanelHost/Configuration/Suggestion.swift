/// "Did you mean": the known word closest to a misspelled one (a key, a section, a command, an
/// option).
public enum Suggestion {
    /// The candidate within a third of `word`'s length (at least 1, at most 3 edits) by
    /// Levenshtein distance, the first of the closest; nil when none is that close.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        // No key or section is near `maxLength`: a longer word is no misspelling of one, and
        // measuring it would cost its length times every key's (a configuration line can be
        // a megabyte long).
        guard word.utf8.count <= maxLength else { return nil }
        let limit = min(3, max(1, word.count / 3))
        let letters = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where abs(candidate.count - letters.count) <= limit {
            let d = distance(letters, Array(candidate.lowercased()))
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.candidate
    }

    /// The longest word a suggestion is looked for: 64 bytes (the longest qualified key,
    /// `refresh.footer-hides-when-not-full`, has 34).
    static let maxLength = 64

    /// Edits (insert, delete, replace, or swap two neighbours) from `a` to `b`: the optimal
    /// string alignment distance, two rows at a time.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }

    /// "; did you mean `candidate`?" for the closest candidate, empty when none is close.
    public static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { "; did you mean \($0)?" } ?? ""
    }
}
