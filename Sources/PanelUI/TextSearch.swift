/// Finding and replacing text in strings, for the package's own modules: the standard library's
/// `contains(_:)`, `firstRange(of:)` and `replacing(_:with:)` for strings live in
/// _StringProcessing, and calling them links it and _RegexParser into the program (1.26 MB of
/// file, 0.5 MB resident: scripts/foundation-cost). The texts searched here are short (a URL,
/// a template, a language tag), so a plain search does.
extension StringProtocol {
    /// The first range of `other` in this text, comparing characters as `==` does (canonical
    /// equivalence); nil when it is not there or `other` is empty.
    package func firstRange(ofText other: some StringProtocol) -> Range<Index>? {
        guard !other.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            var here = start, there = other.startIndex
            while here < endIndex, there < other.endIndex, self[here] == other[there] {
                formIndex(after: &here)
                other.formIndex(after: &there)
            }
            if there == other.endIndex { return start..<here }
            formIndex(after: &start)
        }
        return nil
    }

    /// Whether `other` occurs in this text (never, for an empty `other`).
    package func contains(text other: some StringProtocol) -> Bool { firstRange(ofText: other) != nil }

    /// This text with every occurrence of `other`, from the start, replaced by `replacement`.
    package func replacing(text other: some StringProtocol, with replacement: some StringProtocol) -> String {
        var out = ""
        var rest = self[...]
        while let found = rest.firstRange(ofText: other) {
            out += rest[..<found.lowerBound]
            out += replacement
            rest = rest[found.upperBound...]
        }
        return out + rest
    }
}
