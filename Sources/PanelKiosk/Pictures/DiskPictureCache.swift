import Glibc
import PanelHost

/// Pictures fetched over HTTP kept as fetched (compressed) in the service's cache directory
/// (systemd's `CacheDirectory=`, `$CACHE_DIRECTORY`), bounded in bytes, least recently used
/// first out: a kiosk that restarts, or scrolls back, does not fetch its thumbnails again.
///
/// One file per URL, named by the URL's 64-bit FNV-1a hash; the file starts with lines naming
/// the URL (so two URLs with one hash never show each other's picture), the server's `ETag` and
/// `Last-Modified`, and until when the picture is fresh; a stale one is revalidated with a
/// conditional request instead of fetched again (`PictureFetch`). Written whole
/// under a temporary name and renamed (`AtomicFile`), so a crash leaves no half picture. Used
/// by the loader's workers at once: the index is behind a mutex, the files need none.
public final class DiskPictureCache: Sendable {
    /// The directory holding the files.
    public let directory: String
    /// Bytes the files may take together.
    public let budget: Int

    private struct Entry { var bytes: Int; var lastUse: UInt64 }
    private struct Index { var entries: [String: Entry] = [:]; var total = 0; var uses: UInt64 = 0 }
    private let index = Locked(Index())

    /// The first line of every file, before the URL (version 1 files, without validators, are
    /// not read: they are fetched again once, and replaced).
    static let magic = Array("panel-refresh picture 2\n".utf8)

    /// A kept picture and what revalidates it.
    public struct Kept: Sendable, Equatable {
        /// The picture's bytes, as fetched.
        public var bytes: [UInt8]
        /// The server's `ETag` and `Last-Modified`, verbatim (nil: it sent none).
        public var etag: String?, lastModified: String?
        /// Until when it may be used without asking the server, seconds since 1970.
        public var freshUntil: Double

        /// A kept picture.
        public init(bytes: [UInt8], etag: String? = nil, lastModified: String? = nil, freshUntil: Double) {
            (self.bytes, self.etag, self.lastModified, self.freshUntil) = (bytes, etag, lastModified, freshUntil)
        }
    }
    /// The suffix of the cache's files (everything else in the directory is left alone).
    static let suffix = ".picture"

    /// A cache in `directory` (which must exist: systemd makes it) of at most `budget` bytes.
    /// The files already there are counted, oldest first out; half-written ones are removed.
    public init(directory: String, budget: Int) {
        (self.directory, self.budget) = (directory, max(0, budget))
        var found: [(name: String, bytes: Int, time: Int)] = []
        for name in DirectoryNames.of(directory) ?? [] {
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.contains(text: Self.suffix + ".") {
                unlink(directory + "/" + name)
            } else if name.hasSuffix(Self.suffix) {
                found.append((name, Int(info.st_size), info.st_mtim.tv_sec))
            }
        }
        index.withLock { index in
            for file in found.sorted(by: { $0.time < $1.time }) {
                index.uses += 1
                index.entries[file.name] = Entry(bytes: file.bytes, lastUse: index.uses)
                index.total += file.bytes
            }
        }
        evict()
    }

    /// The file name for `url`.
    static func name(_ url: String) -> String { FNV1a.hex(url.utf8) + suffix }

    /// The picture fetched from `url` earlier, if it is still kept (at most `limit` bytes).
    public func bytes(for url: String, limit: Int) -> [UInt8]? { kept(for: url, limit: limit)?.bytes }

    /// The picture fetched from `url` earlier with its validators, if it is still kept.
    public func kept(for url: String, limit: Int) -> Kept? {
        let name = Self.name(url)
        guard index.withLock({ $0.entries[name] != nil }) else { return nil }
        let header = Self.magic + Array(url.utf8) + [0x0a]
        // Three short lines follow the URL: ETag, Last-Modified, fresh-until.
        guard let file = try? BoundedFile.read(directory + "/" + name, limit: limit + header.count + 4096),
              file.count > header.count, Array(file[0..<header.count]) == header else {
            // Another URL with the same hash, or a file damaged outside: not this picture.
            return nil
        }
        var lines: [String] = []
        var start = header.count
        while lines.count < 3, let end = file[start...].firstIndex(of: 0x0a) {
            lines.append(String(decoding: file[start..<end], as: UTF8.self))
            start = end + 1
        }
        guard lines.count == 3, let fresh = Double(lines[2]), file.count - start <= limit, start < file.count else { return nil }
        index.withLock { index in
            index.uses += 1
            index.entries[name]?.lastUse = index.uses
        }
        return Kept(bytes: Array(file[start...]), etag: lines[0].isEmpty ? nil : lines[0],
                    lastModified: lines[1].isEmpty ? nil : lines[1], freshUntil: fresh)
    }

    /// Keeps `bytes` fetched from `url`, fresh for a day, without validators.
    public func store(_ bytes: [UInt8], for url: String) {
        store(Kept(bytes: bytes, freshUntil: Double(time(nil)) + 86_400), for: url)
    }

    /// Keeps a picture fetched (or revalidated) from `url`, then drops the least recently used
    /// files past the budget.
    public func store(_ kept: Kept, for url: String) {
        let name = Self.name(url)
        func line(_ s: String?) -> [UInt8] { Array((s ?? "").utf8.filter { $0 != 0x0a && $0 != 0x0d }) + [0x0a] }
        let fresh = kept.freshUntil.isFinite ? String(Int64(kept.freshUntil)) : "0"
        // Appended piece by piece: one long `+` chain of arrays is more than Swift 6.2 type-checks in time.
        var file: [UInt8] = Self.magic
        file += Array(url.utf8)
        file.append(0x0a)
        file += line(kept.etag)
        file += line(kept.lastModified)
        file += line(fresh)
        file += kept.bytes
        guard file.count <= budget else { return }
        // Each writer its own temporary name: two workers may fetch one URL at once.
        let temporary = directory + "/" + name + ".\(UInt32.random(in: 0...UInt32.max))"
        guard (try? AtomicFile.write(file, to: directory + "/" + name, temporary: temporary, durable: false)) != nil else { return }
        index.withLock { index in
            index.total -= index.entries[name]?.bytes ?? 0
            index.uses += 1
            index.entries[name] = Entry(bytes: file.count, lastUse: index.uses)
            index.total += file.count
        }
        evict()
    }

    /// Bytes the files take now.
    public var bytesUsed: Int { index.withLock { $0.total } }
    /// Files kept now.
    public var count: Int { index.withLock { $0.entries.count } }

    private func evict() {
        let doomed: [String] = index.withLock { index in
            var out: [String] = []
            while index.total > budget, let oldest = index.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                index.total -= oldest.value.bytes
                index.entries[oldest.key] = nil
                out.append(oldest.key)
            }
            return out
        }
        for name in doomed { unlink(directory + "/" + name) }
    }
}
