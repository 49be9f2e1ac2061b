import CProcess
import Glibc
import PanelHost

/// What `panel-refresh ctl` asks the kiosk: one line, `COMMAND [ARGUMENT]`.
public enum ControlCommand: Sendable, Equatable {
    /// Where the kiosk stands, as JSON (`KioskStatus.json`).
    case status
    /// A refresh, as a pull starts one.
    case refresh
    /// What the glass shows, as a PNG.
    case screenshot
    /// The metrics, in the format named (`metrics`, or `metrics openmetrics`).
    case metrics(MetricsExposition)
    /// The panel off now.
    case blank
    /// The panel on now.
    case wake
    /// The lit level, percent of the maximum (1 to 100), until the night hours begin or end
    /// or a reload (`brightness 40`); nil: the configured level again (`brightness auto`).
    case brightness(Int?)
    /// The night and off hours followed (`schedule on`) or suspended (`schedule off`).
    case schedule(Bool)
    /// The panel's name, host, addresses and version over the list for `seconds` (1 to 600;
    /// `identify` alone: 30), so the person in front of it can tell which panel it is.
    case identify(seconds: Int)
    /// Seconds between the kiosk's own refreshes (`refresh.every`) until a reload, within
    /// `mqtt.interval-range` (`interval 300`); nil: the configured one again (`interval auto`).
    case interval(seconds: Int?)
    /// The list's colours (`appearance.theme`) until a reload (`theme dark`); nil: the
    /// configured ones again (`theme auto`).
    case theme(KioskConfiguration.Theme?)

    /// The commands, as `ctl` names them.
    public static let names = ["status", "refresh", "screenshot", "metrics", "blank", "wake", "brightness", "schedule", "identify",
                               "interval", "theme"]

    /// What the commands that take a value take, for their errors.
    public static let values = ["brightness": "a percent from 1 to 100, or auto", "schedule": "on or off",
                                "identify": "seconds from 1 to 600, or nothing (30)",
                                "interval": "seconds within mqtt.interval-range, or auto", "theme": "light, dark or auto"]

    /// Whether the broker's command topic may ask it (`mqtt.commands`): what changes the panel
    /// (refresh, blank, wake, brightness, schedule, identify, interval, theme); what reads it has
    /// no one to answer there (`screenshot` is published on a topic of its own, by FleetLink).
    public var actsFromBroker: Bool {
        switch self {
        case .refresh, .blank, .wake, .brightness, .schedule, .identify, .interval, .theme: return true
        case .status, .screenshot, .metrics: return false
        }
    }

    /// The command of a request line, nil when it names none.
    public init?(line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        switch (words.first, words.count) {
        case ("status"?, 1): self = .status
        case ("refresh"?, 1): self = .refresh
        case ("screenshot"?, 1): self = .screenshot
        case ("metrics"?, 1): self = .metrics(.prometheus)
        case ("metrics"?, 2) where words[1] == "openmetrics": self = .metrics(.openMetrics)
        case ("blank"?, 1): self = .blank
        case ("wake"?, 1): self = .wake
        case ("brightness"?, 2) where words[1] == "auto": self = .brightness(nil)
        case ("brightness"?, 2):
            guard let percent = Int(words[1]), (1...100).contains(percent) else { return nil }
            self = .brightness(percent)
        case ("schedule"?, 2) where words[1] == "on" || words[1] == "off": self = .schedule(words[1] == "on")
        case ("interval"?, 2) where words[1] == "auto": self = .interval(seconds: nil)
        case ("interval"?, 2):
            guard let seconds = Int(words[1]), (1...86_400).contains(seconds) else { return nil }
            self = .interval(seconds: seconds)
        case ("theme"?, 2) where words[1] == "auto": self = .theme(nil)
        case ("theme"?, 2):
            guard let theme = KioskConfiguration.Theme(rawValue: String(words[1])) else { return nil }
            self = .theme(theme)
        case ("identify"?, 1): self = .identify(seconds: 30)
        case ("identify"?, 2):
            guard let seconds = Int(words[1]), (1...600).contains(seconds) else { return nil }
            self = .identify(seconds: seconds)
        default: return nil
        }
    }

