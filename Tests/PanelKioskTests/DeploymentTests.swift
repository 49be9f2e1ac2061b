import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

let systemdAnalyze = "/usr/bin/systemd-analyze"

/// The unit `name` (the groups way by default) with ExecStart pointing at a program that
/// exists here (verify checks it).
func unitCopy(_ name: String = "panel-refresh") throws -> String {
    let text = try fileText(repository + "/systemd/\(name).service")
        .replacingOccurrences(of: "ExecStart=/usr/local/bin/panel-refresh run", with: "ExecStart=/bin/true run")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("\(name).service").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("Deployment")
struct DeploymentTests {
    @Test("both units (the groups way, the logind way) pass systemd-analyze verify",
          .enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "needs systemd-analyze"),
          arguments: ["panel-refresh", "panel-refresh-logind"])
    func verify(name: String) throws {
        let unit = try unitCopy(name)
        // The man pages in Documentation= are checked where the package installed them
        // (scripts/vm-test level 2); here they are not installed.
        let result = try shell(systemdAnalyze, ["verify", "--man=no", unit])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("\(name).service"), "no warnings about the unit: \(result.output)")
    }

    @Test("both units' exposure is 1.5 or lower", .enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "needs systemd-analyze"),
          arguments: ["panel-refresh", "panel-refresh-logind"])
    func exposure(name: String) throws {
        let result = try shell(systemdAnalyze, ["security", "--offline=true", try unitCopy(name)])
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        // "→ Overall exposure level for panel-refresh.service: 1.5 OK 🙂" (or ":-)" without UTF-8).
        let afterUnit = line.components(separatedBy: ".service:").last ?? ""
        let score = afterUnit.split(separator: " ").first.flatMap { Double($0) }
        #expect(try #require(score) <= 1.5, "\(line)")
    }

    @Test("the default configuration is valid")
    func defaultConfiguration() throws {
        let configuration = try KioskConfiguration.load(path: repository + "/systemd/config.default")
        #expect(configuration.source == .sample && configuration.backend == .auto)
    }

    @Test("install puts every file in an image root and enables the unit; uninstall takes them away")
    func install() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let installed = try shell(repository + "/scripts/install", ["--root", root, "--binary", "/bin/true", "--no-enable"])
        #expect(installed.status == 0, "\(installed.output)")
        for file in ["usr/local/bin/panel-refresh", "etc/systemd/system/panel-refresh.service",
                     "etc/udev/rules.d/70-panel-refresh.rules", "etc/panel-refresh/config",
                     "usr/local/share/doc/panel-refresh/deployment.md"] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
        }
        // An operator's configuration survives a reinstall.
        try "[data]\npage-size = 7\n".write(toFile: root + "/etc/panel-refresh/config", atomically: true, encoding: .utf8)
        _ = try shell(repository + "/scripts/install", ["--root", root, "--binary", "/bin/true", "--no-enable"])
        #expect(try fileText(root + "/etc/panel-refresh/config").contains("page-size = 7"))
        let removed = try shell(repository + "/scripts/uninstall", ["--root", root])
        #expect(removed.status == 0, "\(removed.output)")
        #expect(!FileManager.default.fileExists(atPath: root + "/usr/local/bin/panel-refresh"))
        #expect(FileManager.default.fileExists(atPath: root + "/etc/panel-refresh/config"), "kept without --purge")
    }
}
