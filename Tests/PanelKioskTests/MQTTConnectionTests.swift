import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// The broker link against a real Mosquitto on a loopback port of the test's own.
@Suite("MQTT through libmosquitto against a real broker",
       .enabled(if: haveMosquitto, "needs Debian's mosquitto, mosquitto-clients and libmosquitto1 (scripts/bootstrap installs them)"))
struct MQTTConnectionTests {
    func settings(_ broker: TestBroker, id: String = "panel-\(UUID().uuidString.prefix(8))") -> MQTTConnection.Settings {
        MQTTConnection.Settings(host: "127.0.0.1", port: Int(broker.port), clientID: id)
    }

    static func messages(_ events: [MQTTConnection.Event]) -> [(String, String, Bool)] {
        events.compactMap { if case .message(let topic, let payload, let retained) = $0 { return (topic, String(decoding: payload, as: UTF8.self), retained) }; return nil }
    }

    @Test("a retained message comes at subscription, a live one after; both with their topic and retain flag")
    func retainedThenLive() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", #"[{"title":"retained"}]"#, retain: true)
        let connection = try MQTTConnection(settings(broker))
        try connection.connect()
        let connected = drive(connection) { $0.contains(.connected) }
        #expect(connected.contains(.connected), "\(connected)")
        try connection.subscribe("board/list")
        let first = drive(connection) { !Self.messages($0).isEmpty }
        let retained = try #require(Self.messages(first).first)
        #expect(retained.0 == "board/list" && retained.1 == #"[{"title":"retained"}]"# && retained.2)
        try broker.publish("board/list", #"[{"title":"live"}]"#)
        let second = drive(connection) { !Self.messages($0).isEmpty }
        let live = try #require(Self.messages(second).first)
        #expect(live.1 == #"[{"title":"live"}]"# && !live.2)
    }

    @Test("the right password is let in; a wrong one is refused with the broker's reason")
    func credentials() throws {
        let broker = try TestBroker(users: [("panel", "s3cret")])
        var good = settings(broker)
        good.credentials = ("panel", "s3cret")
        let accepted = try MQTTConnection(good)
        try accepted.connect()
        #expect(drive(accepted) { $0.contains(.connected) }.contains(.connected))
        var bad = settings(broker)
        bad.credentials = ("panel", "wrong")
        let refused = try MQTTConnection(bad)
        try refused.connect()
        let events = drive(refused) { $0.contains { if case .refused = $0 { return true }; return false } }
        #expect(events.contains(.refused("Not authorized")), "\(events)")
    }

