import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// The `panel-refresh` executable beside the test bundle (`swift test` builds every product
/// into the same folder), nil when it is not there.
let programPath: String? = {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("panel-refresh").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

/// A run of the program with its stderr read as it comes. It never outlives its test: when the
/// test lets it go (its last reference, whether its expectations held or a `#require` threw),
/// a program still running is killed and reaped; and when the test process exits, a check finds
/// any `panel-refresh` child still running, kills it and fails the run (a few `swift test` runs
/// had left kiosks running for hours, reparented to init).
final class ProgramRun {
    let process: Child
    private(set) var log = ""

    /// `environment`: variables added to the test's own (NOTIFY_SOCKET, ...); `prefix`: a
    /// command the program runs under, which ends by executing it (same process: `unshare`).
    init(_ arguments: [String], environment: [String: String] = [:], prefix: [String] = []) throws {
        let command = prefix + [programPath ?? "/nonexistent"] + arguments
        _ = ProgramLeftovers.checkAtExit
        process = try Child(command[0], Array(command.dropFirst()), adding: environment, stderr: .pipe)
        // Ended with the test process, even one killed (Lifeline).
        Lifeline.shared.bind(process.processIdentifier)
    }

    deinit {
        if outcome() == nil {
            process.terminate(SIGKILL)
            _ = process.exitCode()
        }
        Lifeline.shared.release(process.processIdentifier)
    }

    /// How the program ended: `.some(code)` for an exit, `.some(nil)` for a signal, nil while
    /// it runs (`Child.reap`).
    private func outcome() -> Int32?? { process.reap() }

    /// Closes the test's end of the program's stderr: its next log line meets a pipe with no reader.
    func closeStderr() { if !stderrClosed { close(process.errors); stderrClosed = true } }
    private var stderrClosed = false

    /// Reads stderr until `marker` shows up; false after `timeout` seconds or at its end.
    func wait(for marker: String, timeout: Double = 30) -> Bool {
        guard !stderrClosed else { return false }
        let fd = process.errors
        let watch = Stopwatch()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !log.contains(marker) {
            let left = timeout - watch.elapsed
            guard left > 0 else { return false }
            var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiter, 1, Int32(left * 1000)) > 0 else { return false }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return false }
            log += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }

    /// Reads stderr for `seconds` (or to its end) and gives the log so far.
    func readLog(for seconds: Double) -> String {
        _ = wait(for: "\u{0}", timeout: seconds)
        return log
    }

    /// The exit code, or nil when a signal ended it or it was still running after `timeout`
    /// seconds (it is then killed: a test must fail, not hang).
    func finish(timeout: Double = 60) -> Int32? {
        let watch = Stopwatch()
        while outcome() == nil && watch.elapsed < timeout { usleep(10_000) }
        if outcome() == nil { process.terminate(SIGKILL) }
        return process.exitCode()
    }

    /// Whether the program still runs (reaping it when it has ended).
    var isRunning: Bool { outcome() == nil }
}

/// The check, when the test process exits, that no `panel-refresh` it started still runs.
enum ProgramLeftovers {
    /// Registers the check once (the first program run does).
    static let checkAtExit: Void = { atexit { ProgramLeftovers.check() } }()

    /// The children of this process that run the program and have not exited.
    static func running() -> [pid_t] {
        guard let program = programPath.map({ ($0 as NSString).resolvingSymlinksInPath }) else { return [] }
        let me = getpid()
        var found: [pid_t] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), let stat = try? fileText("/proc/\(name)/stat"),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[1]) == me,
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/exe")) == program else { continue }
            found.append(pid)
        }
        return found
    }

    /// Fails the test process when a program it started is still running (and ends those).
    static func check() {
        let left = running()
        guard !left.isEmpty else { return }
        for pid in left { kill(pid, SIGKILL) }
        let line = "error: the tests left \(left.count) panel-refresh process\(left.count == 1 ? "" : "es") running (\(left.map(String.init).joined(separator: ", ")); killed now)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        _exit(1)
    }
}

