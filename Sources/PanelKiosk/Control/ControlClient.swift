import Glibc
import PanelHost

/// Why `ctl` got no answer.
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing listens at the path (no kiosk, or another socket's path).
    case noKiosk(path: String, reason: String)
    /// The socket is there, but this user may not open it (it is 0600, the kiosk's user's).
    case notAllowed(path: String)
    /// The answer did not come (whole) within the time.
    case timedOut(path: String, seconds: Double)
    /// The kiosk closed the connection without a word: it stopped (or crashed) meanwhile.
    case closedWithoutAnswer(path: String)
    /// The answer is not what the kiosk sends.
    case malformed(String)

    /// What `ctl` prints.
    public var description: String {
        switch self {
        case let .noKiosk(path, reason): return "no kiosk answers at \(path): \(reason)"
        case .notAllowed(let path):
            return "a kiosk's socket is at \(path), but this user may not talk to it (only root and the kiosk's own user may): "
                + "run ctl with sudo, or as that user"
        case let .timedOut(path, seconds): return "the kiosk at \(path) gave no whole answer within \(TextFormat.number(seconds)) s"
        case .closedWithoutAnswer(let path):
            return "the kiosk at \(path) closed the connection without an answer: it stopped or restarted meanwhile (systemctl status panel-refresh)"
        case .malformed(let what): return "the answer is malformed: \(what)"
        }
    }
}

/// `panel-refresh ctl`: one request to a running kiosk's control socket (`ControlServer`).
public enum ControlClient {
    /// Where the socket is: `given` (`--socket`), else `$RUNTIME_DIRECTORY/control` (set inside
    /// the unit), else `/run/panel-refresh/control`.
    public static func socketPath(given: String?, runtimeDirectory: String?) -> String {
        if let given { return given }
        if let directory = runtimeDirectory?.split(separator: ":").first, directory.hasPrefix("/") { return directory + "/control" }
        return MachineEnvironment.defaultRuntimeDirectory + "/control"
    }

    /// The most an answer may hold: 256 MiB (a screenshot of an 8K panel is far less).
    public static let maxAnswerBytes = 256 << 20

    /// Sends `command` to the kiosk at `path` and reads its answer, within `timeout` seconds.
    public static func request(_ command: ControlCommand, path: String, timeout: Double = 20) throws(ControlClientError) -> ControlReply {
        guard path.utf8.count <= 107 else { throw .noKiosk(path: path, reason: "the path is longer than a socket's address can be") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .noKiosk(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = ControlServer.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            // EACCES: the socket exists and is the kiosk's (0600), not a missing kiosk.
            if error == EACCES || error == EPERM { throw .notAllowed(path: path) }
            throw .noKiosk(path: path, reason: String(cString: strerror(error)))
        }
        let started = Self.now()
        func left() -> Int32 { Int32(max(0, (timeout - (Self.now() - started)) * 1000)) }
        let request = Array((command.line + "\n").utf8)
        var sent = 0
        while sent < request.count {
            let n = SystemCall.uninterrupted { request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            // The kiosk may have answered and closed at once (a refusal): its answer is read below.
            guard n > 0 else { break }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = SystemCall.uninterrupted { poll(&waiter, 1, left()) }
            guard ready > 0 else { throw .timedOut(path: path, seconds: timeout) }
            let n = SystemCall.uninterrupted { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            if n <= 0 { break }
            answer += chunk[0..<n]
            guard answer.count <= maxAnswerBytes + 64 else { throw .malformed("larger than \(maxAnswerBytes) bytes") }
        }
        guard !answer.isEmpty else { throw .closedWithoutAnswer(path: path) }
        return try parse(answer)
    }

    /// An answer's bytes as a reply: `ok LENGTH\n` and exactly that many bytes, or `error MESSAGE\n`
    /// (the fuzzer's `control` target reads every answer the server gives with it).
    public static func parse(_ answer: [UInt8]) throws(ControlClientError) -> ControlReply {
        guard let end = answer.firstIndex(of: 0x0a) else { throw .malformed("no first line") }
        let head = String(decoding: answer[..<end], as: UTF8.self)
        if head.hasPrefix("error ") { return .error(String(head.dropFirst(6))) }
        guard head.hasPrefix("ok "), let length = Int(head.dropFirst(3)), length >= 0 else { throw .malformed("\"\(head.prefix(60))\"") }
        let payload = Array(answer[(end + 1)...])
        guard payload.count == length else { throw .malformed("\(payload.count) bytes where \(length) were announced") }
        return .ok(payload)
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
