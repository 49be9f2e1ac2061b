import Dispatch
import Glibc
import PanelKiosk
import Synchronization

/// The targets of what comes over the network and the control socket: a broker's messages, an
/// HTTP server's answers, `ctl`'s requests. Each runs the program's own code as it runs in the
/// kiosk, in virtual time where there is a loop.
extension FuzzTarget {
    /// The topics of the `mqtt` target's link.
    static let listTopic = "fuzz/list", triggerTopic = "fuzz/trigger", commandTopic = "fuzz/command"

    /// A link with no connection (none is made before its first tick), a list topic, a trigger
    /// and commands; its list's loads run on `executor`.
    @MainActor private static let broker: (link: FleetLink, executor: VirtualExecutor) = {
        let executor = VirtualExecutor(clock: ManualClock())
        var settings = FleetLink.Settings(connection: MQTTConnection.Settings(host: "127.0.0.1", port: 9, clientID: "fuzz"),
                                          listTopic: listTopic, statusTopic: "fuzz/status", staleAfter: 120)
        settings.commandTopic = commandTopic
        settings.triggerTopic = triggerTopic
        return (FleetLink(settings, seed: "fuzz", now: 0, executor: executor), executor)
    }()

    @MainActor static func mqtt(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let (link, executor) = broker
        let topic = [listTopic, triggerTopic, commandTopic][Int(selector) % 3]
        link.onCommand = { _ in }
        link.received(topic: topic, payload: Array(bytes.dropFirst()), at: 0)
        guard topic == listTopic, let list = link.list else { return }
        var result: Result<ItemPage, Error>?
        list.load(page: 0, pageSize: 50) { result = $0 }
        executor.deliver(upTo: executor.clock.now)
        check(result, pageSize: 50)
    }

    /// A load's outcome as every source must give it: an answer, a page of at most the size
    /// asked fresh for 0 to 86,400 s, or a data source's error whose wait is as long at most.
    static func check(_ result: Result<ItemPage, Error>?, pageSize: Int) {
        switch result {
        case .success(let page)?:
            guard page.items.count <= pageSize else { fatalError("a page of \(page.items.count) items for \(pageSize)") }
            if let fresh = page.freshFor, !(0...86_400).contains(fresh) { fatalError("fresh for \(fresh) s") }
        case .failure(let error)?:
            guard let error = error as? DataSourceError else { fatalError("not a data source's error: \(error)") }
            if let wait = error.retryAfter, !(0...86_400).contains(wait) { fatalError("told to wait \(wait) s") }
        case nil:
            fatalError("a load never answered")
        }
    }

    // MARK: HTTP

    /// A loopback server that answers every connection with the current input, whole, then
    /// closes: one per process.
    private final class AnswerServer: @unchecked Sendable {
        let port: UInt16
        private let answer = Mutex<[UInt8]>([])
        /// The thread that accepts: a serial queue's, its own (it blocks in accept).
        private let queue = DispatchQueue(label: "panel-refresh-fuzz.http")

