import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh
import PanelInput

/// Whether `pid` is a live process (a zombie or a missing one is not): /proc/PID/stat's state.
func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? fileText("/proc/\(pid)/stat"),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
}

/// Whether `pid` is still running after up to 2 s: SIGKILL is sent, not waited for, and the
/// kernel takes a moment to end a process.
func outlives(_ pid: Int32) -> Bool {
    let watch = Stopwatch()
    while isRunning(pid) {
        if watch.elapsed > 2 { return true }
        usleep(10_000)
    }
    return false
}

/// PIDs a script wrote, one per line, to `path`.
func pids(in path: String) -> [Int32] {
    ((try? fileText(path)) ?? "").split(separator: "\n").compactMap { Int32($0) }
}

/// Seconds since it was made, on the monotonic clock.
struct Stopwatch {
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}

@MainActor
@Suite("Command sources that misbehave")
struct HostileCommandTests {
    @Test("a command that ignores SIGTERM, and the child it started, are gone after the timeout")
    func timeoutEndsTheGroup() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("pids-\(UUID().uuidString)").path
        let stubborn = try script("""
            trap '' TERM
            sh -c 'trap "" TERM; echo $$ >> \(record); exec sleep 60' &
            echo $$ >> \(record)
            sleep 60
            """)
        defer { for p in [stubborn, record] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(dataSourceError(await load(CommandItemSource(executable: stubborn, timeout: 0.5, executor: workers)))
            == .timeout(source: stubborn, seconds: 0.5))
        // The supervisor alone (the source's result also waits for the main actor, which other
        // tests keep busy): the timeout and the grace before SIGKILL, not the 60 s sleeps.
        let watch = Stopwatch()
        #expect(throws: ChildProcess.Failure.timedOut(stdoutOverflowed: false)) {
            try ChildProcess.run(stubborn, [], environment: [:], limits: ChildProcess.Limits(timeout: 0.5, stdoutBytes: 100))
        }
        #expect(watch.elapsed < 20)
        let started = pids(in: record)
        #expect(started.count == 4)
        for pid in started { #expect(!outlives(pid), "process \(pid) outlived the timeout") }
    }

    @Test("more than 64 KiB on stderr does not block a good answer; the log keeps its tail")
    func floodedStderr() async throws {
        let noisy = try script("""
            head -c 300000 /dev/zero | tr '\\0' 'e' >&2
            echo '[{"title":"fine"}]'
            """)
        let failing = try script("""
            head -c 300000 /dev/zero | tr '\\0' 'e' >&2
            echo 'the last words' >&2
            exit 5
            """)
        defer { for p in [noisy, failing] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(try await load(CommandItemSource(executable: noisy, timeout: 5, executor: workers)).get().map(\.title) == ["fine"])
        guard case let .exitStatus(_, status, stderr)? = dataSourceError(await load(CommandItemSource(executable: failing, timeout: 5, executor: workers))) else {
            Issue.record("a failing command was not reported by its exit status")
            return
        }
        #expect(status == 5)
        #expect(stderr.hasSuffix("the last words"))
        #expect(stderr.utf8.count <= 4096)
    }

    @Test("a command that exits leaving a child on its pipes: its own exit decides, the child is ended")
    func backgroundChildHoldsThePipes() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("pids-\(UUID().uuidString)").path
        let quick = try script("""
            sleep 60 &
            echo $! >> \(record)
            echo '[{"title":"quick"}]'
            """)
        let failing = try script("""
            sleep 60 &
            echo $! >> \(record)
            exit 4
            """)
        defer { for p in [quick, failing, record] { try? FileManager.default.removeItem(atPath: p) } }
        // The old reader waited for the pipes' end, which the children hold for 60 s: the result
        // was a timeout after 50 s.
        #expect(try await load(CommandItemSource(executable: quick, timeout: 50, executor: workers)).get().map(\.title) == ["quick"])
        #expect(dataSourceError(await load(CommandItemSource(executable: failing, timeout: 50, executor: workers)))
            == .exitStatus(command: failing, status: 4, stderr: ""))
        let watch = Stopwatch()
        let outcome = try ChildProcess.run(quick, [], environment: [:], limits: ChildProcess.Limits(timeout: 50, stdoutBytes: 100))
        #expect(outcome.exitCode == 0)
        #expect(watch.elapsed < 20, "the exit, not the child's 60 s sleep or the 50 s timeout, ends a run")
        let children = pids(in: record)
        #expect(children.count == 3)
        for pid in children { #expect(!outlives(pid), "background child \(pid) outlived its command") }
    }

