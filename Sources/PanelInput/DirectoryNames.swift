import Glibc

/// Listing a folder: the one place `opendir`, `readdir` and the fixed-size `d_name` buffer are
/// handled (the kernel's own folders, /proc, as well as the kiosk's caches).
public enum DirectoryNames {
    /// The entries' names in `path`, "." and ".." left out, in the order the file system gives;
    /// nil when the folder cannot be opened.
    public static func of(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
