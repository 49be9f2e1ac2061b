import Glibc

/// Reads a whole file with a size limit enforced while reading: a file that grows between a
/// size check and the read, or a device node that never ends, cannot take more than `limit`
/// bytes of memory. Recordings, configuration files, item files, images and the last-updated
/// file are all read through it.
///
/// It opens with `O_NONBLOCK` and then refuses what is not a regular file, by default: a FIFO
/// opened for reading blocks in `open(2)` until a writer comes, and a read from it blocks until
/// the writer writes, so a FIFO named as the configuration, an image or the item file used to
/// hang start-up before READY (and a reload, past the watchdog). A regular file's reads never
/// wait, so the size limit also bounds the time. Recordings may come from a pipe
/// (`replay /dev/stdin`), so they ask for `.streams`.
public enum BoundedFile {
    /// Why nothing was read.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// open or read failed with this errno.
        case unreadable(errno: Int32)
        /// More than the limit.
        case tooLarge
        /// Not a regular file (`kind`: "a FIFO", "a directory", "a character device", ...).
        case notRegular(kind: String)

        /// What went wrong, for messages ("No such file or directory", "a FIFO, not a regular file").
        public var description: String {
            switch self {
            case .unreadable(let code): return String(cString: strerror(code))
            case .tooLarge: return "larger than its limit"
            case .notRegular(let kind): return "\(kind), not a regular file"
            }
        }

        /// Why the file could not be read, as the kiosk's messages say it ("cannot read the file:
        /// it is a FIFO, not a regular file"); `tooLarge` says the limit, in MiB when whole.
        public func explanation(limit: Int) -> String {
            switch self {
            case .unreadable(let code): return "cannot read the file: \(String(cString: strerror(code)))"
            case .tooLarge: return "larger than " + (limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
            case .notRegular(let kind): return "cannot read the file: it is \(kind), not a regular file"
            }
        }
    }

    /// What may be read.
    public enum Accepts: Sendable {
        /// Regular files only (the kiosk's files).
        case regularFiles
        /// Also pipes, FIFOs and character devices (a recording piped in), still size-bounded.
        case streams
    }

    /// A regular file's size and modification time as `fstat` gave them for the descriptor read.
    public struct Stamp: Sendable, Hashable {
        /// Bytes.
        public var size: Int
        /// `st_mtim`: seconds since 1970.
        public var modifiedSeconds: Int
        /// `st_mtim`: nanoseconds into that second.
        public var modifiedNanoseconds: Int
    }

    /// The file's bytes, at most `limit` of them.
    public static func read(_ path: String, limit: Int, accepts: Accepts = .regularFiles) throws(Failure) -> [UInt8] {
        var stamp: Stamp?
        return try read(path, limit: limit, accepts: accepts, stamp: &stamp)
    }

    /// A regular file's bytes (at most `limit`) with its size and time as they were when it was
    /// opened: what tells a file that did not change (`FileItemSource`).
    public static func readStamped(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], stamp: Stamp) {
        var stamp: Stamp?
        let bytes = try read(path, limit: limit, accepts: .regularFiles, stamp: &stamp)
        guard let stamp else { throw .notRegular(kind: "a special file") }
        return (bytes, stamp)
    }

    private static func read(_ path: String, limit: Int, accepts: Accepts, stamp: inout Stamp?) throws(Failure) -> [UInt8] {
        let flags = O_RDONLY | O_CLOEXEC | (accepts == .regularFiles ? O_NONBLOCK : 0)
        let fd = open(path, flags)
        guard fd >= 0 else { throw .unreadable(errno: errno) }
        defer { close(fd) }
        if accepts == .regularFiles {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .unreadable(errno: errno) }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG else { throw .notRegular(kind: Self.kind(kind)) }
            stamp = Stamp(size: Int(info.st_size), modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = SystemCall.uninterrupted { Glibc.read(fd, &chunk, min(chunk.count, limit + 1 - bytes.count)) }
            guard n >= 0 else { throw .unreadable(errno: errno) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge }
        }
    }

    /// Whether `path` names a regular file (following symlinks), without opening it: what a
    /// folder listing keeps (gif frames).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// A file type's name, for errors (`st_mode & S_IFMT`).
    static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file"
        }
    }
}
