import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh

/// A loopback HTTP server of one JSON document with an ETag, as a polite client meets it: a
/// request whose `If-None-Match` names the current ETag gets 304 and no body. It can be made
/// busy (503 with `Retry-After`) or down (500), and logs every request it answered.
final class DocumentServer: @unchecked Sendable {
    enum Mode { case serve, busy(retryAfter: String), down }
    struct Request { var head: String; var status: Int; var bodyBytes: Int }

    private let lock = NSLock()
    private var document: String
    private var version = 1
    private var mode = Mode.serve
    private var log: [Request] = []
    private var extraHeaders = ""
    /// Seconds each answer waits before it goes (a slow server); 0 by default.
    private var delay = 0.0
    private var server: LoopbackServer!

    init(_ document: String, connections: Int = 400, lifetime: Double = 120) throws {
        self.document = document
        server = try LoopbackServer(connections: connections, lifetime: lifetime) { [unowned self] server, client, request in
            self.answer(server, client, request)
        }
    }

    var url: String { "http://127.0.0.1:\(server.port)/items.json" }
    var requests: [Request] { lock.withLock { log } }
    var etag: String { lock.withLock { "\"v\(version)\"" } }

    /// A new document, with a new ETag.
    func publish(_ text: String) { lock.withLock { document = text; version += 1 } }
    func set(_ mode: Mode) { lock.withLock { self.mode = mode } }
    /// Headers added to every 200 and 304 (`Cache-Control: max-age=...`).
    func add(headers: String) { lock.withLock { extraHeaders = headers } }
    /// Every answer from now on `seconds` late.
    func delay(by seconds: Double) { lock.withLock { delay = seconds } }

    private func answer(_ server: LoopbackServer, _ client: Int32, _ request: String) {
        let (mode, body, etag, extra, delay) = lock.withLock { (self.mode, document, "\"v\(version)\"", extraHeaders, self.delay) }
        if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
        let conditional = request.lowercased().contains("if-none-match: \(etag.lowercased())")
        let status: Int, response: String
        switch mode {
        case .busy(let retryAfter):
            status = 503
            response = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(retryAfter)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        case .down:
            status = 500
            response = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        case .serve where conditional:
            status = 304
            response = "HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\n\(extra)Connection: close\r\n\r\n"
        case .serve:
            status = 200
            response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \(etag)\r\n\(extra)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }
        lock.withLock { log.append(Request(head: request, status: status, bodyBytes: status == 200 ? body.utf8.count : 0)) }
        _ = server.send(client, response)
    }
}

