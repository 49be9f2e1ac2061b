import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelInput
import PanelRefresh
import PanelRender

// The defects of an unattended kiosk (docs/reliability.md, "Unattended"): each test here
// failed, hung or crashed on the code before its fix.

/// CRC-32 (ISO 3309, the PNG chunk checksum), bit by bit: a test needs a few dozen bytes.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A PNG file that declares `width`x`height` RGBA pixels but holds only an empty IDAT: the
/// 74-byte kind that claims 40 GB.
func declaredPNG(width: UInt32, height: UInt32) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be(UInt32(data.count)) + body + be(crc32(body))
    }
    let ihdr = be(width) + be(height) + [8, 6, 0, 0, 0]
    // zlib of nothing: header, an empty final stored block, Adler-32 of nothing.
    let idat: [UInt8] = [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
    return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// A FIFO at `path`. A test that would block on it on the old code opens its other end after
/// a while (non-blocking, so nothing waits when the new code never opened it), so such a test
/// fails instead of hanging.
func makeFIFO(_ path: String) throws {
    guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    Thread.detachNewThread {
        usleep(3_000_000)
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }
}

@MainActor
@Suite("Images are checked before they are allocated")
struct ImageBudgetTests {
    @Test("a 74-byte PNG that declares 100000x100000 is refused from its header, not allocated (it aborted the kiosk)")
    func declaredSize() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bomb.png"
        let bytes = declaredPNG(width: 100_000, height: 100_000)
        #expect(bytes.count < 100)
        try writeBytes(bytes, to: path)
        #expect(try PNG.size(path: path) == (100_000, 100_000))
        #expect(throws: RenderError.imageTooLarge(path: path, width: 100_000, height: 100_000, maxPixels: PNG.defaultMaxPixels)) {
            try PNG.read(path: path)
        }
        var c = KioskConfiguration()
        c.twoLevelImage = path
        #expect {
            try Appearance.header(c, localizer: RefreshLocalizer(), screen: (800, 480))
        } throws: { error in
            "\(error)".contains("appearance.two-level") && "\(error)".contains("100000x100000 is more than 1536000 pixels")
        }
    }

    @Test("the second floor may have four times the screen's pixels; limits.image-pixels lowers every budget")
    func budgets() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/floor.png"
        try writeBytes(declaredPNG(width: 2000, height: 2000), to: path)
        var c = KioskConfiguration()
        c.twoLevelImage = path
        #expect(Appearance.twoLevelPixelBudget(c, screen: (800, 480)) == 800 * 480 * 4)
        #expect(throws: ConfigurationError.self) { try Appearance.header(c, localizer: RefreshLocalizer(), screen: (800, 480)) }
        #expect(try Appearance.header(c, localizer: RefreshLocalizer(), screen: (1920, 1080)).twoLevelView != nil)
        try c.set("limits.image-pixels", "65536")
        #expect(throws: ConfigurationError.self) { try Appearance.header(c, localizer: RefreshLocalizer(), screen: (1920, 1080)) }
        #expect(throws: ConfigurationError.self) { try c.set("limits.image-pixels", "1000") }
    }

    @Test("gif frames: more than limits.gif-frames, or more than limits.gif-mb decoded, is a configuration error read from the headers")
    func gifBudgets() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 300 frames of 800x400 (405 MB resident before): only headers, so the test is small.
        let frame = declaredPNG(width: 800, height: 400)
        for i in 0..<300 { try writeBytes(frame, to: dir + "/refreshing-\(1000 + i).png") }
        var c = KioskConfiguration()
        c.header = .gif
        c.gifFrames = dir
        #expect { try Appearance.frames(c) } throws: { "\($0)".contains("more than 64 MiB decoded (limits.gif-mb)") }
        try c.set("limits.gif-mb", "1024")
        #expect { try Appearance.frames(c) } throws: { "\($0)".contains("more than 240 frames (limits.gif-frames)") }
        try c.set("limits.gif-frames", "1000")
        #expect(try Appearance.frames(c)[.refreshing]?.count == 300)
    }
}

