import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh

@MainActor
func load(_ source: any ItemSource, page: Int = 0, size: Int = 20) async -> Result<[Item], Error> {
    await loadPage(source, page: page, size: size).map(\.items)
}

/// The whole answer of a load: its items and what the source said of them.
@MainActor
func loadPage(_ source: any ItemSource, page: Int = 0, size: Int = 20) async -> Result<ItemPage, Error> {
    await withCheckedContinuation { continuation in
        source.load(page: page, pageSize: size) { continuation.resume(returning: $0) }
    }
}

func dataSourceError(_ result: Result<[Item], Error>) -> DataSourceError? {
    if case let .failure(error) = result { return error as? DataSourceError }
    return nil
}

/// A shell script in a temporary file. Written through a close-on-exec descriptor: a child
/// started meanwhile by another test must not inherit it open for writing, or running the
/// script fails with ETXTBSY for as long as that child lives.
func script(_ body: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID().uuidString).sh").path
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
    guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    return path
}

@MainActor
@Suite("Data sources")
struct ItemSourceTests {
    @Test("items from a JSON array or JSON lines; ids as strings or numbers; a title is required")
    func parsing() throws {
        let array = try ItemParser.parse(Data(#"[{"title":"A","subtitle":"a","id":7},{"title":"B","id":"x"}]"#.utf8), source: "t")
        #expect(array == [Item(id: "7", title: "A", subtitle: "a"), Item(id: "x", title: "B", subtitle: "")])
        let lines = try ItemParser.parse(Data("{\"title\":\"A\"}\n\n{\"title\":\"B\"}\r\n".utf8), source: "t")
        #expect(lines.map(\.title) == ["A", "B"])
        #expect(try ItemParser.parse(Data("[]".utf8), source: "t").isEmpty)
        #expect(throws: DataSourceError.malformed(source: "t", reason: "item 1 has no string \"title\"")) {
            try ItemParser.parse(Data(#"[{"name":"A"}]"#.utf8), source: "t")
        }
        #expect(throws: DataSourceError.malformed(source: "t", reason: "line 2 is not JSON (null expected)")) {
            try ItemParser.parse(Data("{\"title\":\"A\"}\nnope\n".utf8), source: "t")
        }
    }

    @Test("a command gets the page as an argument and in its environment")
    func command() async throws {
        let path = try script(#"echo "[{\"title\":\"page $1 of size $PANEL_REFRESH_PAGE_SIZE\",\"id\":$PANEL_REFRESH_PAGE}]""#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await load(CommandItemSource(executable: path, executor: workers), page: 2, size: 5)
        #expect(try result.get() == [Item(id: "2", title: "page 2 of size 5", subtitle: "")])
    }

    @Test("command failures: exit status with stderr, timeout, malformed and oversized output, missing program")
    func commandFailures() async throws {
        let failing = try script("echo 'database locked' >&2; exit 3")
        let slow = try script("sleep 5; echo '[]'")
        let garbage = try script("echo 'not json at all'")
        let huge = try script("head -c 5000000 /dev/zero | tr '\\0' 'a'")
        defer { for p in [failing, slow, garbage, huge] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(dataSourceError(await load(CommandItemSource(executable: failing, executor: workers)))
            == .exitStatus(command: failing, status: 3, stderr: "database locked"))
        let slowError = dataSourceError(await load(CommandItemSource(executable: slow, timeout: 0.3, executor: workers)))
        #expect(slowError == .timeout(source: slow, seconds: 0.3), "\(String(describing: slowError))")
        guard case .malformed? = dataSourceError(await load(CommandItemSource(executable: garbage, executor: workers))) else {
            Issue.record("garbage accepted")
            return
        }
        #expect(dataSourceError(await load(CommandItemSource(executable: huge, executor: workers))) == .tooLarge(source: huge, limit: ItemParser.maxBytes))
        guard case .unreachable? = dataSourceError(await load(CommandItemSource(executable: "/nonexistent/program", executor: workers))) else {
            Issue.record("a missing program loaded")
            return
        }
    }

    @Test("a file is read again on every load and paged")
    func file() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let items = (1...25).map { #"{"title":"Item \#($0)"}"# }.joined(separator: ",")
        try "[\(items)]".write(toFile: path, atomically: true, encoding: .utf8)
        let source = FileItemSource(path: path, executor: workers)
        #expect(try await load(source, page: 1, size: 20).get().map(\.title) == (21...25).map { "Item \($0)" })
        try #"[{"title":"Changed"}]"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await load(source).get().map(\.title) == ["Changed"])
        try FileManager.default.removeItem(atPath: path)
        guard case .unreachable? = dataSourceError(await load(source)) else {
            Issue.record("a missing file loaded")
            return
        }
    }

    @Test("HTTP: a page from a loopback server; refused connections and bad statuses are errors")
    func http() async throws {
        let server = try OneShotServer(status: 200, body: #"[{"title":"From HTTP","id":1}]"#)
        let source = HTTPItemSource(url: "http://127.0.0.1:\(server.port)/items?page={page}&size={size}", timeout: 5, executor: workers)
        #expect(try await load(source).get() == [Item(id: "1", title: "From HTTP", subtitle: "")])
        #expect(server.request.hasPrefix("GET /items?page=0&size=20 "))
        let error = try OneShotServer(status: 500, body: "oops")
        guard case .unreachable? = dataSourceError(await load(HTTPItemSource(url: "http://127.0.0.1:\(error.port)/", executor: workers))) else {
            Issue.record("HTTP 500 accepted")
            return
        }
        let closed = try OneShotServer.unusedPort()
        guard case .unreachable? = dataSourceError(await load(HTTPItemSource(url: "http://127.0.0.1:\(closed)/", timeout: 5, executor: workers))) else {
            Issue.record("a refused connection loaded")
            return
        }
    }
}

/// A loopback HTTP server that answers one request, on an ephemeral port.
final class OneShotServer: @unchecked Sendable {
    let port: UInt16
    private let lock = NSLock()
    private var received = ""
    var request: String { lock.withLock { received } }

    init(status: Int, body: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 1) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        let response = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        Thread.detachNewThread { [self] in
            let client = accept(fd, nil, nil)
            defer { close(fd) }
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(client, &buffer, buffer.count)
            lock.withLock { received = String(decoding: buffer.prefix(max(0, n)), as: UTF8.self) }
            _ = response.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
    }

    /// A port nothing listens on (bound, then closed).
    static func unusedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }
}

@Suite("Row fields")
struct RowFieldTests {
    @Test("a feed that wraps its list in an object: its one list is taken, or the member data.list names; a wrapper with none or several says so and how to choose")
    func wrapped() throws {
        var fields = ItemParser.Fields(title: "destination", subtitle: "line")
        let feed = #"{"station": "Central", "updated": "2026-12-04T18:00:00+01:00", "departures": [{"destination": "Airport", "line": "S1"}, {"destination": "Harbour", "line": "S3"}]}"#
        // Pretty-printed over lines as most APIs send it: still one object, not JSON lines.
        let pretty = feed.replacing(", ", with: ",\n  ")
        for text in [feed, pretty] {
            #expect(try ItemParser.parse(Data(text.utf8), source: "t", fields: fields).map(\.title) == ["Airport", "Harbour"])
        }
        fields.list = ["data", "departures"]
        let nested = #"{"meta": {"count": 1}, "data": {"departures": [{"destination": "Airport"}], "alerts": []}}"#
        #expect(try ItemParser.parse(Data(nested.utf8), source: "t", fields: fields).map(\.title) == ["Airport"])
        #expect(throws: DataSourceError.malformed(source: "t", reason: "the answer has no \"data\" (data.list); its members: station, updated, departures")) {
            try ItemParser.parse(Data(feed.utf8), source: "t", fields: fields)
        }
        fields.list = ["data", "alerts"]
        #expect(try ItemParser.parse(Data(nested.utf8), source: "t", fields: fields).isEmpty)
        fields.list = ["meta", "count"]
        #expect(throws: DataSourceError.malformed(source: "t", reason: "\"meta.count\" (data.list) is not a list")) {
            try ItemParser.parse(Data(nested.utf8), source: "t", fields: fields)
        }
        fields.list = []
        // Two lists: which one is the operator's to say; none: no list at all (it was "item 1 has no string").
        #expect(throws: DataSourceError.malformed(source: "t", reason: "the answer is an object, not a list of items: set data.list to the member that holds the list (\"departures\", \"alerts\")")) {
            try ItemParser.parse(Data(#"{"departures": [], "alerts": []}"#.utf8), source: "t", fields: fields)
        }
        #expect(throws: DataSourceError.malformed(source: "t", reason: "the answer is an object, not a list of items: none of its members is a list")) {
            try ItemParser.parse(Data(#"{"station": "Central"}"#.utf8), source: "t", fields: fields)
        }
        // An item with a list of its own in JSON lines stays an item.
        let item = #"{"destination": "Airport", "stops": ["A", "B"]}"#
        #expect(try ItemParser.parse(Data(item.utf8), source: "t", fields: fields).map(\.title) == ["Airport"])
        // A bare list where the configuration expects a wrapper says so.
        fields.list = ["departures"]
        #expect(throws: DataSourceError.malformed(source: "t", reason: "the answer is a list, not an object with \"departures\" (data.list)")) {
            try ItemParser.parse(Data(#"[{"destination": "Airport"}]"#.utf8), source: "t", fields: fields)
        }
    }

    @Test("data.list: names joined by dots; an empty name is refused")
    func listKey() throws {
        var c = KioskConfiguration()
        try c.set("data.list", "data.departures")
        #expect(c.rowFields.list == ["data", "departures"])
        try c.set("data.list", "")
        #expect(c.rowFields.list.isEmpty)
        #expect(throws: ConfigurationError.self) { try c.set("data.list", "data..departures") }
    }

    @Test("the configured fields become title and subtitle")
    func fields() throws {
        let items = try ItemParser.parse(Data(#"[{"name":"Ada","role":"engineer"}]"#.utf8), source: "t",
                                         fields: ItemParser.Fields(title: "name", subtitle: "role"))
        // No id field: the title is the item's id.
        #expect(items == [Item(id: "Ada", title: "Ada", subtitle: "engineer")])
    }
}

/// Work off the loop as the panel runs it (Dispatch's workers), each result applied as soon as
/// it arrives on the main queue: the real-time driver's entry for it, without a host.
@MainActor let workers: RealTimeExecutor = {
    let executor = RealTimeExecutor()
    executor.onArrival = { [unowned executor] in executor.deliver(upTo: 0) }
    return executor
}()
