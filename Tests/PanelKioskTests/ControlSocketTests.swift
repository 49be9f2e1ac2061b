import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// `panel-refresh run` on the headless display with a control socket, a trace and a state
/// folder of its own: the run, its folder and the socket's path. `extra`: more configuration
/// (`DIR` in it is the folder); `size`: the headless display's; `prefix`: a command the program
/// runs under (``ProgramRun``'s).
func startControlledKiosk(_ extra: String = "", environment: [String: String] = [:], size: String = "320x240", state: String? = nil,
                          prefix: (_ dir: String) -> [String] = { _ in [] }) throws -> (ProgramRun, String, String) {
    let dir = try scratchDirectory("ctl-kiosk")
    let socket = dir + "/control"
    try """
    [display]
    backend = headless
    headless-size = \(size)
    [state]
    directory = \(state ?? dir)
    control-socket = \(socket)
    \(extra.replacing("DIR", with: dir))
    """.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
    return (try ProgramRun(["run", "--config", dir + "/config", "--trace", dir + "/trace"], environment: environment, prefix: prefix(dir)),
            dir, socket)
}

/// The program run with both its outputs read whole: its exit code, stdout and stderr.
/// `prefix`: a command it runs under (setpriv); `executable`: another program instead (a
/// checker, a compressor); `input`: its standard input, else none; `environment`: variables
/// added to the test's own.
func runProgram(_ arguments: [String], prefix: [String] = [], executable: String? = nil, input: [UInt8]? = nil,
                environment: [String: String] = [:]) throws -> (Int32, [UInt8], String) {
    let command = prefix + [executable ?? programPath ?? "/nonexistent"] + arguments
    let (code, stdout, stderr) = try Child.run(command[0], Array(command.dropFirst()), adding: environment, input: input)
    return (code ?? -1, stdout, String(decoding: stderr, as: UTF8.self))
}

/// A connection to a control socket, raw: what a hostile client does with it.
func connectRaw(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
    guard ok == 0 else { close(fd); throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return fd
}

/// Everything the peer sends until it closes, or `timeout` seconds.
func readAll(_ fd: Int32, timeout: Double) -> (bytes: [UInt8], closed: Bool) {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let watch = Stopwatch()
    while watch.elapsed < timeout {
        var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiter, 1, Int32((timeout - watch.elapsed) * 1000) + 1) > 0 else { continue }
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { return (bytes, true) }
        bytes += buffer[0..<n]
    }
    return (bytes, false)
}

