import Foundation
import Glibc
import PanelInput

/// A folder of its own under the temporary directory, named `name` and a UUID.
public func scratchDirectory(_ name: String = "scratch") throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A file's bytes as the program reads files (`BoundedFile`, 64 MiB at most).
///
/// Why not Foundation's readers (Data's, String's and FileManager's, as `FileReadingTests` lists
/// them): FoundationEssentials (Swift 6.3.1) leaks its 4 KiB read buffer whenever the file is empty,
/// and the tests poll files the kiosk has created but not yet written (its trace, a log, its
/// standard error), so LeakSanitizer's verdict on the suite depended on timing.
/// `FileReadingTests` keeps those three out of the sources and these tests.
public func fileBytes(_ path: String) throws -> [UInt8] {
    try BoundedFile.read(path, limit: 1 << 26, accepts: .streams)
}

/// A file's text (UTF-8, invalid bytes replaced), read as `fileBytes` reads it.
public func fileText(_ path: String) throws -> String {
    String(decoding: try fileBytes(path), as: UTF8.self)
}

/// Runs a program to its end; its exit status and its output and errors together.
public func shell(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let child = try Child(executable, arguments, stdout: .pipe, stderr: .output)
    let (output, _) = child.readToEnd()
    return (child.exitCode() ?? -1, String(decoding: output, as: UTF8.self))
}

/// The first line of a child's output (started with `stdout: .pipe`), trimmed (10 s at most):
/// what a server prints once it is ready (a bus address, Xvfb's display number).
public func firstLine(of process: Child) -> String {
    let fd = process.output
    var text = "", byte: UInt8 = 0
    var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while !text.hasSuffix("\n"), poll(&waiter, 1, 10_000) > 0, read(fd, &byte, 1) == 1 { text.append(Character(UnicodeScalar(byte))) }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