/// `panel-refresh run` on the headless display with a state directory of its own: the run,
/// that directory (to remove) and the configuration file in it.
func startHeadlessKiosk() throws -> (ProgramRun, String, String) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let config = dir + "/config"
    try "[display]\nbackend = headless\n[state]\ndirectory = \(dir)\n".write(toFile: config, atomically: true, encoding: .utf8)
    return (try ProgramRun(["run", "--config", config]), dir, config)
}

@Suite("The program's command line and signals", .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"))
struct ProgramTests {
    @Test("numbers outside their documented ranges are usage errors (exit 2), not crashes or endless runs", arguments: [
        ["replay", "/nonexistent.evemu", "--refresh-seconds", "1e300"],
        ["replay", "/nonexistent.evemu", "--refresh-seconds", "-1"],
        ["replay", "/nonexistent.evemu", "--refresh-seconds", "nan"],
        ["replay", "/nonexistent.evemu", "--axes", "99,100"],
        ["replay", "/nonexistent.evemu", "--offset", "-1"],
        ["replay", "/nonexistent.evemu", "--offset", "1e300"],
        ["expected-frame", "--refreshes", "-1", "/dev/null"],
        ["expected-frame", "--refreshes", "1000000", "/dev/null"],
        ["expected-frame", "--refreshes", "99999999999999999999", "/dev/null"],
        ["expected-frame", "--screen", "100000x2", "/dev/null"],
        ["hw-check", "--hold", "1e300"],
        ["run", "--set", "data.timeout=1e300"],
        ["run", "--set", "data.page-size=-5"],
    ])
    func badNumbers(arguments: [String]) throws {
        let run = try ProgramRun(arguments)
        #expect(run.finish() == 2)
        #expect(run.wait(for: "usage: panel-refresh") || run.log.contains("usage"), "\(run.log)")
    }

    @Test("a SIGHUP while run starts up is not fatal: it is taken, and the configuration reread, once the loop runs")
    func hangupDuringStartUp() throws {
        let (run, dir, config) = try startHeadlessKiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // "starting" comes before the display, the fonts and the loop: the old default action
        // of SIGHUP ended the program here.
        #expect(run.wait(for: "starting"))
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.wait(for: "reloaded \(config)"), "\(run.log)")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
    }

    @Test("a SIGTERM while run starts up stops it cleanly once the loop runs (exit 0, not death by signal)")
    func terminateDuringStartUp() throws {
        let (run, dir, _) = try startHeadlessKiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "starting"))
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        #expect(run.wait(for: "stopping") || run.log.contains("stopping"), "\(run.log)")
    }

    /// scripts/lib/pull-down's recording (the one the VM checks inject): a pull from the top.
    static func pullDown() throws -> String {
        let (code, output, _) = try Child.run(repository + "/scripts/lib/pull-down", [])
        guard code == 0 else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test("run --play pulls the running kiosk a second after its start: the header refreshes; a file that is no recording stops run at once (exit 1)")
    func play() throws {
        // Only a folder and a configuration: a kiosk started here as well was never stopped.
        let dir = try scratchDirectory("play")
        let config = dir + "/config"
        try "[display]\nbackend = headless\n[state]\ndirectory = \(dir)\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recording = dir + "/pull-down.evemu", trace = dir + "/trace.jsonl"
        try Self.pullDown().write(toFile: recording, atomically: true, encoding: .utf8)
        let run = try ProgramRun(["run", "--config", config, "--set", "data.refresh-seconds=0.2", "--play", recording, "--trace", trace])
        let watch = Stopwatch()
        var refreshed = false
        while !refreshed, watch.elapsed < 30, run.isRunning {
            refreshed = ((try? fileText(trace)) ?? "").contains("\"kind\":\"refresh\",\"component\":\"header\"")
            if !refreshed { usleep(50_000) }
        }
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
        #expect(refreshed, "no header refresh in the trace: \(run.log)")

        let bad = try ProgramRun(["run", "--config", config, "--play", config])
        #expect(bad.finish() == 1)
        #expect(bad.wait(for: config) || bad.log.contains(config), "\(bad.log)")
    }
}

