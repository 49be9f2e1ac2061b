import Foundation
import Testing
import PanelTestSupport
@testable import PanelKiosk

private let nodeExporter = "/usr/bin/prometheus-node-exporter"
private let prometheus = "/usr/bin/prometheus"

/// Fetches `url` with Python's urllib: (status, body); status 0 when nothing answered.
private func fetch(_ url: String) throws -> (Int, String) {
    let script = """
        import sys, urllib.request, urllib.error
        try:
            r = urllib.request.urlopen(sys.argv[1], timeout=5); print(r.status); sys.stdout.write(r.read().decode())
        except urllib.error.HTTPError as e:
            print(e.code); sys.stdout.write(e.read().decode())
        except Exception:
            print(0)
        """
    let (_, out, _) = try runProgram(["-c", script, url], executable: "/usr/bin/python3")
    let text = String(decoding: out, as: UTF8.self)
    let line = text.prefix { $0 != "\n" }
    return (Int(line) ?? 0, String(text.dropFirst(line.count + 1)))
}

/// A process of the test's, its standard error in a file, stopped at the end.
private final class Server {
    let child: Child
    let log: String
    init(_ executable: String, _ arguments: [String], log: String) throws {
        self.log = log
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(fd) }
        child = try Child(executable, arguments, stdout: .descriptor(fd), stderr: .descriptor(fd))
    }
    var said: String { (try? fileText(log)) ?? "" }
    deinit { child.terminate(SIGKILL); _ = child.exitCode() }
}

@Suite("The metrics through node_exporter's textfile collector and a real Prometheus",
       .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: nodeExporter) && FileManager.default.isExecutableFile(atPath: prometheus),
                "needs Debian's prometheus-node-exporter and prometheus (scripts/bootstrap installs them)"),
       .serialized)
struct NodeExporterTests {
    @Test("node_exporter serves the kiosk's metrics file beside its own without an error (no process_* family of both), and Prometheus scraping it holds the kiosk's memory and start")
    func textfileCollector() throws {
        let (run, dir, _) = try startControlledKiosk("metrics-file = DIR/textfile/panel-refresh.prom\nmetrics-seconds = 1\n")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/textfile", withIntermediateDirectories: true)
        #expect(run.wait(for: "showing 20 items"), "\(run.log)")
        let file = dir + "/textfile/panel-refresh.prom"
        let watch = Stopwatch()
        while !FileManager.default.fileExists(atPath: file) && watch.elapsed < 10 { usleep(50_000) }
        let kiosk = try fileText(file)
        let resident = try #require(kiosk.split(separator: "\n").first { $0.hasPrefix("panel_refresh_resident_memory_bytes ") })
        #expect(!kiosk.contains("\nprocess_"), "a process_* family collides with node_exporter's own")

        let exporterPort = try OneShotServer.unusedPort()
        let exporter = try Server(nodeExporter, ["--web.listen-address=127.0.0.1:\(exporterPort)", "--collector.disable-defaults",
                                                 "--collector.textfile", "--collector.textfile.directory=\(dir)/textfile"], log: dir + "/exporter.log")
        var (status, body) = (0, "")
        while status == 0 && watch.elapsed < 20 { (status, body) = try fetch("http://127.0.0.1:\(exporterPort)/metrics"); usleep(100_000) }
        #expect(status == 200, "\(exporter.said)")
        #expect(body.contains("node_textfile_scrape_error 0"), "\(body.suffix(500))")
        #expect(body.contains("panel_refresh_resident_memory_bytes ") && body.contains("panel_refresh_start_time_seconds "))
        #expect(body.contains("panel_refresh_state{state=\"showing\"} 1"))
        #expect(!exporter.said.contains("level=error"), "node_exporter: \(exporter.said)")

        // Prometheus scrapes node_exporter each second; its query API gives the kiosk's values.
        let promPort = try OneShotServer.unusedPort()
        try """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: node
                static_configs:
                  - targets: ['127.0.0.1:\(exporterPort)']
            """.write(toFile: dir + "/prometheus.yml", atomically: true, encoding: .utf8)
        let server = try Server(prometheus, ["--config.file=\(dir)/prometheus.yml", "--storage.tsdb.path=\(dir)/tsdb",
                                             "--web.listen-address=127.0.0.1:\(promPort)"], log: dir + "/prometheus.log")
        var answer = ""
        let query = "http://127.0.0.1:\(promPort)/api/v1/query?query=panel_refresh_resident_memory_bytes"
        while !answer.contains("\"value\"") && watch.elapsed < 60 {
            answer = try fetch(query).1
            usleep(250_000)
        }
        #expect(answer.contains("\"__name__\":\"panel_refresh_resident_memory_bytes\"") && answer.contains("\"job\":\"node\""),
                "\(answer)\n\(server.said.suffix(800))")
        // The value Prometheus holds is the kiosk's (a few MB), not node_exporter's own.
        let value = answer.split(separator: "\"").last { Double($0) != nil }.flatMap { Double($0) } ?? 0
        #expect(value > 1_000_000, "\(answer) (the file said \(resident))")
        let up = try fetch("http://127.0.0.1:\(promPort)/api/v1/query?query=up").1
        #expect(up.contains("\"1\"]"), "the scrape of node_exporter succeeded: \(up)")
        #expect(!exporter.said.contains("level=error"), "node_exporter: \(exporter.said)")
    }
}
