import Glibc
import PanelHost

/// What an HTTP data source keeps of each URL's last answer, so that it asks politely
/// (RFC 9111): the validators sent back as `If-None-Match` / `If-Modified-Since`, the items
/// parsed from the body (in memory, for this process's answers), and the body itself (on disk
/// in `state.directory/http/`, so the first request after a restart is conditional too and a
/// 304 then still has a list to show).
///
/// Shared by the loads that run at once on the worker queue (page 0 and a next page of one
/// document): the memory is behind a mutex, the files are written whole under names of their
/// own (`AtomicFile`) and renamed.
final class HTTPAnswerCache: Sendable {
    /// What is kept of one URL's last answer.
    struct Entry: Sendable {
        /// `ETag` as the server sent it.
        var etag: String?
        /// `Last-Modified` as the server sent it.
        var lastModified: String?
        /// The body's fingerprint (`FNV1a`): a server without validators that sends the same
        /// bytes again is unchanged too.
        var bodyHash: UInt64
        /// The body's items, when this process parsed them (nil: only the file is kept).
        var items: [Item]?
        /// The body, when it was read from the file and not parsed yet.
        var body: [UInt8]?

        /// The request headers that make a request for this URL conditional.
        var conditionalHeaders: [String] {
            var lines: [String] = []
            if let etag { lines.append("If-None-Match: \(etag)") }
            if let lastModified { lines.append("If-Modified-Since: \(lastModified)") }
            return lines
        }
    }

    /// The folder of the kept bodies; nil: memory only.
    let directory: String?
    private let memory = Locked<[String: Entry]>([:])

    /// The most URLs kept on disk: 32 (the pages of a paged source a kiosk shows; each at most
    /// `ItemParser.maxBytes`). The oldest go first.
    static let maxFiles = 32
    /// The first line of every kept file.
    static let magic = "panel-refresh answer 1\n"
    /// The suffix of the kept files.
    static let suffix = ".answer"

    /// A cache keeping bodies in `directory` (made when first needed, 0700) or, nil, in memory only.
    init(directory: String?) { self.directory = directory }

    /// What is kept for `url`: this process's answer, else the file's.
    func entry(for url: String) -> Entry? {
        if let kept = memory.withLock({ $0[url] }) { return kept }
        return read(url)
    }

    /// Keeps `entry` for `url` (in memory, and its `body` on disk when given).
    func keep(_ entry: Entry, for url: String, body: [UInt8]?) {
        var inMemory = entry
        inMemory.body = nil
        memory.withLock { $0[url] = inMemory }
        if let body { write(url, entry, body) }
    }

    /// Forgets `url` (an answer that says `no-store`).
    func forget(_ url: String) {
        _ = memory.withLock { $0.removeValue(forKey: url) }
        if let path = path(url) { unlink(path) }
    }

    private func path(_ url: String) -> String? { directory.map { $0 + "/" + FNV1a.hex(url.utf8) + Self.suffix } }

    /// Header values and URLs never hold a line break; one that does is not kept (it would
    /// split the file's lines).
    private static func oneLine(_ s: String?) -> Bool { !(s ?? "").contains { $0 == "\n" || $0 == "\r" } }

    private func write(_ url: String, _ entry: Entry, _ body: [UInt8]) {
        guard let directory, let path = path(url), Self.oneLine(url), Self.oneLine(entry.etag),
              Self.oneLine(entry.lastModified) else { return }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { return }
        // Interpolated, not a `+` chain with `??`: Swift 6.2 gives up type-checking long ones.
        let head = "\(Self.magic)\(url)\n\(entry.etag ?? "")\n\(entry.lastModified ?? "")\n"
        // Each writer its own temporary name: two loads of one document may end at once.
        let temporary = path + ".\(UInt32.random(in: 0...UInt32.max))"
        guard (try? AtomicFile.write(Array(head.utf8) + body, to: path, temporary: temporary, durable: false)) != nil else { return }
        prune(directory)
    }

    private func read(_ url: String) -> Entry? {
        guard let path = path(url),
              let file = try? BoundedFile.read(path, limit: ItemParser.maxBytes + 16 << 10) else { return nil }
        // Four lines (magic, URL, ETag, Last-Modified), then the body.
        var lines: [String] = []
        var start = 0
        while lines.count < 4, let end = file[start...].firstIndex(of: 0x0a) {
            lines.append(String(decoding: file[start..<end], as: UTF8.self))
            start = end + 1
        }
        // Another URL with the same hash, or a file damaged outside: not this answer.
        guard lines.count == 4, lines[0] + "\n" == Self.magic, lines[1] == url else { return nil }
        let body = Array(file[start...])
        return Entry(etag: lines[2].isEmpty ? nil : lines[2], lastModified: lines[3].isEmpty ? nil : lines[3],
                     bodyHash: FNV1a.hash(body), items: nil, body: body)
    }

    /// Drops the oldest kept files past `maxFiles`, and half-written ones.
    private func prune(_ directory: String) {
        guard let names = DirectoryNames.of(directory) else { return }
        var found: [(name: String, time: Int)] = []
        for name in names {
            guard name.contains(text: Self.suffix) else { continue }
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasSuffix(Self.suffix) {
                found.append((name, info.st_mtim.tv_sec))
            } else if Int(time(nil)) - info.st_mtim.tv_sec > 60 {
                // A temporary file a crash left behind (a live writer's is seconds old).
                unlink(directory + "/" + name)
            }
        }
        guard found.count > Self.maxFiles else { return }
        for file in found.sorted(by: { $0.time < $1.time }).prefix(found.count - Self.maxFiles) {
            unlink(directory + "/" + file.name)
        }
    }
}