@MainActor
@Suite("Special files are refused, not waited on")
struct SpecialFileTests {
    @Test("a FIFO as the item file fails at once with a clear error (it never failed, and kept a thread per reload)")
    func itemFile() async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/items.json"
        try makeFIFO(fifo)
        // (The old code read it until the writer makeFIFO opens after 3 s came and went: an
        // empty answer. The time is not checked here: the data queue is shared with other
        // suites' slow commands.)
        let error = dataSourceError(await load(FileItemSource(path: fifo, executor: workers)))
        #expect(error == .unreachable(source: fifo, reason: "cannot read the file: it is a FIFO, not a regular file"))
    }

    @Test("a FIFO as the configuration, a PNG, a gif frame or the last-updated file is refused at once")
    func others() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watch = Stopwatch()
        let config = dir + "/config"
        try makeFIFO(config)
        #expect(throws: ConfigurationError(file: config, line: 0, message: "cannot read the file: it is a FIFO, not a regular file")) {
            try KioskConfiguration.load(path: config)
        }
        let png = dir + "/floor.png"
        try makeFIFO(png)
        #expect(throws: RenderError.png(path: png, message: "cannot read: a FIFO, not a regular file")) { try PNG.size(path: png) }
        let frames = dir + "/frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        try makeFIFO(frames + "/idle-1.png")
        var c = KioskConfiguration()
        c.header = .gif
        c.gifFrames = frames
        #expect { try Appearance.frames(c) } throws: { "\($0)".contains("a FIFO, not a regular file") }
        let state = dir + "/last-updated.json"
        try makeFIFO(state)
        let store = FileLastUpdatedStore(path: state)
        #expect(store.date(forKey: "k") == nil)
        // Saving replaces the FIFO's name with a file.
        try store.setDate(Date(timeIntervalSince1970: 5), forKey: "k")
        #expect(FileLastUpdatedStore(path: state).date(forKey: "k") == Date(timeIntervalSince1970: 5))
        #expect(watch.elapsed < 2.5, "nothing waited for a writer")
        // A recording may still come from a pipe or a device, bounded in size.
        #expect(throws: BoundedFile.Failure.tooLarge) { try BoundedFile.read("/dev/zero", limit: 1000, accepts: .streams) }
    }
}

@MainActor
@Suite("The state file is never written through a link")
struct StateFileLinkTests {
    @Test("a symlink planted at last-updated.json.new is replaced, its target left alone")
    func plantedLink() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outside = dir + "/outside.txt"
        try "precious".write(toFile: outside, atomically: false, encoding: .utf8)
        let state = dir + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(symlink(outside, state + "/last-updated.json.new") == 0)
        let store = FileLastUpdatedStore(path: state + "/last-updated.json")
        try store.setDate(Date(timeIntervalSince1970: 9), forKey: "k")
        #expect(try fileText(outside) == "precious")
        #expect(FileLastUpdatedStore(path: state + "/last-updated.json").date(forKey: "k") == Date(timeIntervalSince1970: 9))
        #expect(!FileManager.default.fileExists(atPath: state + "/last-updated.json.new"))
    }
}

@MainActor
@Suite("An empty answer is not an empty list")
struct EmptyAnswerTests {
    @Test("no bytes or only white space is malformed; [] is a real empty list")
    func parse() throws {
        for body in ["", " ", "\n\n", " \t\r\n"] {
            #expect(throws: DataSourceError.malformed(source: "s", reason: "the answer is empty (an empty list is [])")) {
                try ItemParser.parse(Data(body.utf8), source: "s")
            }
        }
        #expect(try ItemParser.parse(Data("[]".utf8), source: "s").isEmpty)
    }

    @Test("a command that prints nothing and exits 0, and an HTTP 204 or empty 200, fail the load")
    func sources() async throws {
        let silent = try script("exit 0")
        defer { try? FileManager.default.removeItem(atPath: silent) }
        #expect(dataSourceError(await load(CommandItemSource(executable: silent, executor: workers))) ==
                .malformed(source: silent, reason: "the answer is empty (an empty list is [])"))
        for response in ["HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\n \n "] {
            let server = try LoopbackServer { _, fd, _ in
                let bytes = Array(response.utf8)
                _ = write(fd, bytes, bytes.count)
            }
            let url = "http://127.0.0.1:\(server.port)/items"
            #expect(dataSourceError(await load(HTTPItemSource(url: url, timeout: 5, executor: workers))) ==
                    .malformed(source: url, reason: "the answer is empty (an empty list is [])"))
        }
    }
}