@Suite("Signals before the loop")
struct SignalPipeTests {
    @Test("a handled signal becomes a byte in the pipe instead of its default action; release restores the default")
    func pipe() throws {
        try SignalPipe.install()
        #expect(SignalPipe.readEnd >= 0)
        _ = SignalPipe.receive()
        // To the process, as kill(1) and systemd send them: any thread that does not block
        // them takes them, so wait for the bytes.
        kill(getpid(), SIGHUP)
        var received: [Int32] = []
        let watch = Stopwatch()
        while received.count < 1, watch.elapsed < 5 {
            var waiter = pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&waiter, 1, 100)
            received += SignalPipe.receive()
        }
        #expect(received == [SIGHUP])
        #expect(SignalPipe.receive().isEmpty)
        SignalPipe.release()
        var current = sigaction()
        sigaction(SIGHUP, nil, &current)
        #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self))
    }
}

@MainActor
@Suite("Numeric options")
struct NumericOptionTests {
    @Test("ranges as documented; non-finite and out-of-range numbers are usage errors")
    func ranges() throws {
        #expect(try NumericOption.double("--refresh-seconds", "60", in: NumericOption.refreshSeconds) == 60)
        #expect(try NumericOption.integer("--refreshes", "0", in: NumericOption.refreshes) == 0)
        for bad in ["60.001", "1e300", "-0.5", "inf", "nan", "", "1s"] {
            #expect(throws: UsageError.self) { try NumericOption.double("--refresh-seconds", bad, in: NumericOption.refreshSeconds) }
        }
        for bad in ["-1", "101", "1000000", "1.5", "99999999999999999999"] {
            #expect(throws: UsageError.self) { try NumericOption.integer("--refreshes", bad, in: NumericOption.refreshes) }
        }
        #expect(try NumericOption.axes("--axes", "02,03") == (2, 3))
        for bad in ["02", "40,01", "02,03,04", "zz,01", ""] {
            #expect(throws: UsageError.self) { try NumericOption.axes("--axes", bad) }
        }
        #expect(throws: UsageError.self) { try ExpectedFrame.render(width: 10, height: 10, refreshes: -1) }
        var options = ReplayCommand.Options(file: "/nonexistent")
        options.refreshSeconds = 1e300
        #expect(throws: UsageError.self) { try ReplayCommand.run(options) }
    }
}

/// The program's stdout and exit code for `arguments`.
func programOutput(_ arguments: [String]) throws -> (String, Int32) {
    let (code, output, _) = try Child.run(programPath ?? "/nonexistent", arguments)
    return (String(decoding: output, as: UTF8.self), code ?? -1)
}