    @Test("the last will is published when the connection drops without a goodbye, and not after one")
    func lastWill() throws {
        let broker = try TestBroker()
        var vanishing = settings(broker)
        vanishing.will = ("panels/a/status", Array(#"{"online":false}"#.utf8))
        let a = try MQTTConnection(vanishing)
        try a.connect()
        #expect(drive(a) { $0.contains(.connected) }.contains(.connected))
        // The cable pulled: the socket shut without DISCONNECT; the broker sees it close.
        shutdown(try #require(a.descriptor), Int32(SHUT_RDWR))
        let lost = drive(a, timeout: 5) { $0.contains { if case .disconnected = $0 { return true }; return false } }
        #expect(lost.contains { if case .disconnected(let why) = $0 { return why != nil }; return false }, "\(lost)")
        #expect(try broker.first("panels/a/status", timeout: 5) == #"{"online":false}"#)

        var polite = settings(broker)
        polite.will = ("panels/b/status", Array(#"{"online":false}"#.utf8))
        let b = try MQTTConnection(polite)
        try b.connect()
        #expect(drive(b) { $0.contains(.connected) }.contains(.connected))
        b.disconnect()
        let gone = drive(b, timeout: 5) { $0.contains(.disconnected(nil)) }
        #expect(gone.contains(.disconnected(nil)), "\(gone)")
        #expect(try broker.first("panels/b/status", timeout: 2) == nil, "a goodbye publishes no will")
    }

    @Test("an ACL that denies writing: the publish is refused with the broker's reason, by topic; an allowed one is not")
    func deniedPublish() throws {
        let broker = try TestBroker(users: [("panel", "pw"), ("watcher", "pw")],
                                    acl: "user panel\ntopic write panels/panel/#\ntopic read board/#\nuser watcher\ntopic read panels/#\n")
        var s = settings(broker)
        s.credentials = ("panel", "pw")
        let connection = try MQTTConnection(s)
        try connection.connect()
        #expect(drive(connection) { $0.contains(.connected) }.contains(.connected))
        try connection.publish("panels/other/status", Array("{}".utf8), retain: true)
        try connection.publish("panels/panel/status", Array("{}".utf8), retain: true)
        let refused = MQTTConnection.Event.publishRefused(topic: "panels/other/status", reason: "Not authorized")
        let events = drive(connection, timeout: 5) { $0.contains(refused) }
        #expect(events.contains(refused), "\(events)")
        #expect(!events.contains { if case .publishRefused(let topic, _) = $0 { return topic == "panels/panel/status" }; return false })
        #expect(try broker.first("panels/panel/status", timeout: 5, user: ("watcher", "pw")) == "{}")
    }

    @Test("TLS: a broker whose certificate chains to the given CA is let in; one the CA did not sign is not")
    func tls() throws {
        let pki = try TestCertificates()
        let broker = try TestBroker(["cafile \(pki.folder)/ca.pem", "certfile \(pki.folder)/server.pem", "keyfile \(pki.folder)/server.key"])
        var trusted = MQTTConnection.Settings(host: "localhost", port: Int(broker.port), clientID: "tls-a")
        trusted.tls = true
        trusted.tlsCAFile = pki.folder + "/ca.pem"
        let a = try MQTTConnection(trusted)
        try a.connect()
        let events = drive(a) { $0.contains(.connected) }
        #expect(events.contains(.connected), "\(events)")

        var strange = trusted
        strange.clientID = "tls-b"
        strange.tlsCAFile = pki.folder + "/other-ca.pem"
        let b = try MQTTConnection(strange)
        // On loopback the broker's certificate can arrive within the connect call, which then
        // fails itself; else the handshake fails in a later read.
        do {
            try b.connect()
            let refused = drive(b, timeout: 5) { $0.contains { if case .disconnected = $0 { return true }; return false } }
            #expect(!refused.contains(.connected) && refused.contains { if case .disconnected(let why) = $0 { return why != nil }; return false }, "\(refused)")
        } catch {
            #expect(error == .failed(call: "mosquitto_connect", reason: "A TLS error occurred."))
        }
    }
}

extension MQTTConnectionTests {
    @Test("MQTT 5's Maximum Packet Size: the broker sends no message larger than the connection asked for, and the next one comes")
    func maximumPacket() throws {
        let broker = try TestBroker()
        let folder = try scratchDirectory("packet")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var small = settings(broker)
        small.maximumPayload = 1000
        #expect(small.maximumPacket == 1000 + 65536)
        // 100 KB retained: over the packet size this connection asks for.
        try String(repeating: "x", count: 100_000).write(toFile: folder + "/big", atomically: true, encoding: .utf8)
        let (code, _, err) = try runProgram(["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-r", "-t", "board/big", "-f", folder + "/big"],
                                            executable: "/usr/bin/mosquitto_pub")
        #expect(code == 0, "\(err)")
        try broker.publish("board/small", "fits", retain: true)
        let connection = try MQTTConnection(small)
        try connection.connect()
        #expect(drive(connection) { $0.contains(.connected) }.contains(.connected))
        try connection.subscribe("board/big")
        try connection.subscribe("board/small")
        let events = drive(connection, timeout: 3) { _ in false }
        #expect(Self.messages(events).map(\.0) == ["board/small"], "\(events.map { "\($0)".prefix(80) })")
        #expect(!events.contains { if case .oversized = $0 { return true }; return false })
    }

    @Test("a message over the payload limit from a broker that sends it is reported by its size, its payload not copied")
    func oversizedPayload() throws {
        let broker = try TestBroker()
        var small = settings(broker)
        small.maximumPayload = 1000
        try broker.publish("board/list", String(repeating: "y", count: 5000), retain: true)
        let connection = try MQTTConnection(small)
        try connection.connect()
        #expect(drive(connection) { $0.contains(.connected) }.contains(.connected))
        try connection.subscribe("board/list")
        let events = drive(connection) { $0.contains(.oversized(topic: "board/list", bytes: 5000)) }
        #expect(events.contains(.oversized(topic: "board/list", bytes: 5000)), "\(events.map { "\($0)".prefix(80) })")
        #expect(Self.messages(events).isEmpty)
    }
}

/// A CA, a server certificate for localhost that it signed, and a second CA that signed
/// nothing, made with `openssl` in a scratch folder.
struct TestCertificates {
    let folder = NSTemporaryDirectory() + "pki-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let openssl = "/usr/bin/openssl"
        func run(_ arguments: [String]) throws {
            let (code, _, err) = try runProgram(arguments, executable: openssl)
            guard code == 0 else { throw BrokerError("openssl \(arguments.first ?? ""): \(err)") }
        }
        for ca in ["ca", "other-ca"] {
            try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test \(ca)",
                     "-keyout", "\(folder)/\(ca).key", "-out", "\(folder)/\(ca).pem"])
        }
        try run(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr"])
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: folder + "/san", atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
                 "-CAcreateserial", "-days", "2", "-extfile", "\(folder)/san", "-out", "\(folder)/server.pem"])
    }
}

@MainActor
@Suite("The list's topic as a source")
struct MQTTListSourceTests {
    @Test("a malformed message fails its load once; later loads answer with the last good message until a new one comes")
    func malformedThenGood() throws {
        let executor = VirtualExecutor(clock: ManualClock())
        let source = MQTTListSource(topic: "board/list", executor: executor)
        func load() -> Result<ItemPage, Error>? {
            var got: Result<ItemPage, Error>?
            source.load(page: 0, pageSize: 50) { got = $0 }
            executor.deliver(upTo: 0)
            return got
        }
        source.receive(Array(#"[{"title":"good"}]"#.utf8))
        #expect(try load()?.get().items.map(\.title) == ["good"])
        source.receive(Array("{not json".utf8))
        #expect(throws: DataSourceError.self) { try load()?.get() }
        #expect(try load()?.get().items.map(\.title) == ["good"], "the pull after takes the last good list")
        #expect(try load()?.get().items.map(\.title) == ["good"])
        source.receive(Array(#"[{"title":"newer"}]"#.utf8))
        #expect(try load()?.get().items.map(\.title) == ["newer"])
    }

    @Test("the same list again (the retained message at a reconnect, a publisher that resends it) is an unchanged refresh, as a 304 is")
    func sameListUnchanged() throws {
        let executor = VirtualExecutor(clock: ManualClock())
        let source = MQTTListSource(topic: "board/list", executor: executor)
        func load() throws -> ItemPage? {
            var got: Result<ItemPage, Error>?
            source.load(page: 0, pageSize: 50) { got = $0 }
            executor.deliver(upTo: 0)
            return try got?.get()
        }
        source.receive(Array(#"[{"title":"a"}]"#.utf8))
        #expect(try load()?.isUnchanged == false)
        source.receive(Array(#"[{"title":"a"}]"#.utf8))
        let again = try #require(try load())
        #expect(again.isUnchanged && again.items.map(\.title) == ["a"])
        source.receive(Array(#"[{"title":"b"}]"#.utf8))
        #expect(try load()?.isUnchanged == false)
    }
}
