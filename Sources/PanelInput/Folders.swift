import Glibc

/// Folders and paths of the kiosk's own files: making a folder and its parents, removing a
/// scratch tree, the temporary folder, whether a path is there. The one place `mkdir`,
/// `rmdir` and `unlink` for them are called, each checked with its errno (Foundation's
/// `FileManager` did this before; the program links no FoundationEssentials for it).
public enum Folders {
    /// Why a folder could not be made.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The folder that failed (the path itself or one of its parents).
        public var path: String
        /// errno after `mkdir`.
        public var errno: Int32

        /// The failure of `path` with `errno`.
        public init(path: String, errno: Int32) { (self.path, self.errno) = (path, errno) }

        /// The folder and the system's words ("/var/lib/x: Permission denied").
        public var description: String { "\(path): \(String(cString: strerror(errno)))" }
    }

    /// Makes `path` and every missing parent (mode 0755, as `mkdir -p`); a folder already
    /// there is fine, a file there is not (ENOTDIR or EEXIST).
    public static func create(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            guard code == EEXIST, isFolder(prefix) else { throw Failure(path: prefix, errno: code == EEXIST ? ENOTDIR : code) }
        }
    }

    /// Removes `path` and all it holds, not following symbolic links (a link in the tree is
    /// removed, not what it points to). Best effort: what cannot be removed stays.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in DirectoryNames.of(path) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Whether something (a file, a folder, a device) is at `path`, following links.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` is a folder, following links.
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The folder for temporary files: `TMPDIR` when set and not empty, else /tmp (as
    /// FileManager's `temporaryDirectory` and `mktemp` choose), without a trailing slash.
    public static var temporary: String { temporary(tmpdir: getenv("TMPDIR").map { String(cString: $0) }) }

    /// The temporary folder for a `TMPDIR` of `tmpdir` (nil: not set).
    static func temporary(tmpdir: String?) -> String {
        var folder = tmpdir ?? ""
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/tmp" : folder
    }
}
