import FoundationEssentials
import Glibc

/// Reads a whole file with a size limit enforced while reading: a file that grows between a
/// size check and the read, or a device node that never ends, cannot take more than `limit`
/// bytes of memory. Recordings, configuration files, item files and the last-updated file are
/// all read through it.
public enum BoundedFile {
    public enum Failure: Error, Equatable {
        /// open or read failed with this errno.
        case unreadable(errno: Int32)
        /// More than the limit.
        case tooLarge
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(errno: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, min(chunk.count, limit + 1 - bytes.count))
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(errno: errno) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge }
        }
    }
}