@Suite("Help where users look for it", .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"))
struct HelpTests {
    @Test("COMMAND --help (and help COMMAND) shows that command's usage, every option and an example; exit 0",
          arguments: CommandHelp.all.map(\.name))
    func perCommand(name: String) throws {
        let help = try #require(CommandHelp.named(name))
        for arguments in [[name, "--help"], [name, "-h"], ["help", name]] {
            let (text, code) = try programOutput(arguments)
            #expect(code == 0)
            #expect(text.hasPrefix("usage: panel-refresh \(name)"), "\(arguments)")
            for option in help.options { #expect(text.contains(option.flag), "\(name): \(option.flag)") }
            #expect(text.contains("examples:") && text.contains(help.examples[0].command))
            #expect(!text.contains("commands:"), "not the global help")
        }
    }

    @Test("docs/program.md shows every command's synopsis as its option table makes it, and every option")
    func programDocs() throws {
        let doc = try fileText(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/program.md").path)
        for command in CommandHelp.all {
            let synopsis = "\(command.name) \(command.synopsis)".trimmingCharacters(in: .whitespaces)
            #expect(doc.contains("| `" + synopsis.replacing("|", with: "\\|") + "` |"), "docs/program.md: \(synopsis)")
            for option in command.options where !option.isPositional { #expect(doc.contains(option.flag), "\(command.name): \(option.flag)") }
        }
    }

    @Test("the global help lists every command; an unknown one is a usage error")
    func overview() throws {
        let (text, code) = try programOutput(["--help"])
        #expect(code == 0)
        for command in CommandHelp.all { #expect(text.contains("  \(command.name)")) }
        #expect(try programOutput(["help", "frobnicate"]).1 == 2)
    }

    @Test("the man page is made from the same text: every command and option, valid roff (groff reports nothing)")
    func manPage() throws {
        let (roff, code) = try programOutput(["--man"])
        #expect(code == 0 && roff.hasPrefix(".TH PANEL\\-REFRESH 1"))
        for command in CommandHelp.all {
            #expect(roff.contains(".SS \\fB\(command.name.replacing("-", with: "\\-"))\\fR"))
            for option in command.options { #expect(roff.contains(".B " + option.flag.replacing("-", with: "\\-"))) }
        }
        // The variables the program reads (getenv) and those it sets for its data command.
        #expect(roff.contains(".SH ENVIRONMENT"))
        for name in ["LANG", "TZ", "STATE_DIRECTORY", "CACHE_DIRECTORY", "RUNTIME_DIRECTORY", "CREDENTIALS_DIRECTORY", "NOTIFY_SOCKET",
                     "JOURNAL_STREAM", "DISPLAY", "PANEL_REFRESH_MACHINE_ID", "PANEL_REFRESH_PAGE"] {
            #expect(roff.contains(name), "\(name)")
        }
        #expect(try groffWarnings(roff) == "")
    }

    @Test("panel-refresh.conf(5) is made from the key table: every section and key, valid roff")
    func configurationManPage() throws {
        let (roff, code) = try programOutput(["--man-conf"])
        #expect(code == 0 && roff.hasPrefix(".TH PANEL\\-REFRESH.CONF 5"))
        for key in KioskConfiguration.keys {
            #expect(roff.contains(".SS [\(key.section)]"))
            #expect(roff.contains(".B " + key.name.replacing("-", with: "\\-")), "\(key.name)")
        }
        #expect(roff.contains(".SH ENVIRONMENT") && roff.contains("CREDENTIALS_DIRECTORY"))
        #expect(try groffWarnings(roff) == "")
    }

    /// What groff says of `roff` as a man page (nothing: valid); it must be installed.
    func groffWarnings(_ roff: String) throws -> String {
        let groff = "/usr/bin/groff"
        guard FileManager.default.isExecutableFile(atPath: groff) else {
            Issue.record("groff is missing: scripts/bootstrap installs it")
            return "no groff"
        }
        let (code, _, warnings) = try runProgram(["-man", "-Tutf8", "-ww", "-z"], executable: groff, input: Array(roff.utf8))
        #expect(code == 0)
        return warnings
    }
}

@Suite("libcurl loaded only for the HTTP source, SDL only for a window", .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"))
struct LazyCurlTests {
    /// Whether the running program has libcurl mapped.
    func mapsCurl(_ run: ProgramRun) throws -> Bool {
        // Read to the end: /proc files report a size of 0.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(run.process.processIdentifier)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        #expect(maps.contains("panel-refresh"), "the maps were read")
        return maps.contains("libcurl")
    }

    /// Whether the running program has libSDL2 mapped.
    func mapsSDL(_ run: ProgramRun) throws -> Bool {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(run.process.processIdentifier)/maps"))
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self).contains("libSDL2")
    }

    @Test("the sample source shows its list without libcurl in memory; the http source loads it at its first transfer")
    func lazy() throws {
        let (run, dir, _) = try startHeadlessKiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "showing"), "\(run.log)")
        #expect(try !mapsCurl(run))
        // Nor the desktop window's library: a panel needs neither.
        #expect(try !mapsSDL(run))
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0)

        let config = dir + "/http.conf"
        try "[display]\nbackend = headless\n[data]\nsource = http\nurl = http://127.0.0.1:9/items\ntimeout = 2\n[state]\ndirectory = \(dir)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let http = try ProgramRun(["run", "--config", config])
        #expect(http.wait(for: "unreachable"), "\(http.log)")
        #expect(try mapsCurl(http))
        kill(http.process.processIdentifier, SIGTERM)
        #expect(http.finish() == 0)
    }
}