    /// The request line that asks it (without the line end).
    public var line: String {
        switch self {
        case .status: return "status"
        case .refresh: return "refresh"
        case .screenshot: return "screenshot"
        case .metrics(.prometheus): return "metrics"
        case .metrics(.openMetrics): return "metrics openmetrics"
        case .blank: return "blank"
        case .wake: return "wake"
        case .brightness(let percent): return "brightness " + (percent.map { "\($0)" } ?? "auto")
        case .schedule(let on): return "schedule " + (on ? "on" : "off")
        case .identify(let seconds): return "identify \(seconds)"
        case .interval(let seconds): return "interval " + (seconds.map { "\($0)" } ?? "auto")
        case .theme(let theme): return "theme " + (theme?.rawValue ?? "auto")
        }
    }
}

/// The kiosk's answer to one request.
public enum ControlReply: Sendable, Equatable {
    /// Done; the payload (JSON, metrics text, PNG bytes, a line of text).
    case ok([UInt8])
    /// Not done, and why.
    case error(String)

    /// On the wire: `ok LENGTH\n` and the payload, or `error MESSAGE\n` (the kiosk then closes).
    public var bytes: [UInt8] {
        switch self {
        case .ok(let payload): return Array("ok \(payload.count)\n".utf8) + payload
        case .error(let message): return Array("error \(message.filter { $0 != "\n" })\n".utf8)
        }
    }
}

/// Why there is no control socket.
public enum ControlSocketError: Error, Equatable, CustomStringConvertible {
    /// A path longer than a socket address holds (107 bytes).
    case pathTooLong(String)
    /// Something that is not a socket is at the path (never removed).
    case notASocket(String)
    /// Another process answers at the path (another kiosk).
    case inUse(String)
    /// A call failed.
    case call(path: String, SystemCallError)

    /// What the log says.
    public var description: String {
        switch self {
        case .pathTooLong(let path): return "\(path) is longer than a socket's address can be (107 bytes)"
        case .notASocket(let path): return "\(path) exists and is not a socket; it is left alone"
        case .inUse(let path): return "another process answers at \(path) (another kiosk?)"
        case let .call(path, error): return "\(path): \(error)"
        }
    }
}

/// The kiosk's control socket (`$RUNTIME_DIRECTORY/control`): a listening AF_UNIX stream
/// socket, made 0600, whose connections each send one request and get one answer
/// (`ControlCommand`, `ControlReply`). Everything is non-blocking and driven by the run loop's
/// read and write sources through `KioskHost`: nothing here waits, so a client cannot stall the
/// loop, and each is bounded:
/// - only root and the kiosk's own user are answered (`SO_PEERCRED`, which the kernel fills);
/// - at most `maxClients` connections at once; more are told "busy" and closed at once;
/// - a request longer than `maxRequestBytes`, or not complete within `requestSeconds`, ends its
///   connection (with an error, when it sent too much);
/// - an answer not taken within `answerSeconds` (a client that stops reading) is dropped.
///
/// Descriptors are closed only through `release(_:)`, once the loop's sources on them are
/// cancelled (`retired` lists those waiting), so a number is never reused under a live source.
@MainActor
public final class ControlServer: LoopSource {
    /// Where a connection stands.
    public enum Phase: Sendable, Equatable {
        /// Reading its request; what came so far.
        case reading([UInt8])
        /// The kiosk works on the answer (a screenshot being encoded).
        case answering
        /// Sending the answer: its bytes, and how many went.
        case writing([UInt8], sent: Int)
    }

    private struct Client {
        var phase: Phase
        var deadline: Double
    }

    /// The socket's path.
    public let path: String
    /// The listening descriptor (the loop reads it to accept).
    public let listenDescriptor: Int32
    private var identity: (device: UInt64, inode: UInt64)
    private var clients: [Int32: Client] = [:]
    /// Connections that ended, waiting for the loop to cancel its sources on them.
    public private(set) var retired: [Int32] = []
    /// Answers a request: `answer` is called once, now or later (on the main actor).
    public var onRequest: ((ControlCommand, _ answer: @escaping @MainActor (ControlReply) -> Void) -> Void)?
    /// Peers refused so far, by uid: each is logged once.
    private var refusedUIDs = Set<UInt32>()
    private var closed = false

    /// Connections served at once: 16 (an operator, a monitoring agent and their retries; a
    /// flood of more is told "busy").
    public static let maxClients = 16
    /// The longest request line, bytes: 1 KiB (the longest command is 19).
    public static let maxRequestBytes = 1024
    /// Seconds a connection has to send its request: 5.
    public static let requestSeconds = 5.0
    /// Seconds a connection has to take its answer: 30 (a screenshot of a large panel over a
    /// slow reader).
    public static let answerSeconds = 30.0
    /// Connections accepted per wake-up of the listener, at most: 64 (the loop runs between
    /// batches, so a connect flood cannot hold it).
    public static let acceptsPerWake = 64

