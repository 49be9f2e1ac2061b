import Foundation
import Glibc
import PanelKiosk
import PanelTestSupport

/// Whether Debian's broker and its clients are installed (`mosquitto`, `mosquitto-clients`:
/// scripts/bootstrap installs them), and libmosquitto for the panel's side.
let haveMosquitto = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_passwd"]
    .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } && dlopen("libmosquitto.so.1", RTLD_LAZY) != nil

/// A Mosquitto broker of the test's own: a loopback port nothing else uses, a configuration
/// file in a scratch folder (no persistence, the test's users and ACL), stopped at the end.
final class TestBroker {
    /// The broker (nil until it started).
    private(set) var process: Child?
    let port: UInt16
    let folder: String

    /// Extra configuration lines (`allow_anonymous false`, `password_file F`, TLS); `FOLDER`
    /// in them is the broker's folder. `users`: name and password for its password file.
    init(_ extra: [String] = [], users: [(String, String)] = [], acl: String? = nil, port: UInt16? = nil) throws {
        folder = NSTemporaryDirectory() + "broker-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.port = try port ?? OneShotServer.unusedPort()
        // `user`: run as root, mosquitto would change to the mosquitto user and could not read the
        // test's key files; it stays who the test is.
        let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        var lines = ["listener \(self.port) 127.0.0.1", "persistence false", "user \(me)", "log_dest stderr", "log_type error", "log_type warning"]
        if users.isEmpty && !extra.contains(where: { $0.hasPrefix("allow_anonymous") }) { lines.append("allow_anonymous true") }
        if !users.isEmpty {
            lines += ["allow_anonymous false", "password_file \(folder)/passwords"]
            try "".write(toFile: folder + "/passwords", atomically: true, encoding: .utf8)
            for (user, password) in users {
                let (code, _, err) = try runProgram(["-b", folder + "/passwords", user, password], executable: "/usr/bin/mosquitto_passwd")
                guard code == 0 else { throw BrokerError("mosquitto_passwd: \(err)") }
            }
        }
        if let acl {
            try acl.write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
            lines.append("acl_file \(folder)/acl")
        }
        lines += extra.map { $0.replacing("FOLDER", with: folder) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    private func start() throws {
        let process = try Child("/usr/sbin/mosquitto", ["-c", folder + "/mosquitto.conf"], stderr: .pipe)
        self.process = process
        // Ended with the test process, even one killed (Lifeline).
        Lifeline.shared.bind(process.processIdentifier)
        // Listening once a TCP connection is accepted (5 s at most).
        let watch = Stopwatch()
        while watch.elapsed < 5 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        process.terminate(SIGKILL)
        let (_, errors) = process.readToEnd()
        throw BrokerError("mosquitto did not listen on \(port): \(String(decoding: errors, as: UTF8.self))")
    }

    /// Whether something accepts TCP connections on the loopback port.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Stops the broker at once (SIGKILL: the tests that stop it mean a broker gone, not one
    /// that says goodbye).
    func stop() {
        guard let process else { return }
        process.terminate(SIGKILL)
        process.exitCode()
        Lifeline.shared.release(process.processIdentifier)
    }

    /// Restarts the broker on its port as `systemctl restart mosquitto` does: SIGTERM, then a
    /// new process.
    func restart() throws {
        guard let process else { return }
        process.terminate(SIGTERM)
        process.exitCode()
        Lifeline.shared.release(process.processIdentifier)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Publishes with `mosquitto_pub` (QoS 1); `retain` keeps it for later subscribers.
    func publish(_ topic: String, _ payload: String, retain: Bool = false, user: (String, String)? = nil) throws {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-m", payload]
        if retain { arguments.append("-r") }
        if let user { arguments += ["-u", user.0, "-P", user.1] }
        let (code, _, err) = try runProgram(arguments, executable: "/usr/bin/mosquitto_pub")
        guard code == 0 else { throw BrokerError("mosquitto_pub: \(err)") }
    }

    /// Publishes a file's bytes (`mosquitto_pub -f`: a message larger than a command line).
    func publish(_ topic: String, file: String) throws {
        let (code, _, err) = try runProgram(["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-f", file], executable: "/usr/bin/mosquitto_pub")
        guard code == 0 else { throw BrokerError("mosquitto_pub: \(err)") }
    }

    /// The first message on `topic` (retained or not) as `mosquitto_sub` got it, or nil after
    /// `timeout` seconds (the subscriber is killed then: `messages`).
    func first(_ topic: String, timeout: Double, user: (String, String)? = nil) throws -> String? {
        try messages(topic, count: 1, timeout: timeout, user: user).first
    }

    /// The first `count` messages on `topic`, one per line as `mosquitto_sub` prints them (fewer
    /// when `timeout` seconds pass first); the subscriber is started before this returns
    /// control only through `started`, which runs once it is subscribed. `withTopics`: each line
    /// is the topic, a blank and the message (`mosquitto_sub -v`).
    func messages(_ topic: String, count: Int, timeout: Double, user: (String, String)? = nil, withTopics: Bool = false,
                  started: () throws -> Void = {}) throws -> [String] {
        let subscriber = try Child("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "\(count)"]
                                   + (withTopics ? ["-v"] : []) + (user.map { ["-u", $0.0, "-P", $0.1] } ?? []), stdout: .pipe)
        let fd = subscriber.output
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Subscribed once the broker has its SUBSCRIBE: a connection and a round trip on
        // loopback, well within this.
        usleep(300_000)
        try started()
        let watch = Stopwatch()
        func lines() -> [String] { String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        while watch.elapsed < timeout, lines().count < count {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        subscriber.terminate(SIGKILL)
        subscriber.exitCode()
        return lines()
    }
}

extension TestBroker {
    /// The first message on `topic` as bytes, whole (a PNG has newlines), or nil when none
    /// came within `timeout` s; `started` runs once the subscriber is subscribed.
    func rawMessage(_ topic: String, timeout: Double, started: () throws -> Void = {}) throws -> [UInt8]? {
        let subscriber = try Child("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "1", "-N"], stdout: .pipe)
        defer { subscriber.terminate(SIGKILL); subscriber.exitCode() }
        usleep(300_000)
        try started()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let watch = Stopwatch()
        while watch.elapsed < timeout {
            var entry = pollfd(fd: subscriber.output, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { if subscriber.reap() != nil, !bytes.isEmpty { break } else { continue } }
            let n = read(subscriber.output, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes.isEmpty ? nil : bytes
    }
}

/// A broker that could not be set up.
struct BrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `connection`'s loop as the real-time driver does (poll on its socket, maintain once
/// a second) until `done` holds of the events so far, or `timeout` seconds; the events.
func drive(_ connection: MQTTConnection, timeout: Double = 10, until done: ([MQTTConnection.Event]) -> Bool) -> [MQTTConnection.Event] {
    var events: [MQTTConnection.Event] = []
    let watch = Stopwatch()
    var lastMaintain = -1.0
    while watch.elapsed < timeout, !done(events) {
        if watch.elapsed - lastMaintain >= 1 {
            events += connection.maintain()
            lastMaintain = watch.elapsed
        }
        guard let fd = connection.descriptor else {
            var none = pollfd()
            _ = poll(&none, 0, 20)
            continue
        }
        var entry = pollfd(fd: fd, events: Int16(POLLIN) | (connection.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
        _ = poll(&entry, 1, 50)
        if entry.revents & Int16(POLLOUT) != 0 { events += connection.writable() }
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { events += connection.readable() }
    }
    return events
}