@MainActor
@Suite("Secrets stay out of the journal and STATUS")
struct RedactionTests {
    @Test("a URL's password and secret-looking query values are masked in every message")
    func redact() {
        #expect(Redaction.redact("https://kiosk:hunter2@feed.example/items?page=1&token=abc&api_key=k#x")
                == "https://kiosk:***@feed.example/items?page=1&token=***&api_key=***#x")
        #expect(Redaction.redact("http://feed/items is unreachable") == "http://feed/items is unreachable")
        #expect(Redaction.redact("a=b c") == "a=b c")
        let error = DataSourceError.unreachable(source: "https://u:p4ss@host/x?secret=s", reason: "HTTP status 500")
        #expect("\(error)" == "https://u:***@host/x?secret=*** is unreachable: HTTP status 500")
        #expect(!"\(error)".contains("p4ss"))
    }

    @Test("the URL's user and the password file reach the server as Basic credentials; the URL in errors has none")
    func credentials() async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "s3cret\n".write(toFile: dir + "/password", atomically: false, encoding: .utf8)
        let seen = RequestBox()
        let server = try LoopbackServer { _, fd, request in
            seen.set(request)
            let body = #"[{"title": "a"}]"#
            let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
            _ = write(fd, bytes, bytes.count)
        }
        let source = HTTPItemSource(url: "http://kiosk@127.0.0.1:\(server.port)/items", timeout: 5, passwordFile: dir + "/password", executor: workers)
        let items = try await load(source).get()
        #expect(items.map(\.title) == ["a"])
        // base64("kiosk:s3cret")
        #expect(seen.value.contains("Authorization: Basic a2lvc2s6czNjcmV0"), "\(seen.value)")
        #expect(HTTPItemSource.splitUserinfo("https://a%40b:p%3Aw@h/x").url == "https://h/x")
        #expect(HTTPItemSource.splitUserinfo("https://a%40b:p%3Aw@h/x").credentials == HTTPCredentials(user: "a@b", password: "p:w"))
        // A credential's name needs systemd's folder.
        unsetenv("CREDENTIALS_DIRECTORY")
        #expect(throws: DataSourceError.self) { try HTTPItemSource.readPassword("feed-password") }
    }
}

/// The request a loopback handler saw, across threads.
final class RequestBox: @unchecked Sendable {
    private let lock = NSLock()
    private var request = ""
    func set(_ text: String) { lock.withLock { request = text } }
    var value: String { lock.withLock { request } }
}

@Suite("Numbers are decimal and inside their documented ranges")
struct DecimalNumberTests {
    @Test("hex, nan, infinities and subnormals are refused; decimals with exponents are read")
    func decimal() {
        for bad in ["0x10", "0X1p3", "nan", "inf", "-infinity", "1e-320", "4.9e-324", "", "+", ".", "1e", "1.2.3", " 5", "5 ", "1_000"] {
            #expect(NumericOption.decimal(bad) == nil, "\(bad)")
        }
        for (text, value) in [("16", 16.0), ("-1.5", -1.5), (".5", 0.5), ("5.", 5), ("2e3", 2000), ("1E-3", 0.001), ("+0", 0), ("-0", 0)] {
            #expect(NumericOption.decimal(text) == value, "\(text)")
        }
    }

    @Test("--set refresh.trigger-distance=1e-320 and data.timeout=0x10 are refused; ranges read \"1 to 1000\"")
    func configuration() throws {
        var c = KioskConfiguration()
        #expect(throws: ConfigurationError(file: "", line: 0, message: "refresh.trigger-distance: \"1e-320\" is not 0 or a number from 1 to 1000")) {
            try c.set("refresh.trigger-distance", "1e-320")
        }
        #expect(throws: ConfigurationError.self) { try c.set("refresh.trigger-distance", "0.5") }
        #expect(throws: ConfigurationError(file: "", line: 0, message: "data.timeout: \"0x10\" is not a number from 0.1 to 600")) {
            try c.set("data.timeout", "0x10")
        }
        try c.set("refresh.trigger-distance", "0")
        #expect(c.triggerDistance == nil)
        try c.set("refresh.trigger-distance", "80")
        #expect(c.triggerDistance == 80)
        #expect(throws: UsageError.self) { try NumericOption.double("--refresh-seconds", "0x10", in: 0...60) }
    }
}