/// Items as a JSON array: ids and titles.
func document(_ titles: [String]) -> String {
    "[" + titles.enumerated().map { #"{"id":"\#($0.offset)","title":"\#($0.element)"}"# }.joined(separator: ",") + "]"
}

/// A kiosk in virtual time over an HTTP source (real libcurl, its answer at the next entry at
/// the same virtual time) whose state folder is its own.
@MainActor
struct HTTPKiosk {
    let kiosk: Kiosk
    var host: KioskHost { kiosk.host }
    var time: VirtualTimeDriver { VirtualTimeDriver(host) }
    var session: KioskList { kiosk.list }

    init(url: String, _ settings: [(String, String)], state: String? = nil) throws {
        var c = KioskConfiguration()
        try c.set("data.source", "http")
        try c.set("data.url", url)
        c.stateDirectory = try state ?? scratchDirectory("http-kiosk")
        for (key, value) in settings { try c.set(key, value) }
        kiosk = try Kiosk.virtual(configuration: c, display: HeadlessDisplay(width: 320, height: 240))
        kiosk.start(at: 0)
        time.advance(by: 1)
    }

    /// Runs in steps of `step` seconds until `server` has answered `count` requests (or `limit`
    /// seconds pass); the kiosk's time of each new request.
    @discardableResult
    func run(until count: Int, of server: DocumentServer, step: Double = 0.05, limit: Double = 2000) -> [Double] {
        var times: [Double] = []
        var seen = server.requests.count
        let end = host.now + limit
        while server.requests.count < count && host.now < end {
            time.advance(by: step)
            let now = server.requests.count
            if now > seen { times.append(contentsOf: Array(repeating: host.now, count: now - seen)) }
            seen = now
        }
        return times
    }
}

@MainActor
@Suite("A polite HTTP client: conditional requests, 304s, Retry-After, back-off, compression", .serialized)
struct PoliteHTTPTests {
    @Test("20 timed refreshes give 1 full answer and 19 conditional requests answered 304 with no body; a changed document shows at the next one")
    func conditional() throws {
        let server = try DocumentServer(document(["Departure 1", "Departure 2"]))
        let kiosk = try HTTPKiosk(url: server.url, [("refresh.every", "10")])
        kiosk.run(until: 20, of: server)
        let requests = server.requests.prefix(20)
        #expect(requests.count == 20)
        #expect(requests.first?.status == 200 && requests.first?.head.lowercased().contains("if-none-match") == false)
        #expect(requests.dropFirst().allSatisfy { $0.status == 304 && $0.bodyBytes == 0 && $0.head.contains("If-None-Match: \"v1\"") },
                "\(requests.map(\.status))")
        #expect(requests.allSatisfy { $0.head.contains("User-Agent: panel-refresh/\(ProgramVersion.current)") })
        #expect(requests.allSatisfy { $0.head.lowercased().contains("accept-encoding: ") && $0.head.contains("gzip") })
        let counters = kiosk.session.counters
        #expect(counters.changed == 1 && counters.unchanged == 19 && counters.notModified == 19 && counters.failed == 0)
        // Nothing was parsed or laid out again: the list's cells are the first ones.
        #expect(kiosk.session.items.map(\.title) == ["Departure 1", "Departure 2"])
        server.publish(document(["Departure 2", "Departure 3", "Departure 4"]))
        kiosk.run(until: 21, of: server)
        #expect(server.requests.last?.status == 200)
        #expect(kiosk.session.items.map(\.title) == ["Departure 2", "Departure 3", "Departure 4"])
        #expect(kiosk.session.counters.changed == 2)
    }

    @Test("an ETag that changes for the same body is kept: the next request names the new one and gets a 304")
    func newValidatorSameBody() throws {
        let text = document(["Departure 1", "Departure 2"])
        let server = try DocumentServer(text)
        let kiosk = try HTTPKiosk(url: server.url, [("refresh.every", "10")])
        kiosk.run(until: 2, of: server)
        // The same bytes under a new ETag ("v2"), as a server whose ETags follow its deploys.
        server.publish(text)
        kiosk.run(until: 5, of: server)
        let requests = server.requests.prefix(5)
        #expect(requests.map(\.status) == [200, 304, 200, 304, 304], "\(requests.map(\.status))")
        #expect(requests.last?.head.contains("If-None-Match: \"v2\"") == true)
        #expect(kiosk.session.counters.unchanged == 4 && kiosk.session.counters.changed == 1)
    }

    @Test("a 503 with Retry-After: 3 gets no request for 3 s, a pull's neither; the banner says when it retries")
    func retryAfter() throws {
        let server = try DocumentServer(document(["A", "B"]))
        let kiosk = try HTTPKiosk(url: server.url, [("refresh.every", "1"), ("refresh.jitter", "0"), ("refresh.quiet-after-touch", "0")])
        kiosk.run(until: 4, of: server)
        server.set(.busy(retryAfter: "3"))
        let busyAt = try #require(kiosk.run(until: 5, of: server).first)
        #expect(server.requests.last?.status == 503)
        server.set(.serve)
        // A pull in the meantime fails at once, with what the server said, and asks nothing.
        kiosk.session.reload()
        kiosk.time.advance(to: busyAt + 2.9)
        #expect(server.requests.count == 5, "no request within the 3 s the server asked for")
        #expect(kiosk.session.counters.lastError?.contains("asks for no request") == true, "\(kiosk.session.counters.lastError ?? "")")
        #expect(kiosk.session.banner.label.text.contains("retrying at"), "\(kiosk.session.banner.label.text)")
        // (busyAt is the end of the 0.05 s step in which the 503 came.)
        let hold = kiosk.session.notBefore
        #expect(hold > busyAt + 2.94 && hold <= busyAt + 3, "no request before \(hold - busyAt) s after the 503")
        let next = try #require(kiosk.run(until: 6, of: server, step: 0.01).first)
        #expect(next >= hold && next < hold + 0.05, "asked again \(next - hold) s after the hold")
        #expect(server.requests.last?.status == 304)
    }

    @Test("an outage backs the requests off: waits doubling, spread by full jitter; the list back soon after the server")
    func outage() throws {
        let server = try DocumentServer(document(["A"]))
        let kiosk = try HTTPKiosk(url: server.url, [("refresh.every", "2"), ("refresh.quiet-after-touch", "0")])
        kiosk.run(until: 3, of: server)
        server.set(.down)
        let start = kiosk.host.now
        var times: [Double] = []
        while kiosk.host.now < start + 300 {
            times += kiosk.run(until: server.requests.count + 1, of: server, step: 0.1, limit: start + 300 - kiosk.host.now)
        }
        // Every 2 s that is 150 requests; backed off, a handful.
        #expect(times.count >= 4 && times.count <= 14, "\(times.count) requests in 300 s: \(times.map { $0 - start })")
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        let firstGaps = gaps.prefix(3).reduce(0, +), lastGaps = gaps.suffix(3).reduce(0, +)
        #expect(lastGaps > 2 * firstGaps, "waits grow: \(gaps)")
        for (n, gap) in gaps.enumerated() {
            #expect(gap <= min(900, 2 * pow(2, Double(n + 2))) + 0.2, "wait \(n + 1) after \(n + 2) failures: \(gap)")
        }
        #expect(kiosk.session.items.map(\.title) == ["A"], "the list stays through the outage")
        server.publish(document(["B"]))
        server.set(.serve)
        let back = kiosk.host.now
        kiosk.run(until: server.requests.count + 1, of: server, step: 0.1, limit: 1000)
        #expect(kiosk.session.items.map(\.title) == ["B"])
        #expect(kiosk.host.now - back <= 2 + 900, "within every + backoff-max")
        #expect(kiosk.session.schedule?.failures == 0)
    }

    @Test("Cache-Control max-age is the shortest wait before the next automatic request")
    func maxAge() throws {
        let server = try DocumentServer(document(["A"]))
        server.add(headers: "Cache-Control: public, max-age=100\r\n")
        let kiosk = try HTTPKiosk(url: server.url, [("refresh.every", "10"), ("refresh.quiet-after-touch", "0")])
        let times = [0.0] + kiosk.run(until: 3, of: server, step: 0.1, limit: 400)
        #expect(times.count == 3)
        #expect(times[2] - times[1] >= 100 - 1e-6, "\(times)")
    }

    @Test("the validators and the body are kept across a restart: its first request is conditional, and a 304 still shows the list")
    func restart() async throws {
        let server = try DocumentServer(document(["Kept"]))
        let state = try scratchDirectory("http-state")
        let first = HTTPItemSource(url: server.url, timeout: 5, stateDirectory: state, executor: workers)
        let answer = try await loadPage(first).get()
        #expect(answer.items.map(\.title) == ["Kept"] && !answer.notModified && answer.bytesFetched > 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: state + "/http")
        #expect(files.count == 1 && files[0].hasSuffix(".answer"))
        // Unchanged for the same source: a 304, nothing parsed.
        let again = try await loadPage(first).get()
        #expect(again.isUnchanged && again.notModified)
        // A new process (a new source over the same folder).
        let second = HTTPItemSource(url: server.url, timeout: 5, stateDirectory: state, executor: workers)
        let restarted = try await loadPage(second).get()
        #expect(server.requests.last?.head.contains("If-None-Match: \"v1\"") == true)
        #expect(server.requests.last?.status == 304)
        #expect(restarted.items.map(\.title) == ["Kept"] && restarted.notModified && !restarted.isUnchanged)
        // A kept file that is damaged: the 304 cannot be shown, so it asks again in full.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: state + "/http/" + files[0]))
        let third = HTTPItemSource(url: server.url, timeout: 5, stateDirectory: state, executor: workers)
        let whole = try await loadPage(third).get()
        #expect(whole.items.map(\.title) == ["Kept"])
        #expect(server.requests.last?.status == 200)
    }

    @Test("data.header-file: its headers go with each request; a malformed line fails naming its number, never its text")
    func headerFile() async throws {
        let server = try DocumentServer(document(["A"]))
        let dir = try scratchDirectory("headers")
        let file = dir + "/headers"
        try "# the token\nAuthorization: Bearer s3cr3t-token\n\nX-Panel: lobby\n".write(toFile: file, atomically: true, encoding: .utf8)
        let source = HTTPItemSource(url: server.url, timeout: 5, executor: workers)
        source.headerFile = file
        _ = try await loadPage(source).get()
        let head = try #require(server.requests.last?.head)
        #expect(head.contains("Authorization: Bearer s3cr3t-token\r\n") && head.contains("X-Panel: lobby\r\n"))
        try "Authorization: Bearer s3cr3t-token\nBad line s3cr3t\n".write(toFile: file, atomically: true, encoding: .utf8)
        let error = try #require(dataSourceError(await load(source)))
        #expect("\(error)".contains("line 2") && !"\(error)".contains("s3cr3t"), "\(error)")
        var c = KioskConfiguration()
        try c.set("data.header-file", file)
        #expect(c.fileProblems(screen: nil).map(\.key) == ["data.header-file"])
    }

    @Test("Retry-After as an HTTP date is taken against the answer's Date; seconds as they are; nonsense is none")
    func retryAfterForms() {
        #expect(HTTPFetch.retryAfter("3", date: nil) == 3)
        #expect(HTTPFetch.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", date: "Wed, 21 Oct 2015 07:27:00 GMT") == 60)
        #expect(HTTPFetch.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", date: "Wed, 21 Oct 2015 07:29:00 GMT") == 0)
        #expect(HTTPFetch.retryAfter("99999999", date: nil) == HTTPFetch.maxWait)
        #expect(HTTPFetch.retryAfter("soon", date: nil) == nil)
        #expect(CacheControl("public, max-age=\"60\", no-transform").maxAge == 60)
        #expect(CacheControl("no-store").noStore && CacheControl("no-store").maxAge == nil)
    }
}