        init?() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard bound == 0, listen(fd, 16) == 0 else { return nil }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            port = UInt16(bigEndian: address.sin_port)
            queue.async { [self] in
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { continue }
                    // The request whole (a GET's head ends with a blank line), then the answer.
                    var request: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
                    while !request.suffix(4).elementsEqual([13, 10, 13, 10]), request.count < 65536 {
                        let n = recv(client, &buffer, buffer.count, 0)
                        if n <= 0 { break }
                        request += buffer[0..<n]
                    }
                    let bytes = answer.withLock { $0 }
                    _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    shutdown(client, Int32(SHUT_RDWR))
                    close(client)
                }
            }
        }

        func serve(_ bytes: [UInt8]) { answer.withLock { $0 = bytes } }
    }

    private static let answers = AnswerServer()

    /// The HTTP source over the loopback server, its answer cache in a folder of its own.
    @MainActor private static let web: (source: HTTPItemSource, executor: VirtualExecutor)? = {
        guard let answers, let dir = scratchFolder() else { return nil }
        let executor = VirtualExecutor(clock: ManualClock())
        let source = HTTPItemSource(url: "http://127.0.0.1:\(answers.port)/items.json", timeout: 2, stateDirectory: dir, executor: executor)
        return (source, executor)
    }()

    @MainActor static func http(_ bytes: [UInt8]) {
        guard let answers, let (source, executor) = web else { return }
        answers.serve(bytes)
        // Twice: the second request is conditional when the first kept validators.
        for _ in 0..<2 {
            var result: Result<ItemPage, Error>?
            source.load(page: 0, pageSize: 50) { result = $0 }
            executor.deliver(upTo: executor.clock.now)
            check(result, pageSize: 50)
        }
    }

    // MARK: The control socket

    /// A control server at a path of its own that answers every command with its own line.
    @MainActor private static let controlServer: (server: ControlServer, path: String)? = {
        guard let dir = scratchFolder() else { return nil }
        let path = dir + "/control"
        guard let server = try? ControlServer(path: path) else { return nil }
        server.onRequest = { command, answer in answer(.ok(Array(command.line.utf8))) }
        return (server, path)
    }()

    @MainActor static func control(_ bytes: [UInt8]) {
        // `ctl`'s reader on the bytes as an answer: a reply or a typed error, nothing else.
        if let reply = try? ControlClient.parse(bytes), case .ok(let payload) = reply,
           (try? ControlClient.parse(ControlReply.ok(payload).bytes)) != reply {
            fatalError("an answer does not read back as itself")
        }
        guard let (server, path) = controlServer else { return }
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { return }
        defer { close(client) }
        var address = ControlServer.address(path)
        guard withUnsafePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }) == 0 else { return }
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        shutdown(client, Int32(SHUT_WR))
        // The loop's part, as the real-time driver plays it, until the server is done with it;
        // then a timer tick past every deadline.
        for _ in 0..<64 where server.count > 0 || server.reading.count == 1 && server.count == 0 {
            for watched in server.reading { server.readable(watched.fd, at: 0) }
            for watched in server.writing { server.writable(watched.fd, at: 0) }
            if server.count == 0 { break }
        }
        server.tick(at: 1_000)
        for fd in server.retired { server.release(fd) }
        var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        // Whatever was asked, what the server sent reads as an answer.
        if !answer.isEmpty, (try? ControlClient.parse(answer)) == nil {
            fatalError("the server sent what ctl cannot read: \(String(decoding: answer.prefix(80), as: UTF8.self))")
        }
    }

    /// A new folder under /tmp for this process, nil when none can be made.
    static func scratchFolder() -> String? {
        var template = Array("/tmp/panel-refresh-fuzz-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
    }

    // MARK: Memory per byte

    /// Whether the `items-memory` target measures (the fuzzer, a process of its own, sets it);
    /// the seeds' test in the suite's shared process only parses.
    nonisolated(unsafe) public static var measuresMemory = false

    /// The peak rise a parse may take under the fuzzer, per byte: 64 times the document and
    /// 32 MiB (AddressSanitizer's redzones and allocator take about three times a plain build's
    /// memory; the plain bound, 16 times and 8 MiB, is ParseMemoryTests').
    static func memoryBound(_ bytes: Int) -> Int { 64 * bytes + (32 << 20) }

    static func itemsMemory(_ bytes: [UInt8]) {
        guard measuresMemory else {
            _ = try? ItemParser.parse(bytes, source: "fuzz")
            return
        }
        let before = status("VmRSS")
        // The high-water mark reset, so that VmHWM is this parse's peak.
        _ = "5".withCString { text in
            let fd = open("/proc/self/clear_refs", O_WRONLY)
            defer { if fd >= 0 { close(fd) } }
            return fd >= 0 ? write(fd, text, 1) : -1
        }
        let items = try? ItemParser.parse(bytes, source: "fuzz")
        let rise = (status("VmHWM") - before) * 1024
        guard rise <= memoryBound(bytes.count) else {
            fatalError("parsing \(bytes.count) bytes (\(items?.count ?? 0) items) raised the peak by \(rise >> 20) MiB, over \(memoryBound(bytes.count) >> 20) MiB")
        }
    }

    /// A field of /proc/self/status, kB (0 when it cannot be read).
    private static func status(_ field: String) -> Int {
        guard let text = try? BoundedFile.read("/proc/self/status", limit: 1 << 16) else { return 0 }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