    @Test("a command killed by a signal reports 128 + the signal, as a shell does")
    func killedBySignal() async throws {
        let killed = try script("kill -9 $$")
        defer { try? FileManager.default.removeItem(atPath: killed) }
        let result = await load(CommandItemSource(executable: killed, timeout: 5, executor: workers))
        #expect(dataSourceError(result) == .exitStatus(command: killed, status: 128 + 9, stderr: ""), "\(result)")
    }

    @Test("no descriptor of the kiosk's but stdin, stdout and stderr reaches the program")
    func onlyStandardDescriptors() throws {
        // One of ours, deliberately not close-on-exec.
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/self/fd"], environment: [:],
                                           limits: ChildProcess.Limits(timeout: 10, stdoutBytes: 1000))
        // ls sees 0, 1, 2 and the descriptor of the folder it lists.
        let listed = String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(!listed.contains(leaky), "\(listed)")
        #expect(listed.count <= 4, "\(listed)")
    }

    @Test("the kiosk's ignored and blocked signals are not passed on: the command stops on SIGTERM")
    func signalsAreReset() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let old = signal(SIGTERM, SIG_IGN)
        defer {
            signal(SIGTERM, old)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$; sleep 5; echo survived"], environment: [:],
                                           limits: ChildProcess.Limits(timeout: 10, stdoutBytes: 100))
        #expect(outcome.signal == SIGTERM)
        #expect(outcome.stdout.isEmpty)
    }
}

@MainActor
@Suite("Files that never end")
struct EndlessFileTests {
    @Test("/dev/zero as the item file or the configuration is refused as a device; reads that accept streams stop at their limits; regular files too")
    func devZero() async throws {
        #expect(dataSourceError(await load(FileItemSource(path: "/dev/zero", executor: workers))) ==
                .unreachable(source: "/dev/zero", reason: "cannot read the file: it is a character device, not a regular file"))
        #expect(throws: ConfigurationError(file: "/dev/zero", line: 0, message: "cannot read the file: it is a character device, not a regular file")) {
            try KioskConfiguration.load(path: "/dev/zero")
        }
        #expect(throws: BoundedFile.Failure.tooLarge) { try BoundedFile.read("/dev/zero", limit: 1000, accepts: .streams) }
        #expect(throws: BoundedFile.Failure.unreadable(errno: ENOENT)) { try BoundedFile.read("/nonexistent", limit: 1000) }
        #expect(try BoundedFile.read("/dev/null", limit: 0, accepts: .streams) == [])
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: big) }
        try Data(count: 2000).write(to: URL(fileURLWithPath: big))
        #expect(throws: BoundedFile.Failure.tooLarge) { try BoundedFile.read(big, limit: 1000) }
        #expect(try BoundedFile.read(big, limit: 2000).count == 2000)
    }
}

/// A loopback HTTP server that hands each connection, with the request it read, to `respond`
/// on its own thread. It accepts at most `connections` and stops accepting after
/// `lifetime` seconds, so no test can leave it running.
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let lock = NSLock()
    private var sent = 0
    private var accepted = 0
    /// Bytes the handlers managed to send (a client that hangs up stops them).
    var bytesSent: Int { lock.withLock { sent } }
    var connectionsAccepted: Int { lock.withLock { accepted } }

    init(connections: Int = 1, lifetime: Double = 30, respond: @escaping @Sendable (LoopbackServer, Int32, String) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        var timeout = timeval(tv_sec: Int(lifetime), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Thread.detachNewThread { [self] in
            defer { close(fd) }
            for _ in 0..<connections {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                lock.withLock { accepted += 1 }
                Thread.detachNewThread { [self] in
                    defer { close(client) }
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let n = recv(client, &buffer, buffer.count, 0)
                    respond(self, client, String(decoding: buffer.prefix(max(0, n)), as: UTF8.self))
                }
            }
        }
    }

    /// Sends all of `bytes`; false once the client has gone.
    @discardableResult
    func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
            lock.withLock { sent += n }
        }
        return true
    }

    func send(_ client: Int32, _ text: String) -> Bool { send(client, Array(text.utf8)) }
}

