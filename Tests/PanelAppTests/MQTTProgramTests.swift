import Foundation
import Glibc
import Testing
@testable import PanelApp

/// The program with `data.source = mqtt` against a real Mosquitto: what an operator's fleet does.
@Suite("The kiosk on an MQTT broker",
       .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"),
       .enabled(if: haveMosquitto, "needs Debian's mosquitto, mosquitto-clients and libmosquitto1 (scripts/bootstrap installs them)"),
       .serialized)
struct MQTTProgramTests {
    static func items(_ n: Int, _ tag: String) -> String {
        "[" + (1...n).map { #"{"id":"\#($0)","title":"\#(tag) \#($0)"}"# }.joined(separator: ",") + "]"
    }

    /// The kiosk's status as `ctl status` says it: its items and state.
    static func status(_ socket: String) throws -> (items: Int, state: String)? {
        let (code, out, _) = try runProgram(["ctl", "status", "--socket", socket])
        guard code == 0, case .object(let o)? = try? JSONValue.parse(Data(out)) else { return nil }
        guard case .integer(let items)? = o["items"], case .string(let state)? = o["state"] else { return nil }
        return (Int(items), state)
    }

    static func wait(_ socket: String, timeout: Double = 15, until done: ((items: Int, state: String)) -> Bool) throws -> (items: Int, state: String)? {
        let watch = Stopwatch()
        var last: (items: Int, state: String)?
        while watch.elapsed < timeout {
            last = try status(socket)
            if let last, done(last) { return last }
            usleep(50_000)
        }
        return last
    }

    @Test("the retained list shows at start; a new message changes the rows; a malformed one keeps them; the status is retained online, and offline by the will when the kiosk is killed")
    func pushedList() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", Self.items(2, "first"), retain: true)
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = board/list
            mqtt-client-id = kiosk-a
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        let first = try Self.wait(socket) { $0.items == 2 && $0.state == "showing" }
        #expect(first?.items == 2, "\(run.log)")
        #expect(run.wait(for: "mqtt: connected to 127.0.0.1:\(broker.port) as kiosk-a", timeout: 5), "\(run.log)")

        try broker.publish("board/list", Self.items(3, "second"), retain: true)
        let second = try Self.wait(socket) { $0.items == 3 }
        #expect(second?.items == 3, "\(run.log)")

        try broker.publish("board/list", "{not json", retain: true)
        let failed = try Self.wait(socket) { $0.state == "failed" }
        #expect(failed?.state == "failed" && failed?.items == 3, "the list stays: \(String(describing: failed))")

        let said = try #require(try broker.first("panel-refresh/kiosk-a/status", timeout: 5))
        #expect(said.hasPrefix(#"{"online":true,"#) && said.contains(#""items":3"#), "\(said)")

        kill(run.process.processIdentifier, SIGKILL)
        _ = run.finish(timeout: 5)
        let watch = Stopwatch()
        var will: String?
        while watch.elapsed < 10 {
            will = try broker.first("panel-refresh/kiosk-a/status", timeout: 2)
            if will == FleetLink.offline { break }
        }
        #expect(will == FleetLink.offline)
    }

    @Test("a broker that is not there yet: the kiosk waits with back-off and takes the list once it comes")
    func brokerLate() throws {
        let port = try OneShotServer.unusedPort()
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(port)
            mqtt-topic = board/list
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "mqtt: 127.0.0.1:\(port): ", timeout: 10), "\(run.log)")
        let broker = try TestBroker(port: port)
        try broker.publish("board/list", Self.items(4, "late"), retain: true)
        // The back-off's waits grow 1, 2, 4 s (each drawn from its upper half): well within 20 s.
        let shown = try Self.wait(socket, timeout: 20) { $0.items == 4 }
        #expect(shown?.items == 4, "\(run.log)")
    }
}
