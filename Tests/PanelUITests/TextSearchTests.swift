import Testing
@testable import PanelUI

/// The package's own text search (`firstRange(ofText:)`, `contains(text:)`,
/// `replacing(text:with:)`), which keeps _StringProcessing out of the program.
@Suite("Text search without _StringProcessing")
struct TextSearchTests {
    @Test("the first range of a text, by characters")
    func firstRange() {
        let url = "https://user@host/a://b"
        let range = url.firstRange(ofText: "://")
        #expect(range.map { url[$0] } == "://")
        #expect(range.map { url.distance(from: url.startIndex, to: $0.lowerBound) } == 5)
        #expect("abc".firstRange(ofText: "abcd") == nil)
        #expect("abc".firstRange(ofText: "") == nil)
        #expect("aab".firstRange(ofText: "ab").map { "aab".distance(from: "aab".startIndex, to: $0.lowerBound) } == 1)
        // Characters compare as == does: a precomposed é matches e and a combining accent.
        #expect("caf\u{e9}!".contains(text: "e\u{301}!"))
        #expect(Substring("xx{page}yy").contains(text: "{page}"))
        #expect(!"zh-hans".contains(text: "hant"))
    }

    @Test("every occurrence replaced, from the start, none twice")
    func replacing() {
        #expect("p={page}&q={page}".replacing(text: "{page}", with: "3") == "p=3&q=3")
        #expect("aaa".replacing(text: "aa", with: "b") == "ba")
        #expect("a-b".replacing(text: "-", with: "\\-") == "a\\-b")
        #expect("none".replacing(text: "x", with: "y") == "none")
        #expect("{time}".replacing(text: "{time}", with: "") == "")
    }
}
