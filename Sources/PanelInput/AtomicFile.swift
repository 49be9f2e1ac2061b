import Glibc

/// Writing a whole file so that readers see the old one or the new one, never half of either:
/// open, write, (fsync,) close and rename, each checked with its errno. Foundation's atomic
/// write names no errno and does not flush.
///
/// Nothing is written through a symbolic link: whatever stands at the temporary name (a file
/// left by a crash, or a link someone planted to make the kiosk overwrite its target) is
/// unlinked, which removes a link itself, and the file is created anew with
/// `O_CREAT | O_EXCL | O_NOFOLLOW`, which fails rather than follow a link that appears in
/// between. rename(2) then replaces the name `path`, never what a link there points to.
public enum AtomicFile {
    /// The step that failed and its errno.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// "unlink", "open", "write", "fsync", "close" or "rename".
        public var step: String
        /// errno after it.
        public var errno: Int32

        /// The failure of `step` with `errno`.
        public init(step: String, errno: Int32) { (self.step, self.errno) = (step, errno) }

        /// The step and the system's words for its errno ("open: Permission denied").
        public var description: String { "\(step): \(String(cString: strerror(errno)))" }
    }

    /// Writes all of `bytes` to `fd`, a signal's EINTR retried; false (errno set) when a write
    /// fails or writes nothing.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = SystemCall.uninterrupted { bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Writes `bytes` to `path` through `temporary` (default: `path` + ".new"). `durable`:
    /// fsync before the rename (state that must survive a power cut; a cache need not).
    public static func write(_ bytes: [UInt8], to path: String, temporary: String? = nil, durable: Bool = true) throws(Failure) {
        let temporary = temporary ?? path + ".new"
        func fail(_ step: String) -> Failure { Failure(step: step, errno: errno) }
        // ENOENT: nothing there; ENOTDIR: the directory is a file, which open reports.
        guard unlink(temporary) == 0 || errno == ENOENT || errno == ENOTDIR else { throw fail("unlink") }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("open") }
        guard writeAll(bytes, to: fd) else {
            let error = fail("write")
            close(fd)
            unlink(temporary)
            throw error
        }
        if durable, fsync(fd) != 0 {
            let error = fail("fsync")
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let error = fail("close")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = fail("rename")
            unlink(temporary)
            throw error
        }
    }
}
