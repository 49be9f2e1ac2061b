import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRender

/// A program run's stdout, stderr and exit code.
func programResult(_ arguments: [String], environment: [String: String] = [:]) throws -> (out: String, err: String, code: Int32) {
    let (code, o, e) = try Child.run(programPath ?? "/nonexistent", arguments, adding: environment)
    return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), code ?? -1)
}

@Suite("What an operator is told")
struct OperatorMessageTests {
    @Test("a misspelled key or section gets a suggestion; a key in the wrong section names its section")
    func suggestions() {
        var c = KioskConfiguration()
        #expect(throws: ConfigurationError(file: "", line: 0, message: "unknown key data.soruce; did you mean data.source?")) {
            try c.set("data.soruce", "sample")
        }
        #expect(throws: ConfigurationError(file: "", line: 0, message: "unknown key data.height; height is in [rows]")) {
            try c.set("data.height", "80")
        }
        #expect(throws: ConfigurationError(file: "", line: 0, message: "unknown key data.frobnicate")) {
            try c.set("data.frobnicate", "1")
        }
        #expect(throws: ConfigurationError(file: "f", line: 1, message: "unknown section [dsiplay]; did you mean [display]?")) {
            try KioskConfiguration.parse("[dsiplay]\nbackend = headless\n", file: "f")
        }
        // A megabyte-long key is no misspelling: nothing is measured against it.
        #expect(Suggestion.closest(to: String(repeating: "s", count: 1 << 20), in: KioskConfiguration.keyNames) == nil)
        #expect(Suggestion.distance(Array("soruce"), Array("source")) == 1)
        #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
    }
}

@MainActor
@Suite("panel-refresh check")
struct CheckTests {
    @Test("every error at once, each with its line, the files the keys name included; a valid file has none")
    func everyError() throws {
        let dir = try scratchDirectory("check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeBytes(declaredPNG(width: 100_000, height: 100_000), to: dir + "/bomb.png")
        try makeFIFO(dir + "/items.json")
        let config = dir + "/config"
        try """
        [data]
        source = file
        file = \(dir)/items.json
        timeout = 0x10
        soruce = sample
        [appearance]
        two-level = \(dir)/bomb.png
        [dsiplay]
        backend = headless
        [refresh]
        trigger-distance = 1e-320
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let errors = KioskConfiguration.check(path: config)
        #expect(errors.map(\.line) == [3, 4, 5, 7, 8, 11], "\(errors)")
        #expect(errors.allSatisfy { $0.file == config })
        #expect(errors[0].message.contains("a FIFO, not a regular file"))
        #expect(errors[1].message.contains("\"0x10\" is not a number from 0.1 to 600"))
        #expect(errors[2].message.contains("did you mean data.source?"))
        #expect(errors[3].message.contains("100000x100000 is more than"))
        #expect(errors[4].message.contains("did you mean [display]?"))

        try "[data]\nsource = sample\n[display]\nbackend = headless\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(KioskConfiguration.check(path: config).isEmpty)
        #expect(KioskConfiguration.check(path: dir + "/missing").map(\.message) == ["cannot read the file: No such file or directory"])
    }

    @Test("the command: exit 0 and 'valid', or exit 1 with each error logged; it starts nothing", .enabled(if: programPath != nil, "needs the panel-refresh executable"))
    func command() throws {
        let dir = try scratchDirectory("check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/config"
        try "[display]\nbackend = headless\n".write(toFile: config, atomically: true, encoding: .utf8)
        let good = try programResult(["check", "--config", config])
        #expect(good.code == 0 && good.out.contains("is valid"), "\(good)")
        try "[display]\nbackend = hedless\n[data]\npage-size = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try programResult(["check", "--config", config])
        #expect(bad.code == 1 && bad.out.contains("2 errors"), "\(bad)")
        #expect(bad.err.contains("\(config):2:") && bad.err.contains("\(config):4:"), "\(bad.err)")
    }
}

@Suite("The command line as an operator meets it", .enabled(if: programPath != nil, "needs the panel-refresh executable"))
struct CommandLineTests {
    @Test("--version and -V print the version")
    func version() throws {
        for flag in ["--version", "-V"] {
            let result = try programResult([flag])
            #expect(result.code == 0 && result.out.hasPrefix("panel-refresh "), "\(flag): \(result)")
        }
    }

    @Test("a usage error prints that command's usage only, not every command's")
    func usageOfOneCommand() throws {
        let result = try programResult(["replay", "/x.evemu", "--refresh-seconds", "nan"])
        #expect(result.code == 2)
        #expect(result.err.contains("usage: panel-refresh replay FILE"), "\(result.err)")
        #expect(!result.err.contains("hw-check"), "\(result.err)")
        let unknown = try programResult(["frobnicate"])
        #expect(unknown.code == 2 && unknown.err.contains("commands:"), "the overview for an unknown command")
    }

    @Test("a mistyped command, ctl command or option is answered with the one meant")
    func didYouMean() throws {
        let command = try programResult(["chek"])
        #expect(command.code == 2 && command.err.contains("unknown command \"chek\"; did you mean check?"), "\(command.err)")
        let ctl = try programResult(["ctl", "stauts"])
        #expect(ctl.code == 2 && ctl.err.contains("unknown ctl command \"stauts\"; did you mean status?"), "\(ctl.err)")
        let option = try programResult(["check", "--confg", "/x"])
        #expect(option.code == 2 && option.err.contains("unknown option \"--confg\" for check; did you mean --config?"), "\(option.err)")
        let far = try programResult(["xyzzy"])
        #expect(!far.err.contains("did you mean"), "nothing near: \(far.err)")
    }

    @Test("record with no touchscreen on the machine is an environment error (exit 1), not a usage error",
          .enabled(if: !FileManager.default.fileExists(atPath: "/dev/input"), "this machine has input devices"))
    func recordWithoutTouchscreen() throws {
        let result = try programResult(["record"])
        #expect(result.code == 1, "\(result)")
        #expect(result.err.contains("no touchscreen found"))
    }
}

@Suite("Log lines where they go", .enabled(if: programPath != nil, "needs the panel-refresh executable"))
struct LogFormatTests {
    /// `check` of a bad file with stderr in a file; `journal`: JOURNAL_STREAM names that file,
    /// as systemd names the journal's stream. What was written to stderr.
    func stderrOfCheck(journal: Bool) throws -> String {
        let dir = try scratchDirectory("log")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[data]\npage-size = 0\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: dir + "/stderr", contents: nil)
        let file = try #require(FileHandle(forWritingAtPath: dir + "/stderr"))
        var info = stat()
        #expect(fstat(file.fileDescriptor, &info) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = journal ? "\(info.st_dev):\(info.st_ino)" : nil
        let process = try Child(programPath ?? "/nonexistent", ["check", "--config", dir + "/config"], environment: environment,
                                stderr: .descriptor(file.fileDescriptor))
        process.exitCode()
        try file.close()
        return try fileText(dir + "/stderr")
    }

    @Test("plain lines on a terminal or in a file; sd-daemon priority prefixes only when stderr is the journal")
    func prefixes() throws {
        let plain = try stderrOfCheck(journal: false)
        #expect(plain.hasPrefix("panel-refresh: "), "\(plain)")
        let journal = try stderrOfCheck(journal: true)
        #expect(journal.hasPrefix("<3>panel-refresh: "), "\(journal)")
    }
}