@MainActor
@Suite("Titles of any length cost what shows")
struct LongTitleTests {
    @Test("a title or subtitle is kept to 1,000 characters when it is parsed, off the run loop")
    func bounded() throws {
        let long = String(repeating: "x", count: 1_000_000)
        let json = #"[{"title": "\#(long)", "subtitle": "\#(long)"}]"#
        let item = try #require(try ItemParser.parse(Data(json.utf8), source: "s").first)
        #expect(item.title.unicodeScalars.count == ItemParser.maxTextScalars)
        #expect(item.subtitle.unicodeScalars.count == ItemParser.maxTextScalars)
        #expect(ItemParser.bounded("short") == "short")
    }
}

@Suite("The kiosk on its own", .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"))
struct UnattendedProgramTests {
    /// A headless kiosk configuration in a folder of its own, with `extra` lines appended.
    func kiosk(_ extra: String = "") throws -> (dir: String, config: String) {
        let dir = try scratchDirectory("kiosk")
        let config = dir + "/config"
        try "[display]\nbackend = headless\n[state]\ndirectory = \(dir)\n\(extra)".write(toFile: config, atomically: true, encoding: .utf8)
        return (dir, config)
    }

    /// `run --config config` with a notification socket, once it said READY=1.
    func readyKiosk(_ config: String) throws -> (ProgramRun, NotifyListener) {
        let notify = try NotifyListener()
        let run = try ProgramRun(["run", "--config", config], environment: notify.environment)
        #expect(notify.wait(for: "READY=1"), "\(notify.messages)")
        return (run, notify)
    }

    /// A SIGHUP must come back as RELOADING=1 (the loop is alive and takes signals), then
    /// SIGTERM ends the run with exit 0.
    func reloadsAndStops(_ run: ProgramRun, _ notify: NotifyListener) {
        kill(run.process.processIdentifier, SIGHUP)
        #expect(notify.wait(for: "RELOADING=1"), "\(notify.messages)")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
    }

    @Test("a 74-byte PNG bomb as the second floor: a configuration error at start (exit 1), and on reload the running kiosk keeps its configuration and says why")
    func bombAtStartAndReload() throws {
        let (dir, config) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeBytes(declaredPNG(width: 100_000, height: 100_000), to: dir + "/bomb.png")
        let bad = dir + "/bad.conf"
        try "[display]\nbackend = headless\n[appearance]\ntwo-level = \(dir)/bomb.png\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try ProgramRun(["run", "--config", bad])
        #expect(refused.finish() == 1)
        #expect(refused.wait(for: "100000x100000 is more than") || refused.log.contains("100000x100000 is more than"), "\(refused.log)")

        let (run, notify) = try readyKiosk(config)
        try "[display]\nbackend = headless\n[state]\ndirectory = \(dir)\n[appearance]\ntwo-level = \(dir)/bomb.png\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        kill(run.process.processIdentifier, SIGHUP)
        #expect(notify.wait(for: "STATUS=reload refused"), "\(notify.messages)")
        #expect(run.wait(for: "keeping the configuration in use"), "\(run.log)")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
    }

    @Test("started with stdout and stderr closed, the kiosk runs and takes signals (it read its own log lines as signals and stopped)")
    func closedStreams() throws {
        let (dir, config) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notify = try NotifyListener()
        let process = try Child("/bin/sh", ["-c", "exec \"$0\" run --config \"$1\" >&- 2>&-", programPath ?? "/nonexistent", config],
                                adding: notify.environment)
        defer { process.terminate(SIGKILL) }
        #expect(notify.wait(for: "READY=1"), "\(notify.messages)")
        kill(process.processIdentifier, SIGHUP)
        #expect(notify.wait(for: "RELOADING=1"), "\(notify.messages)")
        kill(process.processIdentifier, SIGTERM)
        #expect(process.exitCode() == 0)
    }

    @Test("with stderr's reader gone, the next log line does not kill the kiosk (SIGPIPE)")
    func brokenStderr() throws {
        let (dir, config) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (run, notify) = try readyKiosk(config)
        run.closeStderr()
        // A reload logs "reloaded ..." into the broken pipe, then says so in STATUS.
        reloadsAndStops(run, notify)
    }

    @Test("a stray SIGUSR2 (no VT, no switch pending) and SIGALRM change nothing, and are not fatal")
    func straySignals() throws {
        let (dir, config) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (run, notify) = try readyKiosk(config)
        kill(run.process.processIdentifier, SIGUSR2)
        kill(run.process.processIdentifier, SIGALRM)
        reloadsAndStops(run, notify)
    }

    @Test("SIGTERM while a data-source command runs ends the command's group before the kiosk exits")
    func commandEndsWithKiosk() throws {
        let (dir, _) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let command = try script("echo $$ >> \(dir)/pids; sleep 30 & echo $! >> \(dir)/pids; wait")
        defer { try? FileManager.default.removeItem(atPath: command) }
        let config = dir + "/command.conf"
        try "[display]\nbackend = headless\n[data]\nsource = command\ncommand = \(command)\ntimeout = 60\n[state]\ndirectory = \(dir)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ProgramRun(["run", "--config", config])
        let watch = Stopwatch()
        while pids(in: dir + "/pids").count < 2 && watch.elapsed < 20 { usleep(20_000) }
        let started = pids(in: dir + "/pids")
        #expect(started.count == 2, "\(run.log)")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        for pid in started { #expect(!outlives(pid), "process \(pid) of the command outlived the kiosk") }
    }

    @Test("a virtual kiosk's stop leaves a command another part of the process runs: only the process's own kiosk ends every run")
    @MainActor
    func virtualStopLeavesOtherRuns() throws {
        let dir = try scratchDirectory("runs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/started", 0o600) == 0 && mkfifo(dir + "/go", 0o600) == 0)
        // The command holds "go" open before it says it started, so the test's write end can
        // be opened without blocking, and fails (ENXIO) if the command was ended.
        let command = try script("exec 3<>\(dir)/go\nprintf x > \(dir)/started\nread line <&3\necho done")
        defer { try? FileManager.default.removeItem(atPath: command) }
        let outcome = Locked<Result<ChildProcess.Outcome, ChildProcess.Failure>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = Result { () throws(ChildProcess.Failure) in
                try ChildProcess.run(command, [], environment: [:], limits: ChildProcess.Limits(timeout: 30, stdoutBytes: 100))
            }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        let started = open(dir + "/started", O_RDONLY)
        var byte: UInt8 = 0
        #expect(read(started, &byte, 1) == 1)
        close(started)
        // The command runs; a virtual kiosk of the same process starts and stops.
        let kiosk = try Kiosk.virtual()
        kiosk.start(at: 0)
        kiosk.host.stop()
        let go = open(dir + "/go", O_WRONLY | O_NONBLOCK)
        #expect(go >= 0, "the command was ended by another kiosk's stop (errno \(errno))")
        if go >= 0 {
            _ = write(go, "go\n", 3)
            close(go)
        }
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let result = outcome.withLock { $0 }
        #expect(try result?.get().exitCode == 0)
        #expect(try result?.get().stdout == Array("done\n".utf8))
    }

    @Test("a daemon a command starts with setsid is ended with its refresh, not left one per refresh",
          .enabled(if: ChildSupervisor.isSubreaperSupported, "needs PR_SET_CHILD_SUBREAPER, which qemu-user does not emulate"))
    func escapedDaemon() throws {
        let (dir, _) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let command = try script("setsid sh -c 'echo $$ >> \(dir)/daemons; exec sleep 300' </dev/null >/dev/null 2>&1 &\n"
            + "while [ ! -s \(dir)/daemons ]; do sleep 0.05; done\necho '[{\"title\": \"one\"}]'")
        defer { try? FileManager.default.removeItem(atPath: command) }
        let config = dir + "/command.conf"
        try "[display]\nbackend = headless\n[data]\nsource = command\ncommand = \(command)\n[state]\ndirectory = \(dir)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ProgramRun(["run", "--config", config])
        #expect(run.wait(for: "showing"), "\(run.log)")
        let daemons = pids(in: dir + "/daemons")
        #expect(!daemons.isEmpty)
        for pid in daemons { #expect(!outlives(pid), "the command's daemon \(pid) outlived its refresh") }
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        for pid in pids(in: dir + "/daemons") { #expect(!outlives(pid)) }
    }

    @Test("a daemon that clears its environment (env -i setsid) is still ended with its refresh: orphans are told by their start",
          .enabled(if: ChildSupervisor.isSubreaperSupported, "needs PR_SET_CHILD_SUBREAPER, which qemu-user does not emulate"))
    func unmarkedDaemon() throws {
        let (dir, _) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The daemon has no PANEL_REFRESH_RUN (nor anything else) in its environment.
        let command = try script(Self.envlessDaemonLines(in: dir) + "echo '[{\"title\": \"one\"}]'")
        defer { try? FileManager.default.removeItem(atPath: command) }
        let config = dir + "/command.conf"
        try "[display]\nbackend = headless\n[data]\nsource = command\ncommand = \(command)\nrefresh-seconds = 0.5\n[refresh]\nevery = 1\n[state]\ndirectory = \(dir)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ProgramRun(["run", "--config", config])
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5) }
        #expect(run.wait(for: "showing"), "\(run.log)")
        // A few timed refreshes: each one's daemon goes with it, none piles up.
        let watch = Stopwatch()
        while pids(in: dir + "/daemons").count < 3 && watch.elapsed < 20 { usleep(50_000) }
        let daemons = pids(in: dir + "/daemons")
        #expect(daemons.count >= 3, "\(run.log)")
        usleep(300_000)
        let alive = daemons.filter(outlives)
        #expect(alive.count <= 1, "daemons \(alive) of finished refreshes still run")
        for pid in daemons.dropLast() { #expect(!outlives(pid), "the daemon \(pid) of an earlier refresh outlived it") }
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        for pid in pids(in: dir + "/daemons") { #expect(!outlives(pid), "the daemon \(pid) outlived the kiosk") }
    }

    /// Shell lines that start a daemon with an empty environment in a session of its own
    /// (`env -i setsid`), which appends its pid to `dir`/daemons; each run waits for its own
    /// daemon's line (one more than it found) before it goes on.
    static func envlessDaemonLines(in dir: String) -> String {
        "n=$(cat \(dir)/daemons 2>/dev/null | wc -l)\n"
            + "env -i /usr/bin/setsid /bin/sh -c 'echo $$ >> \(dir)/daemons; exec /bin/sleep 300' </dev/null >/dev/null 2>&1 &\n"
            + "while [ \"$(cat \(dir)/daemons 2>/dev/null | wc -l)\" -le \"$n\" ]; do sleep 0.05; done\n"
    }

    /// A headless kiosk in `dir` over 20 rows whose taps run `command`, the fast-taps
    /// recording played on it, with its trace in `dir`/trace.
    func tappingKiosk(_ dir: String, command: String) throws -> ProgramRun {
        let items = (1...20).map { #"{"id": "\#($0)", "title": "row \#($0)"}"# }.joined(separator: ",")
        try "[\(items)]".write(toFile: dir + "/items.json", atomically: true, encoding: .utf8)
        try """
            [display]
            backend = headless
            headless-size = 480x800
            [state]
            directory = \(dir)
            [data]
            source = file
            file = \(dir)/items.json
            [rows]
            tap = command
            tap-command = \(command)
            """.write(toFile: dir + "/tap.conf", atomically: true, encoding: .utf8)
        return try ProgramRun(["run", "--config", dir + "/tap.conf", "--trace", dir + "/trace",
                               "--play", fixtures + "/03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu"])
    }

    @Test("a tap command's daemon that clears its environment is ended with the tap's run",
          .enabled(if: ChildSupervisor.isSubreaperSupported, "needs PR_SET_CHILD_SUBREAPER, which qemu-user does not emulate"))
    func unmarkedTapDaemon() throws {
        let (dir, _) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let command = try script(Self.envlessDaemonLines(in: dir))
        defer { try? FileManager.default.removeItem(atPath: command) }
        let run = try tappingKiosk(dir, command: command)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5) }
        let watch = Stopwatch()
        func commandLines() -> Int {
            ((try? fileText(dir + "/trace")) ?? "").split(separator: "\n").filter { $0.contains("\"kind\":\"command\"") }.count
        }
        while commandLines() < 3 && watch.elapsed < 30 { usleep(50_000) }
        usleep(300_000)
        let daemons = pids(in: dir + "/daemons")
        #expect(daemons.count >= 3, "\(run.log)")
        let alive = daemons.filter(outlives)
        #expect(alive.count <= 1, "daemons \(alive) of finished taps still run")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        for pid in pids(in: dir + "/daemons") { #expect(!outlives(pid), "the daemon \(pid) outlived the kiosk") }
    }

    @Test("a tap command's trace line carries its end: the tap's time and the seconds it ran")
    func tapCommandEnd() throws {
        let (dir, _) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let command = try script("sleep 0.6\n")
        defer { try? FileManager.default.removeItem(atPath: command) }
        let run = try tappingKiosk(dir, command: command)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5) }
        func lines(_ kind: String) -> [String] {
            ((try? fileText(dir + "/trace")) ?? "").split(separator: "\n").map(String.init).filter { $0.contains("\"kind\":\"\(kind)\"") }
        }
        let watch = Stopwatch()
        while lines("command").isEmpty && watch.elapsed < 30 { usleep(50_000) }
        func time(_ line: String) -> Double? {
            guard let range = line.range(of: #""t":"#) else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        let select = try #require(lines("select").first.flatMap(time)), end = try #require(lines("command").first.flatMap(time))
        #expect(end - select >= 0.6, "the command line's time \(end) is not its end (the tap at \(select), 0.6 s of sleep)")
        #expect(end - select < 5)
    }

    @Test("a FIFO as --config is refused at once (exit 1), not waited on before READY")
    func fifoConfig() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try makeFIFO(dir + "/config")
        let run = try ProgramRun(["run", "--config", dir + "/config"])
        #expect(run.finish(timeout: 20) == 1)
        #expect(run.wait(for: "a FIFO, not a regular file") || run.log.contains("a FIFO, not a regular file"), "\(run.log)")
    }

    @Test("$STATE_DIRECTORY (systemd's StateDirectory=) is the state folder unless the file sets state.directory")
    func stateDirectory() throws {
        let dir = "/var/lib/private/panel-refresh"
        #expect(MachineEnvironment(language: "en", stateDirectory: dir, utcOffset: { _ in 0 }).applied(to: KioskConfiguration()).stateDirectory == dir)
        var set = KioskConfiguration()
        try set.set("state.directory", "/srv/panel")
        #expect(MachineEnvironment(language: "en", stateDirectory: dir, utcOffset: { _ in 0 }).applied(to: set).stateDirectory == "/srv/panel")
    }
}