@Suite("HTTP sources that misbehave")
struct HostileHTTPTests {
    @Test("a body of unknown length stops at the limit while it is received")
    func endlessBody() throws {
        let server = try LoopbackServer { server, client, _ in
            guard server.send(client, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[") else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 16)
            // Up to 256 MiB, far past the 4 MiB limit; it stops when the client hangs up.
            for _ in 0..<4096 where server.send(client, chunk) {}
        }
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(throws: DataSourceError.tooLarge(source: url, limit: ItemParser.maxBytes)) {
            try HTTPFetch.get(url, limits: HTTPLimits(timeout: 20))
        }
        // The client hung up at the limit: the server got only the socket buffers' worth more.
        #expect(server.bytesSent < ItemParser.maxBytes + 16 << 20)
    }

    @Test("a declared length over the limit is refused before the body")
    func declaredTooLarge() throws {
        let server = try LoopbackServer { server, client, _ in
            _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\nConnection: close\r\n\r\n[]")
        }
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(throws: DataSourceError.tooLarge(source: url, limit: ItemParser.maxBytes)) {
            try HTTPFetch.get(url, limits: HTTPLimits(timeout: 20))
        }
    }

    @Test("a server that trickles is abandoned as stalled")
    func trickle() throws {
        let server = try LoopbackServer { server, client, _ in
            guard server.send(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") else { return }
            for _ in 0..<100 {
                guard server.send(client, " ") else { return }
                usleep(100_000)
            }
        }
        let url = "http://127.0.0.1:\(server.port)/"
        var limits = HTTPLimits(timeout: 20)
        limits.stallSeconds = 1
        #expect(throws: DataSourceError.stalled(source: url, bytesPerSecond: 1024, seconds: 1)) {
            try HTTPFetch.get(url, limits: limits)
        }
    }

    @Test("a transfer fast enough not to stall still ends at the total timeout")
    func slowButSteady() throws {
        let server = try LoopbackServer { server, client, _ in
            guard server.send(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 4096)
            for _ in 0..<200 {
                guard server.send(client, chunk) else { return }
                usleep(50_000)
            }
        }
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(throws: DataSourceError.timeout(source: url, seconds: 1)) {
            try HTTPFetch.get(url, limits: HTTPLimits(timeout: 1))
        }
    }

    @Test("a redirect loop ends after the redirect limit")
    func redirectLoop() throws {
        let server = try LoopbackServer(connections: 20) { server, client, _ in
            _ = server.send(client, "HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(throws: DataSourceError.unreachable(source: url, reason: "more than 5 redirects")) {
            try HTTPFetch.get(url, limits: HTTPLimits(timeout: 10))
        }
        #expect(server.connectionsAccepted == 6)
    }

    @Test("a redirect to another scheme is refused; so is a URL of another scheme")
    func otherSchemes() throws {
        let server = try LoopbackServer { server, client, _ in
            _ = server.send(client, "HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let url = "http://127.0.0.1:\(server.port)/"
        do {
            _ = try HTTPFetch.get(url, limits: HTTPLimits(timeout: 10))
            Issue.record("a redirect to file:// was followed")
        } catch let DataSourceError.unreachable(source, reason) {
            #expect(source == url)
            #expect(reason.hasSuffix("(only http,https are allowed)"))
        }
        #expect(throws: DataSourceError.self) { try HTTPFetch.get("file:///etc/passwd", limits: HTTPLimits(timeout: 10)) }
    }
}