    /// Listens at `path`: a stale socket left by a kiosk that died is replaced; one another
    /// process answers at, or anything that is not a socket, is left alone (an error).
    public init(path: String) throws(ControlSocketError) {
        self.path = path
        guard path.utf8.count <= 107 else { throw .pathTooLong(path) }
        // Outside a unit (run by hand) the folder may not be there: made as systemd makes a
        // RuntimeDirectory (0755).
        if let slash = path.lastIndex(of: "/"), slash > path.startIndex {
            let folder = String(path[..<slash])
            if access(folder, F_OK) != 0, mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw .call(path: path, SystemCallError(call: "mkdir \(folder)", errno: errno))
            }
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
            if Self.answers(path) { throw .inUse(path) }
            unlink(path)
        }
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.retrying("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        } catch { throw .call(path: path, error) }
        do throws(SystemCallError) {
            var address = Self.address(path)
            _ = try SystemCall.retrying("bind") {
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            }
            // 0600 before listen(): until then a connect is refused, so nobody gets in early.
            _ = try SystemCall.retrying("chmod") { chmod(path, 0o600) }
            _ = try SystemCall.retrying("listen") { listen(fd, 64) }
            _ = try SystemCall.retrying("stat") { lstat(path, &info) }
        } catch {
            Glibc.close(fd)
            unlink(path)
            throw .call(path: path, error)
        }
        listenDescriptor = fd
        identity = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// A socket address for `path` (which fits: checked by the caller).
    public nonisolated static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return address
    }

    /// Whether a process accepts connections at `path` now.
    nonisolated static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = address(path)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// The listener (while it listens) and the connections waiting to be read, for the loop's
    /// read watches.
    public var reading: [WatchedDescriptor] {
        (closed ? [] : [WatchedDescriptor(listenDescriptor)])
            + clients.compactMap { if case .reading = $0.value.phase { WatchedDescriptor($0.key) } else { nil } }
    }
    /// The connections with an answer to send, for the loop's write watches.
    public var writing: [WatchedDescriptor] {
        clients.compactMap { if case .writing = $0.value.phase { WatchedDescriptor($0.key) } else { nil } }
    }

    /// A watched descriptor is readable: the listener accepts, a connection reads its request.
    public func readable(_ descriptor: Int32, at now: Double) {
        if descriptor == listenDescriptor { acceptPending(now: now) } else { readable(descriptor, now: now) }
    }

    /// A connection is writable: more of its answer goes.
    public func writable(_ descriptor: Int32, at now: Double) { write(descriptor) }

    /// The timer: connections whose time is up end (``expire(now:)``).
    public func tick(at now: Double) { expire(now: now) }
    /// Connections open now.
    public var count: Int { clients.count }
    /// The earliest time a connection runs out of time.
    public var nextDeadline: Double? { clients.values.map(\.deadline).min() }

    /// The listener is readable: connections are accepted (at most `acceptsPerWake`), each
    /// checked for its peer and the number open.
    public func acceptPending(now: Double) {
        guard !closed else { return }
        for _ in 0..<Self.acceptsPerWake {
            let fd = SystemCall.uninterrupted { panel_accept_nonblocking(listenDescriptor) }
            guard fd >= 0 else {
                // EAGAIN: none left. ECONNABORTED and the like: that one is gone; go on.
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                if errno == ECONNABORTED { continue }
                Log.warning("control: accept: \(String(cString: strerror(errno)))")
                return
            }
            var uid: UInt32 = UInt32.max
            let own = getuid()
            if panel_socket_peer_uid(fd, &uid) != 0 || (uid != 0 && uid != own) {
                if refusedUIDs.count < 64, refusedUIDs.insert(uid).inserted {
                    Log.warning("control: refused a connection from uid \(uid) (only root and uid \(own) are answered)")
                }
                refuseAtOnce(fd, "not allowed: uid \(uid) is neither root nor the kiosk's user (uid \(own))")
                continue
            }
            guard clients.count < Self.maxClients else {
                refuseAtOnce(fd, "busy: \(Self.maxClients) connections are open; try again")
                continue
            }
            clients[fd] = Client(phase: .reading([]), deadline: now + Self.requestSeconds)
        }
    }

    /// Tells a connection no sources watch yet why it is closed, without waiting, and closes it.
    private func refuseAtOnce(_ fd: Int32, _ message: String) {
        refuseOnce(fd, message)
        Glibc.close(fd)
    }