@Suite("The control socket: panel-refresh ctl", .serialized, .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"))
struct ControlSocketTests {
    @Test("ctl status: the state, items, last success and its age, last error, display, touchscreens, version, uptime, frames, dropped frames")
    func status() throws {
        let (run, dir, socket) = try startControlledKiosk()
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        let (code, out, err) = try runProgram(["ctl", "status", "--socket", socket])
        #expect(code == 0, "\(err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        for key in ["state", "items", "lastSuccess", "lastSuccessAge", "lastError", "display", "touchscreens", "version", "uptime",
                    "frames", "droppedFrames", "touchToGlassMs", "sampleToGlassMs", "refreshes", "nextRefresh", "residentBytes"] {
            #expect(json.keys.contains(key), "no \(key) in \(json)")
        }
        #expect(json["state"] as? String == "showing" && json["items"] as? Int == 20)
        #expect(json["display"] as? String == "headless 320x240" && json["version"] as? String == ProgramVersion.current)
        #expect((json["frames"] as? Int ?? 0) > 0 && (json["uptime"] as? Double ?? 0) > 0)
        #expect((json["lastSuccessAge"] as? Double ?? -1) >= 0)
        #expect((json["residentBytes"] as? Int ?? 0) > 1_000_000)
        // No kiosk at a path: a clear error, exit 1.
        let (missing, _, why) = try runProgram(["ctl", "status", "--socket", dir + "/nobody"])
        #expect(missing == 1 && why.contains("no kiosk answers at \(dir)/nobody"), "\(why)")
    }

    @Test("ctl refresh starts a refresh, as a pull: a refresh line in the trace; metrics pass promtool", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "needs promtool (Debian's prometheus; scripts/bootstrap installs it)"))
    func refreshAndMetrics() throws {
        let (run, dir, socket) = try startControlledKiosk("metrics-file = DIR/kiosk.prom\nmetrics-seconds = 1")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        func refreshes() throws -> Int {
            try fileText(dir + "/trace").split(separator: "\n").filter { $0.contains("\"kind\":\"refresh\"") }.count
        }
        let before = try refreshes()
        let (code, out, _) = try runProgram(["ctl", "refresh", "--socket", socket])
        #expect(code == 0 && String(decoding: out, as: UTF8.self) == "refreshing\n")
        let watch = Stopwatch()
        while try refreshes() == before && watch.elapsed < 10 { usleep(50_000) }
        #expect(try refreshes() == before + 1)
        #expect(run.wait(for: "control: refresh asked"))
        // The metrics, as ctl gives them and as the file holds them, pass promtool.
        let (_, metrics, _) = try runProgram(["ctl", "metrics", "--socket", socket])
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(text.contains("panel_refresh_refreshes_total{result=\"ok\"}") && text.contains("panel_refresh_frames_total"))
        for input in [text, try fileText(dir + "/kiosk.prom")] {
            let (code, out, err) = try runProgram(["check", "metrics"], executable: "/usr/bin/promtool", input: Array(input.utf8))
            let said = String(decoding: out, as: UTF8.self) + err
            #expect(code == 0 && said.isEmpty, "promtool: \(said)")
        }
    }

    @Test("ctl metrics --openmetrics passes the OpenMetrics parser of prometheus_client", .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/prometheus_client"), "needs python3-prometheus-client (scripts/bootstrap installs it)"))
    func openMetrics() throws {
        let (run, dir, socket) = try startControlledKiosk()
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        let (_, metrics, _) = try runProgram(["ctl", "metrics", "--openmetrics", "--socket", socket])
        try Data(metrics).write(to: URL(fileURLWithPath: dir + "/open.txt"))
        let (code, out, err) = try runProgram(["-c", "from prometheus_client.openmetrics.parser import text_string_to_metric_families as p; print(len(list(p(open('\(dir)/open.txt').read()))))"],
                                              executable: "/usr/bin/python3")
        #expect(code == 0, "\(err)")
        #expect(Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 15)
    }

    @Test("refreshing by itself, the kiosk tells the journal each time its list changed, and only then")
    func listChangedLines() throws {
        let dir0 = try scratchDirectory("ctl-board")
        defer { try? FileManager.default.removeItem(atPath: dir0) }
        func board(_ count: Int) throws {
            let rows = (1...count).map { "{\"id\": \"t\($0)\", \"title\": \"Train \($0)\"}" }
            try ("[" + rows.joined(separator: ",") + "]").write(toFile: dir0 + "/board.json", atomically: true, encoding: .utf8)
        }
        try board(3)
        let (run, dir, _) = try startControlledKiosk("[data]\nsource = file\nfile = \(dir0)/board.json\n[refresh]\nevery = 1\njitter = 0\nquiet-after-touch = 0")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 3 items"), "\(run.log)")
        func refreshes() -> Int {
            ((try? fileText(dir + "/trace")) ?? "").split(separator: "\n").filter { $0.contains("\"kind\":\"refresh\"") }.count
        }
        // Two refreshes of the same file: unchanged, and nothing in the journal.
        let watch = Stopwatch()
        while refreshes() < 3 && watch.elapsed < 10 { usleep(50_000) }
        #expect(refreshes() >= 3)
        try board(5)
        #expect(run.wait(for: "refresh: the list changed: 5 items (3 before)", timeout: 10), "\(run.log)")
        try board(2)
        #expect(run.wait(for: "refresh: the list changed: 2 items (5 before)", timeout: 10), "\(run.log)")
        #expect(run.log.components(separatedBy: "the list changed").count == 3, "\(run.log)")
    }

    @Test("ctl screenshot equals expected-frame of the same state: 0 differing pixels")
    func screenshot() throws {
        let (run, dir, socket) = try startControlledKiosk()
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        // The header closes after the first load (0.4 s).
        usleep(1_000_000)
        let (code, _, err) = try runProgram(["ctl", "screenshot", dir + "/shot.ppm", "--socket", socket])
        #expect(code == 0, "\(err)")
        let (made, _, why) = try runProgram(["expected-frame", "--screen", "320x240", "--refreshes", "1", "--config", dir + "/config", dir + "/expected.ppm"])
        #expect(made == 0, "\(why)")
        let shot = try fileBytes(dir + "/shot.ppm")
        let expected = try fileBytes(dir + "/expected.ppm")
        #expect(shot.count == expected.count && shot.count == 15 + 320 * 240 * 3)
        let differing = stride(from: 15, to: min(shot.count, expected.count), by: 3).filter { shot[$0..<$0 + 3] != expected[$0..<$0 + 3] }.count
        #expect(differing == 0, "\(differing) pixels differ")
        // As PNG, to a file and to standard output.
        let (png, bytes, _) = try runProgram(["ctl", "screenshot", "-", "--socket", socket])
        #expect(png == 0 && Array(bytes.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        // Blank, the glass is dark: said, not shown lit; awake, shown again.
        #expect(try runProgram(["ctl", "blank", "--socket", socket]).0 == 0)
        let (dark, _, said) = try runProgram(["ctl", "screenshot", dir + "/dark.ppm", "--socket", socket])
        #expect(dark == 1 && said.contains("the panel is blank: the glass shows nothing"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/dark.ppm"))
        #expect(try runProgram(["ctl", "wake", "--socket", socket]).0 == 0)
        #expect(try runProgram(["ctl", "screenshot", dir + "/lit.ppm", "--socket", socket]).0 == 0)
    }

    @Test("16 screenshots at once at 1080p: one is taken at a time, the others are told busy; the peak stays low and the memory comes back",
          .disabled(if: Sanitizer.isActive, "memory figures under a sanitizer's shadow memory are not the program's"))
    func screenshotsAtOnce() throws {
        let (run, dir, socket) = try startControlledKiosk(size: "1920x1080")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        usleep(1_000_000)
        func memory(_ field: String) throws -> Int {
            let status = try fileText("/proc/\(run.process.processIdentifier)/status")
            return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }
        let before = try memory("VmRSS")
        let replies = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let reply: String
            switch try? ControlClient.request(.screenshot, path: socket, timeout: 30) {
            case .ok(let png)?: reply = png.starts(with: [0x89, 0x50, 0x4e, 0x47]) ? "png" : "not a png"
            case .error(let why)?: reply = why
            case nil: reply = "no answer"
            }
            replies.withLock { $0.append(reply) }
        }
        let got = replies.withLock { $0 }
        #expect(got.count == 16 && got.contains("png"), "\(got)")
        #expect(got.allSatisfy { $0 == "png" || $0.hasPrefix("busy: a screenshot is being taken") }, "\(got)")
        #expect(got.contains { $0.hasPrefix("busy") }, "16 at once: some were told busy: \(got)")
        // A 1080p copy is 8 MB: one at a time, and their pages given back.
        let peak = try memory("VmHWM"), after = try memory("VmRSS")
        #expect(peak - before < 60_000, "the peak rose \(peak - before) kB")
        #expect(after - before < 20_000, "\(after - before) kB stayed")
        // Once it is done, the next one is taken.
        if case .ok(let png)? = try? ControlClient.request(.screenshot, path: socket, timeout: 30) {
            #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        } else {
            Issue.record("no screenshot after the burst")
        }
    }

    @Test("hostile clients: 1 MB of request, a silent one, 200 at once: each an error or dropped within its bound, the watchdog keeps its pace, the kiosk answers after")
    func hostile() throws {
        let notify = try NotifyListener()
        var environment = notify.environment
        environment["WATCHDOG_USEC"] = "1000000"
        let (run, dir, socket) = try startControlledKiosk(environment: environment)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(notify.wait(for: "showing 20 items"), "\(notify.messages)")
        // 1 MB: refused as too long once a KiB has come, the rest never read.
        let big = try connectRaw(socket)
        defer { close(big) }
        let megabyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        _ = megabyte.withUnsafeBytes { send(big, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        let refusedBig = readAll(big, timeout: 5)
        #expect(String(decoding: refusedBig.bytes, as: UTF8.self).hasPrefix("error request too long") && refusedBig.closed)
        // Silent: dropped after 5 s, told why.
        let silent = try connectRaw(socket)
        defer { close(silent) }
        let watch = Stopwatch()
        let dropped = readAll(silent, timeout: 10)
        #expect(dropped.closed && watch.elapsed >= 4.5 && watch.elapsed < 8, "closed after \(watch.elapsed) s")
        #expect(String(decoding: dropped.bytes, as: UTF8.self).hasPrefix("error no request within 5 s"))
        // 200 at once, each asking for its status: 16 are served at a time, the rest told busy.
        let before = notify.messages.filter { $0 == "WATCHDOG=1" }.count
        var clients: [Int32] = []
        for _ in 0..<200 { if let fd = try? connectRaw(socket) { clients.append(fd) } }
        for fd in clients { _ = Array("status\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        var served = 0, busy = 0
        for fd in clients {
            let answer = String(decoding: readAll(fd, timeout: 10).bytes, as: UTF8.self)
            if answer.hasPrefix("ok ") { served += 1 } else if answer.hasPrefix("error busy") { busy += 1 }
            close(fd)
        }
        #expect(served + busy == 200 && served >= 16, "served \(served), busy \(busy)")
        notify.collect(for: 3)
        let pings = notify.messages.filter { $0 == "WATCHDOG=1" }.count - before
        #expect(pings >= 4, "\(pings) watchdog pings in the flood and the 3 s after it (every 0.5 s)")
        let (code, out, _) = try runProgram(["ctl", "status", "--socket", socket])
        #expect(code == 0 && String(decoding: out, as: UTF8.self).contains("\"state\":\"showing\""))
        // An unknown request: a clear error.
        let odd = try connectRaw(socket)
        defer { close(odd) }
        _ = Array("reboot\n".utf8).withUnsafeBytes { send(odd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(String(decoding: readAll(odd, timeout: 5).bytes, as: UTF8.self).hasPrefix("error unknown request \"reboot\""))
    }

    @Test("ctl finds the socket the configuration names (state.control-socket), with no --socket")
    func socketFromConfiguration() throws {
        let (run, dir, _) = try startControlledKiosk()
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        let (code, out, err) = try runProgram(["ctl", "status", "--config", dir + "/config"], environment: ["RUNTIME_DIRECTORY": "/nonexistent"])
        #expect(code == 0 && String(decoding: out, as: UTF8.self).contains(#""items":20"#), "\(err)")
    }

    @Test("another uid is refused: by the socket's 0600 (told to use sudo, not that no kiosk answers), and by SO_PEERCRED where the file would let it in",
          .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv (util-linux) to connect as nobody"))
    func otherUser() throws {
        let (run, dir, socket) = try startControlledKiosk()
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let nobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        let (denied, _, why) = try runProgram(["ctl", "status", "--socket", socket], prefix: nobody)
        #expect(denied == 1 && why.contains("this user may not talk to it") && why.contains("sudo") && !why.contains("no kiosk answers"), "\(why)")
        // Past the file's mode (a careless chmod), the kiosk itself refuses the peer.
        chmod(socket, 0o666)
        chmod(dir, 0o755)
        let (refused, out, said) = try runProgram(["ctl", "status", "--socket", socket], prefix: nobody)
        #expect(refused == 1 && out.isEmpty && said.contains("not allowed: uid 65534"), "\(said)")
        #expect(run.wait(for: "control: refused a connection from uid 65534"), "\(run.log)")
    }

    @Test("a 10 KB gzip of 10 MB, fetched by the kiosk, is refused at 4 MiB decoded, its memory bounded")
    func gzipBombMemory() throws {
        /// The peak resident memory of a kiosk whose list comes gzipped as `body` after it logged `marker`.
        func peak(_ body: [UInt8], marker: String) throws -> Int {
            let server = try CompressedAnswerTests.gzipServer(body, connections: 4)
            let (run, dir, _) = try startControlledKiosk("[data]\nsource = http\nurl = http://127.0.0.1:\(server.port)/items.json")
            defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
            #expect(run.wait(for: marker), "\(run.log)")
            let status = try fileText("/proc/\(run.process.processIdentifier)/status")
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        let small = try peak(Array(Data(base64Encoded: "H4sIAAAAAAACA4uuVirJLMlJVbJSKs5NzMlR0lHKTAFyDJVqYwEJO0UdHAAAAA==")!), marker: "showing 1 items")
        let bomb = try peak(try CompressedAnswerTests.bomb(), marker: "answer too large")
        #expect(bomb - small < 12 << 20, "peak \(bomb / 1024) kB against \(small / 1024) kB for a small list")
    }
}

@MainActor
@Suite("ctl and a kiosk that stops")
struct ControlStopTests {
    @Test("a kiosk that stops tells the connections it had not answered, and those still queued, that it is stopping")
    func stoppingServer() throws {
        let dir = try scratchDirectory("ctl-stop")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ControlServer(path: dir + "/control")
        // One accepted and waiting for its answer, one still in the listen queue.
        let accepted = try connectRaw(dir + "/control")
        defer { close(accepted) }
        _ = send(accepted, "status\n", 7, Int32(MSG_NOSIGNAL))
        server.acceptPending(now: 0)
        let queued = try connectRaw(dir + "/control")
        defer { close(queued) }
        server.close()
        for fd in [accepted, queued] {
            let answer = readAll(fd, timeout: 5)
            #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("error the kiosk is stopping"), "\(answer)")
        }
        for fd in server.retired { server.release(fd) }
    }

    @Test("a connection closed without a word is said as such, not as a malformed answer")
    func closedWithoutAnswer() throws {
        let dir = try scratchDirectory("ctl-closed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/control"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = ControlServer.address(path)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        listen(listener, 4)
        let closer = Thread { let fd = accept(listener, nil, nil); close(fd) }
        closer.start()
        #expect(throws: ControlClientError.closedWithoutAnswer(path: path)) { try ControlClient.request(.status, path: path, timeout: 5) }
    }
}
