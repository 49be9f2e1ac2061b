import Foundation
import Testing
import PanelFuzz
import PanelRender
import PanelUI
@testable import PanelHost
@testable import PanelKiosk

/// A scratch directory of picture files for one test.
struct PictureFiles {
    let directory: String
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    static let jpeg = TestPictures.jpeg(TestPictures.quadrants(width: 64, height: 48))
    static let webp = TestPictures.webp(TestPictures.quadrants(width: 64, height: 48))
}

@MainActor
@Suite("Row pictures: the loader")
struct PictureLoaderTests {
    static let size = Size(width: 20, height: 20)

    func request(_ source: String, _ side: Int = 20) -> ThumbnailLoader.Request {
        ThumbnailLoader.Request(source: source, width: side, height: side)
    }

    @Test("files become thumbnails at their drawn size; bad ones the broken mark, reported once and not fetched again")
    func files() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let good = try files.write("good.jpg", PictureFiles.jpeg)
        let named = try files.write("really-webp.png", PictureFiles.webp)
        let html = try files.write("error.jpg", Array("<html>404</html>".utf8))
        let truncated = try files.write("cut.jpg", Array(PictureFiles.jpeg.prefix(300)))
        let bomb = try files.write("bomb.jpg", TestPictures.jpegClaiming(PictureFiles.jpeg, width: 50000, height: 50000))
        let jobs = Jobs()
        let loader = ThumbnailLoader(executor: jobs.executor)
        var failures: [String] = []
        loader.onFailure = { request, _ in failures.append(request.source) }
        for source in [good, named] {
            #expect(loader.want(request(source), size: Self.size) == .loading, "its job runs off the loop")
            jobs.settle()
            let shown = loader.picture(request(source), size: Self.size)
            #expect(shown == .shown(ImageReference(supplied: request(source).name, size: Self.size)), "\(source)")
            let surface = try #require(loader.surface(named: request(source).name))
            #expect((surface.width, surface.height) == (20, 20))
            #expect(surface.pixel(x: 1, y: 1) & 0xff_ffff > 0xc0_0000, "red at the top left")
        }
        let bad = [html, truncated, bomb, files.directory + "/missing.jpg", "relative/path.jpg", "ftp://example.org/a.jpg", files.directory]
        for source in bad {
            _ = loader.want(request(source), size: Self.size)
            jobs.settle()
            #expect(loader.picture(request(source), size: Self.size) == .failed, "\(source)")
        }
        #expect(failures == bad)
        let started = loader.started
        for source in bad { _ = loader.want(request(source), size: Self.size) }
        #expect(loader.started == started && failures.count == bad.count, "a broken picture is not tried at every scroll")
        loader.forgetFailures()
        _ = loader.want(request(html), size: Self.size)
        #expect(loader.started == started + 1, "after a refresh it is tried again")
        #expect(loader.decoded == 2)
    }

    @Test("memory stays within the budget; the pictures of rows on screen are never dropped")
    func budget() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let paths = try (0..<10).map { try files.write("p\($0).jpg", PictureFiles.jpeg) }
        // Three 20x20 thumbnails of 1,600 bytes.
        let jobs = Jobs()
        let loader = ThumbnailLoader(budget: 3 * 1600, executor: jobs.executor)
        let onScreen = [request(paths[0]), request(paths[1])]
        for r in onScreen { _ = loader.want(r, size: Self.size) }
        jobs.settle()
        for path in paths.dropFirst(2) {
            _ = loader.want(request(path), size: Self.size)
            jobs.settle()
            loader.release(request(path))
            #expect(loader.bytesUsed <= 3 * 1600)
        }
        for r in onScreen { #expect(loader.surface(named: r.name) != nil) }
        #expect(loader.count == 3)
        #expect(loader.decoded == 10)
    }

    @Test("memory that evictions freed goes back to the system every 2 MiB evicted and when asked (the list stopped), only if it was asked to")
    func freedMemoryReturned() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let large = TestPictures.jpeg(TestPictures.quadrants(width: 512, height: 512))
        let paths = try (0..<6).map { try files.write("p\($0).jpg", large) }
        // 400x400 thumbnails (640,000 bytes), one kept: four evictions pass 2 MiB.
        let big = Size(width: 400, height: 400)
        for returns in [true, false] {
            let jobs = Jobs()
            let loader = ThumbnailLoader(budget: 700_000, executor: jobs.executor)
            loader.returnsFreedMemory = returns
            for path in paths.prefix(5) {
                let r = ThumbnailLoader.Request(source: path, width: 400, height: 400)
                _ = loader.want(r, size: big)
                jobs.settle()
                loader.release(r)
            }
            #expect(loader.decoded == 5 && loader.count == 1)
            #expect(loader.memoryReturns == (returns ? 1 : 0), "four evictions of 640,000 bytes: \(loader.memoryReturns)")
            loader.returnFreedMemory()
            #expect(loader.memoryReturns == (returns ? 1 : 0), "nothing evicted since: nothing to give back")
            let r = ThumbnailLoader.Request(source: paths[5], width: 400, height: 400)
            _ = loader.want(r, size: big)
            jobs.settle()
            loader.release(r)
            loader.returnFreedMemory()
            #expect(loader.memoryReturns == (returns ? 2 : 0), "one eviction, then the list stopped")
        }
    }

    @Test("a row that scrolls away takes its picture off the queue, or stops its download")
    func cancel() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let paths = try (0..<3).map { try files.write("p\($0).jpg", PictureFiles.jpeg) }
        // On the panel's workers: one, so the second and third wait in the queue.
        let loader = ThumbnailLoader(workers: 1, executor: workers)
        for path in paths { _ = loader.want(request(path), size: Self.size) }
        #expect(loader.started == 1 && loader.pending == 3)
        loader.release(request(paths[1]))
        #expect(loader.cancelled == 1 && loader.pending == 2 && loader.started == 1)
        // Wanted by two rows: one leaving keeps it.
        _ = loader.want(request(paths[2]), size: Self.size)
        loader.release(request(paths[2]))
        #expect(loader.pending == 2)

        // A download in progress stops at its next piece once the flag is set.
        let server = try LoopbackServer { server, client, _ in
            guard server.send(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") else { return }
            for _ in 0..<200 {
                guard server.send(client, [UInt8](repeating: 0xff, count: 512)) else { return }
                usleep(20_000)
            }
        }
        let flag = CancelFlag()
        Thread.detachNewThread { usleep(200_000); flag.set() }
        let begun = Date()
        let result = PictureFetch.thumbnail("http://127.0.0.1:\(server.port)/slow.jpg", width: 20, height: 20,
                                            limits: PictureLimits(), disk: nil, cancel: flag)
        #expect(result == .failure(.cancelled))
        #expect(Date().timeIntervalSince(begun) < 2, "not the 4 s the server would take")
    }

    @Test("local pictures never wait behind slow downloads: files have their own lane, downloads at most `fetches` at once")
    func lanes() async throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let local = try (0..<3).map { try files.write("local\($0).jpg", PictureFiles.jpeg) }
        // A server that answers after 4 s, to as many as ask.
        let server = try LoopbackServer(connections: 6) { server, client, _ in
            usleep(4_000_000)
            _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: \(PictureFiles.jpeg.count)\r\nConnection: close\r\n\r\n")
            _ = server.send(client, PictureFiles.jpeg)
        }
        // Three file workers, so that the three local pictures start at once when wanted and
        // nothing of theirs needs the test process's run loop, busy with other tests: each
        // job's end is heard as its worker sees it.
        let loader = ThumbnailLoader(workers: 3, fetches: 2, executor: workers)
        let done = DispatchSemaphore(value: 0)
        loader.onWorkerDone = { request, network in if !network && request.source.hasSuffix(".jpg") && !request.source.hasPrefix("http") { done.signal() } }
        let slow = (0..<3).map { request("http://127.0.0.1:\(server.port)/slow\($0).jpg") }
        for request in slow { _ = loader.want(request, size: Self.size) }
        // With no disk cache to look in, the downloads start at once, two of them.
        #expect(loader.downloading == 2, "two downloads at once, the third waits: \(loader.downloading)")
        let asked = Date()
        for path in local { _ = loader.want(request(path), size: Self.size) }
        for _ in local { #expect(done.wait(timeout: .now() + 10) == .success) }
        let waited = Date().timeIntervalSince(asked)
        #expect(waited < 2, "the local pictures took \(waited) s: they waited behind the downloads")
        #expect(loader.downloading == 2)
        for request in slow { loader.release(request) }
    }

    @Test("over HTTP: a picture, a 404, a redirect loop, a trickle and a body too large each end as the broken mark")
    func http() throws {
        let server = try LoopbackServer(connections: 20) { server, client, request in
            let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            switch path {
            case "/ok.jpg":
                _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: \(PictureFiles.jpeg.count)\r\nConnection: close\r\n\r\n")
                _ = server.send(client, PictureFiles.jpeg)
            case "/loop.jpg":
                _ = server.send(client, "HTTP/1.1 302 Found\r\nLocation: /loop.jpg\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            case "/trickle.jpg":
                guard server.send(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") else { return }
                for _ in 0..<40 where server.send(client, [0xff]) { usleep(100_000) }
            case "/huge.jpg":
                _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\nConnection: close\r\n\r\n")
            default:
                _ = server.send(client, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found")
            }
        }
        let base = "http://127.0.0.1:\(server.port)"
        var limits = PictureLimits()
        limits.stallSeconds = 1
        func fetch(_ path: String) -> Result<Bitmap, PictureError> {
            PictureFetch.thumbnail(base + path, width: 20, height: 20, limits: limits, disk: nil, cancel: CancelFlag())
        }
        guard case .success(let bitmap) = fetch("/ok.jpg") else { Issue.record("the picture did not load"); return }
        #expect(bitmap.width == 20 && bitmap.height == 20)
        #expect(fetch("/missing.jpg") == .failure(.fetch(.unreachable(source: base + "/missing.jpg", reason: "HTTP status 404"))))
        #expect(fetch("/loop.jpg") == .failure(.fetch(.unreachable(source: base + "/loop.jpg", reason: "more than 5 redirects"))))
        #expect(fetch("/trickle.jpg") == .failure(.fetch(.stalled(source: base + "/trickle.jpg", bytesPerSecond: 1024, seconds: 1))))
        #expect(fetch("/huge.jpg") == .failure(.fetch(.tooLarge(source: base + "/huge.jpg", limit: limits.maxBytes))))
    }

    @Test("fetched pictures are kept on disk, bounded, across a restart; the URL in each file guards against a shared hash")
    func disk() throws {
        let files = try PictureFiles()
        defer { files.remove() }
        let server = try LoopbackServer(connections: 5) { server, client, _ in
            _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: \(PictureFiles.jpeg.count)\r\nConnection: close\r\n\r\n")
            _ = server.send(client, PictureFiles.jpeg)
        }
        let url = "http://127.0.0.1:\(server.port)/a.jpg"
        let cache = DiskPictureCache(directory: files.directory, budget: 1 << 20)
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: cache, cancel: CancelFlag()).get() == PictureFiles.jpeg)
        #expect(server.connectionsAccepted == 1 && cache.count == 1)
        // A new process: the file is found, counted and used; the server is not asked again.
        _ = try files.write("0123456789abcdef.picture.12345", [1, 2, 3])
        let again = DiskPictureCache(directory: files.directory, budget: 1 << 20)
        #expect(again.count == 1 && again.bytesUsed == cache.bytesUsed)
        #expect(!FileManager.default.fileExists(atPath: files.directory + "/0123456789abcdef.picture.12345"), "a half-written file is removed")
        #expect(try PictureFetch.fetch(url, limits: PictureLimits(), disk: again, cancel: CancelFlag()).get() == PictureFiles.jpeg)
        #expect(server.connectionsAccepted == 1)
        // Another URL whose file name is this one's (a hash shared): not this picture.
        let other = "http://127.0.0.1:\(server.port)/b.jpg"
        let name = DiskPictureCache.name(url)
        try FileManager.default.copyItem(atPath: files.directory + "/" + name, toPath: files.directory + "/" + DiskPictureCache.name(other))
        let third = DiskPictureCache(directory: files.directory, budget: 1 << 20)
        #expect(third.bytes(for: other, limit: 1 << 20) == nil)
        // The budget: the oldest goes first.
        let small = DiskPictureCache(directory: files.directory, budget: PictureFiles.jpeg.count * 2 + 400)
        small.store(PictureFiles.jpeg, for: "http://x/1")
        small.store(PictureFiles.jpeg, for: "http://x/2")
        #expect(small.bytesUsed <= small.budget)
        #expect(small.bytes(for: "http://x/2", limit: 1 << 20) == PictureFiles.jpeg)
        #expect(small.bytes(for: url, limit: 1 << 20) == nil, "the oldest file was dropped")
    }
}

/// Work off the loop in virtual time, run when a test says: ``settle()`` runs every job asked so
/// far and those their results ask in turn.
@MainActor
final class Jobs {
    let clock = ManualClock()
    lazy var executor = VirtualExecutor(clock: clock)

    func settle() {
        while executor.pending > 0 { executor.deliver(upTo: clock.now) }
    }
}
