import Foundation
import PanelHost

/// The checkout the tests run in.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A folder of its own under the temporary directory.
func scratchDirectory(_ name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A file's text as the host reads files (`BoundedFile`: FoundationEssentials leaks its read
/// buffer on an empty file, which LeakSanitizer would report).
func fileText(_ path: String) throws -> String {
    String(decoding: try BoundedFile.read(path, limit: 1 << 26, accepts: .streams), as: UTF8.self)
}

/// What the host tells the service manager, kept in order.
@MainActor
final class RecordingNotifier: ServiceNotifier {
    var messages: [String] = []
    var watchdogInterval: Double? = 10
    func notify(_ assignment: String) { messages.append(assignment) }
}

/// Runs a program; returns its exit status and combined output.
func shell(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Starts `process` and reads its first line of output, trimmed (10 s at most): what a server
/// prints once it is ready (a bus address, Xvfb's display number).
func firstLine(of process: Process) throws -> String {
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let fd = out.fileHandleForReading.fileDescriptor
    var text = "", byte: UInt8 = 0
    var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while !text.hasSuffix("\n"), poll(&waiter, 1, 10_000) > 0, read(fd, &byte, 1) == 1 { text.append(Character(UnicodeScalar(byte))) }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