    /// Sends `error MESSAGE` once, without waiting (a client that does not read loses it).
    private func refuseOnce(_ fd: Int32, _ message: String) {
        let bytes = ControlReply.error(message).bytes
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }

    /// What a request gets while the kiosk stops.
    static let stopping = "the kiosk is stopping; ask again once it runs (systemctl status panel-refresh)"

    /// A connection is readable: its request is read; a whole line is answered.
    public func readable(_ fd: Int32, now: Double) {
        guard case .reading(var buffer)? = clients[fd]?.phase else { return }
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let room = min(chunk.count, Self.maxRequestBytes + 1 - buffer.count)
            let n = SystemCall.uninterrupted { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, room, 0) } }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return retire(fd)
            }
            // The peer hung up before a whole line: nothing to answer.
            if n == 0 { return retire(fd) }
            buffer += chunk[0..<n]
            if let end = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<end].filter { $0 != 0x0d }, as: UTF8.self)
                return request(fd, line, now: now)
            }
            if buffer.count > Self.maxRequestBytes {
                return answer(fd, .error("request too long (more than \(Self.maxRequestBytes) bytes without a line end)"), now: now)
            }
        }
        clients[fd]?.phase = .reading(buffer)
    }

    private func request(_ fd: Int32, _ line: String, now: Double) {
        guard let command = ControlCommand(line: line) else {
            let shown = line.count > 40 ? String(line.prefix(40)) + "…" : line
            return answer(fd, .error("unknown request \"\(shown)\" (commands: \(ControlCommand.names.joined(separator: ", ")))"), now: now)
        }
        clients[fd]?.phase = .answering
        clients[fd]?.deadline = now + Self.answerSeconds
        guard let onRequest else { return answer(fd, .error("the kiosk is not answering requests"), now: now) }
        onRequest(command) { [weak self] reply in self?.answer(fd, reply, now: nil) }
    }

    /// Sends `reply` on `fd` (whose request it answers), as far as the socket takes it now.
    private func answer(_ fd: Int32, _ reply: ControlReply, now: Double?) {
        guard let client = clients[fd] else { return }
        switch client.phase {
        case .reading, .answering:
            clients[fd]?.phase = .writing(reply.bytes, sent: 0)
            write(fd)
        case .writing:
            // One answer per connection; a second is a bug of the caller's.
            assertionFailure("control: a second answer for one request")
        }
    }

    private func write(_ fd: Int32) {
        guard case .writing(let bytes, var sent)? = clients[fd]?.phase else { return }
        while sent < bytes.count {
            let n = SystemCall.uninterrupted { bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return retire(fd)
            }
            sent += n
        }
        if sent >= bytes.count { return retire(fd) }
        clients[fd]?.phase = .writing(bytes, sent: sent)
    }

    /// Ends the connections whose time is up (`requestSeconds` to ask, `answerSeconds` to take the answer).
    public func expire(now: Double) {
        for (fd, client) in clients where client.deadline <= now {
            if case .reading = client.phase {
                // It may still read a line: why it is closed (one try, never waiting).
                let bytes = ControlReply.error("no request within \(TextFormat.number(Self.requestSeconds)) s").bytes
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            }
            retire(fd)
        }
    }

    private func retire(_ fd: Int32) {
        guard clients.removeValue(forKey: fd) != nil else { return }
        retired.append(fd)
    }

    /// Closes a retired connection (the loop's sources on it are cancelled).
    public func release(_ fd: Int32) {
        guard let at = retired.firstIndex(of: fd) else { return }
        retired.remove(at: at)
        Glibc.close(fd)
    }

    /// Stops listening and ends every connection (they are retired: `release` closes them);
    /// the socket file is removed when it is still this server's. Safe twice.
    public func close() {
        guard !closed else { return }
        closed = true
        // Who asked and waits is told why no answer comes (one try each, never waiting): the
        // open connections not being answered, and those still in the listen queue. They read
        // nothing but a closed connection before ("the answer is malformed: no first line").
        for (fd, client) in clients {
            if case .writing = client.phase {} else { refuseOnce(fd, Self.stopping) }
            retire(fd)
        }
        for _ in 0..<Self.maxClients {
            let fd = SystemCall.uninterrupted { panel_accept_nonblocking(listenDescriptor) }
            guard fd >= 0 else { break }
            refuseAtOnce(fd, Self.stopping)
        }
        var info = stat()
        if lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode { unlink(path) }
        Glibc.close(listenDescriptor)
    }
}
