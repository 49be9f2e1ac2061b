import CSystemd
import Glibc

/// Logs on stderr. When stderr is the journal (systemd sets `JOURNAL_STREAM` to its device and
/// inode), each line starts with an sd-daemon priority prefix (`<3>` error … `<7>` debug) so
/// journald keeps its level; on a terminal or in a file the lines are plain. Every message has
/// URLs' passwords masked (`Redaction`).
public enum Log {
    /// Whether debug lines are written (`--verbose`).
    nonisolated(unsafe) public static var verbose = false
    /// The tag of every line and the journal's SYSLOG_IDENTIFIER: "panel-refresh", or an
    /// app's `Configuration.appName` (set by the kiosk host, panel or virtual, as it starts).
    nonisolated(unsafe) public static var name = "panel-refresh"

    /// Logs `message` at priority 3 (err).
    public static func error(_ message: String) { write(3, message) }
    /// Logs `message` at priority 4 (warning).
    public static func warning(_ message: String) { write(4, message) }
    /// Logs `message` at priority 6 (info).
    public static func info(_ message: String) { write(6, message) }
    /// Logs `message` at priority 7 (debug) with `--verbose`.
    public static func debug(_ message: String) { if verbose { write(7, message) } }

    /// Events an operator filters on: each is a journal entry with `PANEL_REFRESH_EVENT` set
    /// (`journalctl PANEL_REFRESH_EVENT=refresh-failed`), and a plain line elsewhere.
    public enum Event: String, Sendable {
        /// A data source gave no page (the list on screen stays).
        case refreshFailed = "refresh-failed"
        /// A refresh after the first load brought a list that differs from the one shown.
        case listChanged = "list-changed"
        /// Drawing failed; it is retried.
        case displayError = "display-error"
        /// Drawing works again.
        case displayRecovered = "display-recovered"
        /// A reload's configuration was refused; the running one stays.
        case reloadRefused = "reload-refused"
        /// An image could not be read or is over its budget.
        case imageFailed = "image-failed"
    }

    /// `message` at `priority` (3 error … 7 debug), as a journal entry with
    /// `PANEL_REFRESH_EVENT=event` and `fields` (names in capitals, as journal fields are) when
    /// stderr is the journal, else as a line.
    public static func event(_ event: Event, priority: Int, _ message: String, fields: [String: String] = [:]) {
        if toJournal {
            var entries = ["MESSAGE=" + line(message), "PRIORITY=\(priority)",
                           "PANEL_REFRESH_EVENT=\(event.rawValue)", "SYSLOG_IDENTIFIER=\(name)"]
            for (field, value) in fields.sorted(by: { $0.key < $1.key }) { entries.append("\(field)=\(Redaction.redact(value))") }
            if send(entries) { return }
        }
        write(priority, message)
    }

    /// Whether stderr is the journal's stream: `JOURNAL_STREAM` is "DEVICE:INODE" of it
    /// (systemd.exec(5)), and fd 2 is still that stream (not redirected by a shell in between).
    public static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }()

    private static func write(_ priority: Int, _ message: String) {
        // One write(2) per line: lines of concurrent writers do not interleave.
        var stream = StandardError()
        let prefix = toJournal ? "<\(priority)>" : ""
        stream.write(prefix + line(message) + "\n")
    }

    /// A log line's text: the tag (`name`), then the message with URLs' passwords masked.
    static func line(_ message: String) -> String { "\(name): \(Redaction.redact(message))" }

    /// sd_journal_sendv with `entries` ("FIELD=value"); false when the journal did not take them.
    private static func send(_ entries: [String]) -> Bool {
        // Memory of our own for each entry: iovecs must point at bytes that stay put for the call.
        let blocks = entries.map { entry -> UnsafeMutableRawBufferPointer in
            let bytes = Array(entry.utf8)
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            block.copyBytes(from: bytes)
            return UnsafeMutableRawBufferPointer(rebasing: block[0..<bytes.count])
        }
        defer { for block in blocks { block.deallocate() } }
        let vectors = blocks.map { iovec(iov_base: $0.baseAddress, iov_len: $0.count) }
        return sd_journal_sendv(vectors, Int32(vectors.count)) >= 0
    }
}

/// Standard error as a `TextOutputStream` (`print(..., to: &stream)`), written with write(2).
public struct StandardError: TextOutputStream {
    /// Standard error.
    public init() {}

    /// Writes `string` to fd 2 at once (no buffering).
    public mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = SystemCall.uninterrupted { Glibc.write(2, base + offset, buffer.count - offset) }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}
