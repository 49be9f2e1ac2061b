import FoundationEssentials
import Glibc

/// Logs on stderr with sd-daemon priority prefixes (`<3>` error … `<7>` debug), so journald
/// keeps the levels when the program runs as a service.
public enum Log {
    nonisolated(unsafe) public static var verbose = false

    public static func error(_ message: String) { write(3, message) }
    public static func warning(_ message: String) { write(4, message) }
    public static func info(_ message: String) { write(6, message) }
    public static func debug(_ message: String) { if verbose { write(7, message) } }

    private static func write(_ priority: Int, _ message: String) {
        // One write(2) per line: lines of concurrent writers do not interleave.
        var stream = StandardError()
        stream.write("<\(priority)>panel-refresh: \(Redaction.redact(message))\n")
    }
}

/// Standard error as a `TextOutputStream` (`print(..., to: &stream)`), written with write(2).
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = Glibc.write(2, base + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}
