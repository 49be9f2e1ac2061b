import Foundation

/// Logs on stderr with sd-daemon priority prefixes (`<3>` error … `<7>` debug), so journald
/// keeps the levels when the program runs as a service.
public enum Log {
    nonisolated(unsafe) public static var verbose = false

    public static func error(_ message: String) { write(3, message) }
    public static func warning(_ message: String) { write(4, message) }
    public static func info(_ message: String) { write(6, message) }
    public static func debug(_ message: String) { if verbose { write(7, message) } }

    private static func write(_ priority: Int, _ message: String) {
        FileHandle.standardError.write(Data("<\(priority)>panel-refresh: \(message)\n".utf8))
    }
}
