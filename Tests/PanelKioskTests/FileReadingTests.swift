import Foundation
import Testing
import PanelTestSupport

/// FoundationEssentials (Swift 6.3.1) leaks its 4 KiB read buffer for every empty file read
/// through `Data(contentsOf:)`, `String(contentsOfFile:)`, `String(contentsOf:)` or
/// `FileManager.contents(atPath:)`. The program reads through `BoundedFile` and the tests through
/// `fileBytes`/`fileText`; one test polling a trace the kiosk had created but not yet written
/// failed the suite under LeakSanitizer, some runs and not others.
@Suite("files are read through BoundedFile, not Foundation's readers")
struct FileReadingTests {
    /// The readers that leak on an empty file.
    static let leaking = ["Data(contentsOf:", "String(contentsOfFile:", "String(contentsOf:", "contents(atPath:"]

    /// Files that may still use them, with the reason: `PanelRefreshTests` links no reader but
    /// Foundation's, and what it reads is a document of the repository, never empty.
    static let allowed: Set<String> = ["Tests/PanelRefreshTests/MachineTests.swift",
                                       "Tests/PanelKioskTests/FileReadingTests.swift",
                                       "Tests/PanelKioskTests/GoldenTraceTests.swift"]

    @Test("no source or test file reads a file with a reader that leaks on empty files")
    func noLeakingReaders() throws {
        var checked = 0
        for folder in ["Sources", "Tests"] {
            let files = try #require(FileManager.default.enumerator(atPath: repository + "/" + folder)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let name = folder + "/" + file
                guard !Self.allowed.contains(name) else { continue }
                let text = try fileText(repository + "/" + name)
                checked += 1
                for reader in Self.leaking {
                    #expect(!text.contains(reader), "\(name) reads with \(reader)")
                }
            }
        }
        #expect(checked > 200)
    }
}
