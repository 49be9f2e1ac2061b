import PanelInput

/// A file's bytes as the program reads files (`BoundedFile`, 64 MiB at most).
///
/// Why not `Data(contentsOf:)`, `String(contentsOfFile:)` or `FileManager.contents(atPath:)`:
/// FoundationEssentials (Swift 6.3.1) leaks its 4 KiB read buffer whenever the file is empty,
/// and the tests poll files the kiosk has created but not yet written (its trace, a log, its
/// standard error), so LeakSanitizer's verdict on the suite depended on timing.
/// `FileReadingTests` keeps those three out of the sources and these tests.
func fileBytes(_ path: String) throws -> [UInt8] {
    try BoundedFile.read(path, limit: 1 << 26, accepts: .streams)
}

/// A file's text (UTF-8, invalid bytes replaced), read as `fileBytes` reads it.
func fileText(_ path: String) throws -> String {
    String(decoding: try fileBytes(path), as: UTF8.self)
}