/// The test process's children end with it (`Lifeline`): a test runner killed with SIGKILL left
/// 3 kiosks and 2 brokers running, reparented to init, with their folders.
@Suite("What a test process leaves")
struct LifelineTests {
    /// `sleep 300` started with posix_spawn; its pid.
    static func sleeper() throws -> pid_t {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sleep", "300"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        try #require(posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0)
        return pid
    }

    /// How `pid` ended: the signal that killed it, within `seconds` (0: it exited or still runs).
    static func killedBy(_ pid: pid_t, within seconds: Double) -> Int32 {
        let watch = Stopwatch()
        var status: Int32 = 0
        while watch.elapsed < seconds {
            if waitpid(pid, &status, WNOHANG) == pid { return status & 0x7f }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return 0
    }

    @Test("when the test process's end of the lifeline closes (as it does when the process dies), what is bound is killed; what was let go is not")
    func cutKillsBound() throws {
        let lifeline = Lifeline()
        #expect(lifeline.helper > 0)
        let bound = try Self.sleeper(), released = try Self.sleeper()
        lifeline.bind(bound)
        lifeline.bind(released)
        lifeline.release(released)
        lifeline.cut()
        #expect(Self.killedBy(bound, within: 10) == SIGKILL, "the bound process outlived the lifeline")
        #expect(Self.killedBy(released, within: 0.5) == 0, "a released process was killed")
        var status: Int32 = 0
        #expect(waitpid(lifeline.helper, &status, 0) == lifeline.helper, "the helper ends after")
    }

    @Test("the kiosks and brokers the tests start are bound to the test process's lifeline")
    func programRunsAreBound() throws {
        let run = try ProgramRun(["--version"])
        _ = run.finish(timeout: 10)
        #expect(Lifeline.shared.helper > 0)
        // The helper runs in a session of its own: a signal to the runner's group spares it.
        #expect(getsid(Lifeline.shared.helper) == Lifeline.shared.helper)
    }
}
