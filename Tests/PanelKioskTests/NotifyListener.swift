import Foundation
import Testing

/// A stand-in for systemd's notification socket: a datagram socket the program is pointed at
/// with NOTIFY_SOCKET, whose messages (READY=1, STATUS=..., WATCHDOG=1) the test reads.
final class NotifyListener {
    let path: String
    private let fd: Int32
    /// Every message so far, in order.
    private(set) var messages: [String] = []

    init() throws {
        path = "/tmp/pr-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The environment that points a program here.
    var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    /// Reads messages until one contains `text`; false after `timeout` seconds.
    func wait(for text: String, timeout: Double = 30) -> Bool {
        let watch = Stopwatch()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !messages.contains(where: { $0.contains(text) }) {
            let left = timeout - watch.elapsed
            guard left > 0 else { return false }
            var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiter, 1, Int32(left * 1000)) > 0 else { return false }
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { continue }
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return true
    }

    /// Reads every message that comes within `seconds`.
    func collect(for seconds: Double) {
        let watch = Stopwatch()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while watch.elapsed < seconds {
            var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiter, 1, Int32(max(1, (seconds - watch.elapsed) * 1000))) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
        }
    }
}