@Suite("Compressed answers")
struct CompressedAnswerTests {
    /// `bytes` through the gzip program (Essential in Debian: every machine and chroot the
    /// suite runs in has it, which python3 is not).
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        try runProgram(["-9", "-n", "-c"], executable: "/bin/gzip", input: bytes).1
    }

    /// 10 MB of spaces between brackets, gzipped (about 10 KB).
    static func bomb() throws -> [UInt8] { try gzip([UInt8(ascii: "[")] + [UInt8](repeating: 0x20, count: 10_000_000) + [UInt8(ascii: "]")]) }

    static func gzipServer(_ body: [UInt8], connections: Int = 1) throws -> LoopbackServer {
        try LoopbackServer(connections: connections) { server, client, _ in
            guard server.send(client, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n") else { return }
            server.send(client, body)
        }
    }

    @Test("a 10 KB gzip of 10 MB is refused at 4 MiB decoded")
    func bomb() throws {
        let body = try Self.bomb()
        #expect(body.count < 20_000, "\(body.count) bytes")
        let server = try Self.gzipServer(body)
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(throws: DataSourceError.tooLarge(source: url, limit: ItemParser.maxBytes)) {
            try HTTPFetch.request(url, limits: HTTPLimits(timeout: 20))
        }
        #expect("\(DataSourceError.tooLarge(source: url, limit: ItemParser.maxBytes))".contains("answer too large"))
    }

    @Test("a gzipped list within the bound is decoded and shown")
    func gzippedList() throws {
        let body = try Self.gzip(Array(#"[{"title":"zipped"}]"#.utf8))
        let server = try Self.gzipServer(body)
        let answer = try HTTPFetch.request("http://127.0.0.1:\(server.port)/", limits: HTTPLimits(timeout: 20))
        #expect(String(decoding: answer.body, as: UTF8.self) == #"[{"title":"zipped"}]"#)
        #expect(answer.bytesReceived > body.count && answer.bytesReceived < body.count + 400, "the wire's bytes: \(answer.bytesReceived)")
    }
}

@MainActor
@Suite("Files and commands that did not change")
struct UnchangedSourceTests {
    @Test("a file whose size, time and contents are as they were is unchanged; another time or other contents of the same size are not")
    func file() async throws {
        let dir = try scratchDirectory("unchanged")
        let path = dir + "/items.json"
        try #"[{"title":"one"}]"#.write(toFile: path, atomically: false, encoding: .utf8)
        let source = FileItemSource(path: path, executor: workers)
        #expect(try await loadPage(source).get().isUnchanged == false)
        #expect(try await loadPage(source).get().isUnchanged == true)
        #expect(try await loadPage(source, page: 1).get().isUnchanged == false, "pages are their own")
        // The same bytes with a new time: read again.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try await loadPage(source).get().isUnchanged == false)
        // Other bytes of the same size, the time put back as it was: the hash tells.
        try #"[{"title":"two"}]"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let changed = try await loadPage(source).get()
        #expect(!changed.isUnchanged && changed.items.map(\.title) == ["two"])
    }

    @Test("a command that prints the same bytes is unchanged")
    func command() async throws {
        let dir = try scratchDirectory("unchanged-command")
        let counter = dir + "/n"
        let program = try script("n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n + 1)) > \(counter); if [ $n -lt 2 ]; then echo '[{\"title\":\"same\"}]'; else echo '[{\"title\":\"new\"}]'; fi")
        let source = CommandItemSource(executable: program, executor: workers)
        #expect(try await loadPage(source).get().isUnchanged == false)
        #expect(try await loadPage(source).get().isUnchanged == true)
        let third = try await loadPage(source).get()
        #expect(!third.isUnchanged && third.items.map(\.title) == ["new"])
    }
}

@Suite("The picture cache revalidates")
struct PictureRevalidationTests {
    @Test("a kept picture is used while fresh, then revalidated by its ETag: a 304 keeps the file and downloads nothing")
    func revalidate() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        final class Heads: @unchecked Sendable { let lock = NSLock(); var list: [String] = [] }
        let heads = Heads()
        let picture = PictureFiles.jpeg
        let server = try LoopbackServer(connections: 5) { server, client, request in
            heads.lock.withLock { heads.list.append(request) }
            if request.contains("If-None-Match: \"pic-1\"") {
                _ = server.send(client, "HTTP/1.1 304 Not Modified\r\nETag: \"pic-1\"\r\nCache-Control: max-age=60\r\nConnection: close\r\n\r\n")
            } else {
                _ = server.send(client, "HTTP/1.1 200 OK\r\nETag: \"pic-1\"\r\nCache-Control: max-age=60\r\nContent-Length: \(picture.count)\r\nConnection: close\r\n\r\n")
                _ = server.send(client, picture)
            }
        }
        let url = "http://127.0.0.1:\(server.port)/a.jpg"
        let cache = DiskPictureCache(directory: files.directory, budget: 1 << 20)
        let now = 1_800_000_000.0
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: cache, cancel: CancelFlag(), now: now).get() == picture)
        #expect(cache.kept(for: url, limit: 1 << 20)?.etag == "\"pic-1\"")
        #expect(cache.kept(for: url, limit: 1 << 20)?.freshUntil == now + 60)
        // Within max-age: from the disk, the server not asked.
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: cache, cancel: CancelFlag(), now: now + 59).get() == picture)
        #expect(server.connectionsAccepted == 1)
        // Stale, in a new process: asked conditionally, 304, the kept bytes, fresh again.
        let again = DiskPictureCache(directory: files.directory, budget: 1 << 20)
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: again, cancel: CancelFlag(), now: now + 61).get() == picture)
        #expect(server.connectionsAccepted == 2)
        #expect(heads.lock.withLock { heads.list.last?.contains("If-None-Match: \"pic-1\"") } == true)
        #expect(again.kept(for: url, limit: 1 << 20)?.freshUntil == now + 61 + 60)
        // Stale with the server gone: the kept picture still shows.
        let port = server.port
        while server.connectionsAccepted < 5 { _ = try? HTTPFetch.request("http://127.0.0.1:\(port)/drain", limits: HTTPLimits(timeout: 2)) }
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: again, cancel: CancelFlag(), now: now + 1000).get() == picture)
    }
}
