import Glibc

/// Writing a file a person named on the command line (a frame, a screenshot, an animation):
/// opened as given, created or truncated, so a FIFO, `/dev/stdout` or a device works as the
/// shell's `>` would. The kiosk's own state goes through ``AtomicFile`` instead.
public enum OutputFile {
    /// Writes `bytes` to `path` (mode 0644 when created), each step checked with its errno
    /// (the failure's step: "open", "write" or "close").
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFile.Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AtomicFile.Failure(step: "open", errno: errno) }
        guard AtomicFile.writeAll(bytes, to: fd) else {
            let failure = AtomicFile.Failure(step: "write", errno: errno)
            close(fd)
            throw failure
        }
        guard close(fd) == 0 else { throw AtomicFile.Failure(step: "close", errno: errno) }
    }
}
