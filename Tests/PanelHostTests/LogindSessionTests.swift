import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost

/// The stand-in logind (Python, dbus-python and GLib) beside this file.
private let fakeLogind = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Logind/fake-logind.py").path
/// Whether a private bus and the stand-in can run here (Debian's dbus-daemon, dbus-bin,
/// python3-dbus and python3-gi: scripts/bootstrap installs them).
private let haveBus: Bool = {
    guard ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/python3"].allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }),
          let check = try? shell("/usr/bin/python3", ["-c", "import dbus, dbus.mainloop.glib, gi.repository.GLib"]) else { return false }
    return check.status == 0
}()

/// A bus of its own (dbus-daemon with the session policy: any name may be owned) with the
/// stand-in logind on it.
private final class PrivateBus {
    let daemon: Child
    let logind: Child
    let address: String

    init() throws {
        daemon = try Child("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], stdout: .pipe)
        address = firstLine(of: daemon)
        logind = try Child("/usr/bin/python3", [fakeLogind, address], stdout: .pipe)
        guard firstLine(of: logind) == "ready" else { throw BusError("the stand-in logind did not start") }
    }

    /// Asks the stand-in to send logind's signal: "pause" (PauseDevice with that kind) or "resume".
    func emit(_ what: String, _ number: DeviceNumber) throws {
        let result = try shell("/usr/bin/dbus-send", ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.login1",
                                                      "/org/freedesktop/login1", "org.example.Fake.Emit",
                                                      "string:\(what)", "uint32:\(number.major)", "uint32:\(number.minor)"])
        guard result.status == 0 else { throw BusError("Emit: \(result.output)") }
    }

    /// The calls the stand-in has answered, in order.
    func calls() throws -> [String] {
        let result = try shell("/usr/bin/dbus-send", ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.login1",
                                                      "/org/freedesktop/login1", "org.example.Fake.Calls"])
        return result.output.split(separator: "\n").compactMap { line in
            guard let start = line.firstIndex(of: "\""), let end = line.lastIndex(of: "\""), start < end else { return nil }
            return String(line[line.index(after: start)..<end])
        }
    }

    func stop() {
        for process in [logind, daemon] {
            process.terminate(SIGKILL)
            process.exitCode()
        }
    }
}

private struct BusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `fd` is readable (5 s at most).
private func readable(_ fd: Int32) -> Bool {
    var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&waiter, 1, 5_000) > 0
}

@MainActor
@Suite("logind's session through sd-bus, against a stand-in logind on a private bus",
       .enabled(if: haveBus, "needs dbus-daemon, dbus-send, python3-dbus and python3-gi (scripts/bootstrap installs them)"),
       .serialized)
struct LogindSessionTests {
    @Test("the session is found and controlled, a device taken; PauseDevice and ResumeDevice arrive as events in order")
    func takeAndSignals() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let session = try #require(try LogindSession.current(sessionID: "1", busAddress: bus.address))
        #expect(session.path == "/org/freedesktop/login1/session/_31")
        let card = DeviceNumber(major: DeviceNumber.drmMajor, minor: 0)
        let taken = try session.takeDevice(card)
        #expect(taken.fd >= 0 && fcntl(taken.fd, F_GETFD) & FD_CLOEXEC != 0 && !taken.paused)
        close(taken.fd)
        #expect(try bus.calls() == ["GetSession 1", "TakeControl False", "TakeDevice 226:0"])

        try bus.emit("pause", card)
        try bus.emit("resume", card)
        #expect(readable(session.fileDescriptor))
        var events: [LogindSession.Event] = []
        for _ in 0..<10 where events.count < 2 {
            events += session.receive()
            if events.count < 2 { _ = readable(session.fileDescriptor) }
        }
        #expect(events.count == 2)
        #expect(events.first == .pause(card, kind: "pause"))
        guard case let .resume(number, fd) = events.last else {
            Issue.record("no resume: \(events)")
            return
        }
        #expect(number == card && fcntl(fd, F_GETFD) >= 0, "the resume's descriptor is the kiosk's to keep")
        close(fd)
    }

    @Test("a session id logind does not know is an error that names the call; no session at all is nil (the groups way)")
    func noSession() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        #expect(throws: SessionError.self) { try LogindSession.current(sessionID: "42", busAddress: bus.address) }
        do {
            _ = try LogindSession.current(sessionID: "42", busAddress: bus.address)
        } catch {
            #expect("\(error)".contains("GetSession") && "\(error)".contains("No session"), "\(error)")
        }
        // This test process is in no logind session (its cgroup is no session's scope).
        #expect(try LogindSession.current(sessionID: nil, busAddress: bus.address) == nil)
    }

    @Test("the host of an app's views: logind pausing the card stops drawing and is answered with PauseDeviceComplete; its resume draws again")
    func hostFollowsLogind() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let memory = MemoryDRM(width: 800, height: 480)
        let display = try DRMDisplay(drm: memory)
        let host = try KioskHost.virtual(display: display) { scene in
            let title = Label(frame: Rect(x: 16, y: 16, width: 400, height: 40))
            title.text = "Welcome"
            scene.screen.rootView.addSubview(title)
        }
        host.session = try LogindSession.current(sessionID: "1", busAddress: bus.address)
        let session = try #require(host.session)
        let time = VirtualTimeDriver(host)
        host.start(at: 0)
        time.settle()
        let modesets = memory.modesets
        let card = DeviceNumber(major: DeviceNumber.drmMajor, minor: 0)

        try bus.emit("pause", card)
        #expect(readable(session.fileDescriptor))
        for _ in 0..<10 where !host.isPaused {
            host.sessionEvents(at: host.now)
            if !host.isPaused { _ = readable(session.fileDescriptor) }
        }
        #expect(host.isPaused && display.isPaused && !memory.isMaster)
        #expect(try bus.calls().last == "PauseDeviceComplete 226:0")

        try bus.emit("resume", card)
        for _ in 0..<10 where host.isPaused {
            _ = readable(session.fileDescriptor)
            host.sessionEvents(at: host.now)
        }
        time.settle()
        #expect(!host.isPaused && memory.isMaster && memory.modesets == modesets + 1)
    }
}
