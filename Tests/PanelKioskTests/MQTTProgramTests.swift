import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

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
        guard code == 0, case .object(let o)? = try? JSONValue.parse(out) else { return nil }
        guard case .integer(let items)? = o["items"], case .string(let state)? = o["state"] else { return nil }
        return (Int(items), state)
    }

    /// Waits for the kiosk's "mqtt: connected" line, then for its subscriptions: they go out
    /// right after that line, and a message published before the broker has the SUBSCRIBE is
    /// not delivered (a trigger or a command, unretained, is then lost). A connection's round
    /// trip on loopback, well within 0.3 s, as `TestBroker.messages` allows its subscriber.
    static func subscribed(_ run: ProgramRun) -> Bool {
        guard run.wait(for: "mqtt: connected", timeout: 5) else { return false }
        usleep(300_000)
        return true
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

    @Test("a retained 64 MB message on the list topic never reaches the kiosk (MQTT 5's Maximum Packet Size): its memory stays low, its list is the next good one",
          .disabled(if: Sanitizer.isActive, "memory figures under a sanitizer's shadow memory are not the program's"))
    func retainedGiant() throws {
        let broker = try TestBroker()
        let folder = try scratchDirectory("giant")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try String(repeating: " ", count: 64 << 20).write(toFile: folder + "/giant", atomically: true, encoding: .utf8)
        let (code, _, err) = try runProgram(["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-r", "-t", "board/list", "-f", folder + "/giant"],
                                            executable: "/usr/bin/mosquitto_pub")
        #expect(code == 0, "\(err)")
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = board/list
            mqtt-client-id = kiosk-giant
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "mqtt: connected to", timeout: 10), "\(run.log)")
        try broker.publish("board/list", Self.items(2, "good"), retain: true)
        #expect(try Self.wait(socket) { $0.items == 2 }?.items == 2, "\(run.log)")
        // The kiosk's high-water mark: a debug build shows its list in about 30 MB; holding the
        // message once would be 64 MB more (the old kiosk copied it twice).
        let status = try fileText("/proc/\(run.process.processIdentifier)/status")
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(peak > 0 && peak < 60_000, "peak \(peak) kB")
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
        // A refresh after it takes the last good message again (every one failed after it).
        let (refreshed, _, _) = try runProgram(["ctl", "refresh", "--socket", socket])
        #expect(refreshed == 0)
        let again = try Self.wait(socket) { $0.state == "showing" }
        #expect(again?.state == "showing" && again?.items == 3, "\(String(describing: again))")

        // Over 4 MiB: past the Maximum Packet Size the kiosk asked for, so the broker never
        // sends it; the list stays, and the next message comes.
        let huge = dir + "/huge.json"
        try ("[" + String(repeating: #"{"title":"x"},"#, count: 330_000) + #"{"title":"x"}]"#).write(toFile: huge, atomically: true, encoding: .utf8)
        try broker.publish("board/list", file: huge)
        #expect(try Self.status(socket)?.items == 3)
        try broker.publish("board/list", Self.items(4, "third"), retain: true)
        #expect(try Self.wait(socket) { $0.items == 4 }?.items == 4, "\(run.log)")
        #expect(!run.log.contains("bytes on board/list"), "the broker sent the message over the limit: \(run.log)")

        // The status goes out at the link's next tick (within a second of the change): the
        // retained one is read until it says 4 items, for at most 5 s.
        var said = try #require(try broker.first("panel-refresh/kiosk-a/status", timeout: 5))
        let reading = Stopwatch()
        while !said.contains(#""items":4"#), reading.elapsed < 5 {
            said = try #require(try broker.first("panel-refresh/kiosk-a/status", timeout: 5))
        }
        #expect(said.hasPrefix(#"{"online":true,"#) && said.contains(#""items":4"#), "\(said)")
        // What changes by itself stays out of the retained status (a zero there read as a panel
        // just started); the start time says how long it has run.
        #expect(said.contains(#""started":"20"#) && !said.contains(#""uptime""#) && !said.contains(#""frames""#)
                && !said.contains(#""residentBytes""#), "\(said)")
        // The metrics say the broker's side: connected, no reconnection, a message a moment ago.
        let metrics = String(decoding: try runProgram(["ctl", "metrics", "--socket", socket]).1, as: UTF8.self)
        #expect(metrics.contains("panel_refresh_broker_connected 1\n") && metrics.contains("panel_refresh_broker_reconnects_total 0\n"), "\(metrics)")
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("panel_refresh_broker_last_message_age_seconds ") }
        let value: Substring = line?.split(separator: " ").last ?? ""
        let age: Double = Double(value) ?? .infinity
        #expect(age < 30, "\(String(describing: line))")

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

    /// `ctl status`'s broker part: its state and problem.
    static func broker(_ socket: String) throws -> (state: String, problem: String?, status: String)? {
        let (code, out, _) = try runProgram(["ctl", "status", "--socket", socket])
        guard code == 0, case .object(let o)? = try? JSONValue.parse(out), case .object(let b)? = o["broker"],
              case .string(let state)? = b["state"], case .string(let line)? = o["status"] else { return nil }
        if case .string(let problem)? = b["problem"] { return (state, problem, line) }
        return (state, nil, line)
    }

    @Test("the password from a file lets the panel in; a wrong one and an ACL that denies its status are said in ctl status and STATUS")
    func credentialsAndACL() throws {
        let broker = try TestBroker(users: [("hall", "s3cret"), ("locked", "pw"), ("server", "pw")],
                                    acl: "user hall\ntopic read board/#\ntopic write panel-refresh/#\nuser locked\ntopic read board/#\nuser server\ntopic write board/#\n")
        try broker.publish("board/list", Self.items(2, "acl"), retain: true, user: ("server", "pw"))
        let secrets = try scratchDirectory("mqtt-secrets")
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        for (name, password) in [("right", "s3cret\n"), ("wrong", "nope\n"), ("locked", "pw\n")] {
            try password.write(toFile: secrets + "/" + name, atomically: true, encoding: .utf8)
        }
        // Each its own id: kiosks of one machine would else share it and take it from each other.
        func kiosk(_ user: String, _ secret: String) throws -> (ProgramRun, String, String) {
            try startControlledKiosk("""
                [data]
                source = mqtt
                mqtt-url = mqtt://127.0.0.1:\(broker.port)
                mqtt-topic = board/list
                mqtt-user = \(user)
                mqtt-password-file = \(secrets)/\(secret)
                mqtt-client-id = \(user)-\(secret)
                """)
        }
        let (good, goodDir, goodSocket) = try kiosk("hall", "right")
        defer { kill(good.process.processIdentifier, SIGKILL); _ = good.finish(timeout: 5); try? FileManager.default.removeItem(atPath: goodDir) }
        #expect(try Self.wait(goodSocket) { $0.items == 2 }?.items == 2, "\(good.log)")
        #expect(try Self.broker(goodSocket)?.state == "connected")

        let (bad, badDir, badSocket) = try kiosk("hall", "wrong")
        defer { kill(bad.process.processIdentifier, SIGKILL); _ = bad.finish(timeout: 5); try? FileManager.default.removeItem(atPath: badDir) }
        #expect(bad.wait(for: "the broker refused the connection: Not authorized", timeout: 10), "\(bad.log)")
        let refused = try Self.broker(badSocket)
        #expect(refused?.problem?.contains("the broker refused the connection: Not authorized") == true, "\(String(describing: refused))")
        // STATUS says what keeps the first list waiting (it said only "refreshing").
        #expect(refused?.status.hasPrefix("refreshing; broker: the broker refused the connection: Not authorized") == true,
                "\(String(describing: refused))")

        // Its status may not be written: the list comes, the refusal is said.
        let (locked, lockedDir, lockedSocket) = try kiosk("locked", "locked")
        defer { kill(locked.process.processIdentifier, SIGKILL); _ = locked.finish(timeout: 5); try? FileManager.default.removeItem(atPath: lockedDir) }
        #expect(try Self.wait(lockedSocket) { $0.items == 2 }?.items == 2, "\(locked.log)")
        #expect(locked.wait(for: "the broker refused the panel's message on panel-refresh/", timeout: 10), "\(locked.log)")
        let denied = try Self.broker(lockedSocket)
        #expect(denied?.problem?.contains("Not authorized") == true && denied?.status.contains("; broker: the broker refused the panel's message") == true,
                "\(String(describing: denied))")
    }

    @Test("deployment.md's ACL on a real Mosquitto: a panel with its own user gets its list, publishes its status and hears commands; another panel's topics are closed to it")
    func documentedACL() throws {
        // The block after "<!-- acl: fleet -->", as the page has it.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try fileText(root.appendingPathComponent("docs/deployment.md").path)
        let marker = try #require(page.range(of: "<!-- acl: fleet -->\n```\n"))
        let acl = String(page[marker.upperBound...].prefix { $0 != "`" })
        #expect(acl.contains("pattern read boards/#"), "\(acl)")
        let broker = try TestBroker(users: [("hall-2", "pw"), ("board-server", "pw"), ("operator", "pw")], acl: acl)
        try broker.publish("boards/hall-2/list", Self.items(3, "acl"), retain: true, user: ("board-server", "pw"))
        let secrets = try scratchDirectory("mqtt-acl")
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        try "pw\n".write(toFile: secrets + "/password", atomically: true, encoding: .utf8)
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = boards/hall-2/list
            mqtt-user = hall-2
            mqtt-password-file = \(secrets)/password
            mqtt-client-id = hall-2
            [mqtt]
            commands = true
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.wait(socket) { $0.items == 3 }?.items == 3, "the list came: \(run.log)")
        let status = try #require(try broker.first("panel-refresh/hall-2/status", timeout: 5, user: ("operator", "pw")),
                                  "its status is written, and the operator reads it")
        #expect(status.hasPrefix(#"{"online":true"#))
        #expect(!run.log.contains("refused"), "\(run.log)")
        // The server may not command (it writes only boards/#): nothing happens; the operator may.
        try broker.publish("panel-refresh/hall-2/command", "blank", user: ("board-server", "pw"))
        #expect(try Self.wait(socket, timeout: 1.5) { $0.state == "blank" }?.state == "showing")
        try broker.publish("panel-refresh/hall-2/command", "blank", user: ("operator", "pw"))
        #expect(try Self.wait(socket) { $0.state == "blank" }?.state == "blank", "\(run.log)")
    }

    @Test("a list topic with nothing retained: 10 s after the connection the list's place says it waits for the list and ctl status says why; the first list published then shows")
    func nothingRetained() throws {
        let broker = try TestBroker()
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = board/empty
            mqtt-client-id = waiting
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(Self.subscribed(run), "\(run.log)")
        #expect(try Self.status(socket)?.state == "refreshing")
        let failed = try Self.wait(socket, timeout: 15) { $0.state == "failed" }
        #expect(failed?.state == "failed", "\(run.log)")
        let (_, out, _) = try runProgram(["ctl", "status", "--socket", socket])
        let json = String(decoding: out, as: UTF8.self)
        #expect(json.contains("mqtt topic board/empty has no list yet") && json.contains("with retain?"), "\(json)")
        #expect(run.wait(for: "nothing on board/empty in the 10 s since the connection"), "\(run.log)")
        try broker.publish("board/empty", Self.items(2, "late"))
        #expect(try Self.wait(socket) { $0.items == 2 }?.state == "showing", "\(run.log)")
    }

    @Test("mqtts to a certificate the given CA did not sign, one for another name, or one expired: the journal and ctl status say which and what to set, not only that a TLS error occurred")
    func tlsWords() throws {
        let pki = try TestCertificates()
        defer { try? FileManager.default.removeItem(atPath: pki.folder) }
        // A second broker whose certificate names elsewhere.example only, signed by itself.
        let (code, _, err) = try runProgram(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=elsewhere.example",
                                             "-addext", "subjectAltName=DNS:elsewhere.example", "-keyout", pki.folder + "/elsewhere.key",
                                             "-out", pki.folder + "/elsewhere.pem"], executable: "/usr/bin/openssl")
        #expect(code == 0, "\(err)")
        // A third whose certificate, signed by the trusted CA, ran out in 2020 (openssl ca sets its dates).
        let folder = pki.folder
        try FileManager.default.createDirectory(atPath: folder + "/db", withIntermediateDirectories: true)
        try "".write(toFile: folder + "/db/index", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: folder + "/db/serial", atomically: true, encoding: .utf8)
        try """
            [ca]
            default_ca = old
            [old]
            database = \(folder)/db/index
            serial = \(folder)/db/serial
            new_certs_dir = \(folder)/db
            default_md = sha256
            policy = any
            x509_extensions = names
            [any]
            commonName = supplied
            [names]
            subjectAltName = DNS:localhost,IP:127.0.0.1
            """.write(toFile: folder + "/ca.cnf", atomically: true, encoding: .utf8)
        for arguments in [["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", folder + "/old.key", "-out", folder + "/old.csr"],
                          ["ca", "-batch", "-config", folder + "/ca.cnf", "-cert", folder + "/ca.pem", "-keyfile", folder + "/ca.key",
                           "-in", folder + "/old.csr", "-out", folder + "/old.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z"]] {
            let (made, _, why) = try runProgram(arguments, executable: "/usr/bin/openssl")
            #expect(made == 0, "\(why)")
        }
        let expired = try TestBroker(["cafile \(pki.folder)/ca.pem", "certfile \(pki.folder)/old.pem", "keyfile \(pki.folder)/old.key"])
        let signed = try TestBroker(["cafile \(pki.folder)/ca.pem", "certfile \(pki.folder)/server.pem", "keyfile \(pki.folder)/server.key"])
        let elsewhere = try TestBroker(["cafile \(pki.folder)/elsewhere.pem", "certfile \(pki.folder)/elsewhere.pem",
                                        "keyfile \(pki.folder)/elsewhere.key"])
        for (port, ca, says) in [(signed.port, "other-ca.pem", "the broker's certificate is not trusted"),
                                 (elsewhere.port, "elsewhere.pem", "the broker's certificate is not for 127.0.0.1"),
                                 (expired.port, "ca.pem", "the broker's certificate has expired")] {
            let (run, dir, socket) = try startControlledKiosk("""
                [data]
                mqtt-url = mqtts://127.0.0.1:\(port)
                mqtt-ca-file = \(pki.folder)/\(ca)
                mqtt-client-id = tls-\(port)
                """)
            defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
            #expect(run.wait(for: says, timeout: 15), "\(run.log)")
            let watch = Stopwatch()
            var problem: String?
            while !(problem?.contains(says) ?? false) && watch.elapsed < 10 {
                problem = try Self.broker(socket)?.problem
                usleep(100_000)
            }
            #expect(problem?.contains(says) == true, "\(String(describing: problem))")
            if ca == "other-ca.pem" { #expect(problem?.contains("set data.mqtt-ca-file") == true) }
        }
    }

    @Test("over the broker: screenshot publishes the glass as PNG, one each 10 s; every command's outcome and each refusal with its reason go to the reply topic")
    func screenshotAndReplies() throws {
        let broker = try TestBroker()
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-client-id = support
            [mqtt]
            commands = true
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing", "\(run.log)")
        #expect(Self.subscribed(run), "\(run.log)")
        // Blank, the glass shows nothing: a screenshot is refused with why, not a stale picture.
        let blank = try broker.messages("panel-refresh/support/reply", count: 2, timeout: 10) {
            try broker.publish("panel-refresh/support/command", "blank")
            #expect(try Self.wait(socket) { $0.state == "blank" }?.state == "blank")
            try broker.publish("panel-refresh/support/command", "screenshot")
        }
        #expect(blank.first == "ok blank" && blank.last?.hasPrefix("refused screenshot: the panel is blank") == true, "\(blank)")
        try broker.publish("panel-refresh/support/command", "wake")
        #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing")
        let png = try broker.rawMessage("panel-refresh/support/screenshot", timeout: 10) {
            try broker.publish("panel-refresh/support/command", "screenshot")
        }
        #expect(png.map { Array($0.prefix(8)) } == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG")
        #expect((png?.count ?? 0) > 1000 && (png?.count ?? .max) <= FleetLink.maxScreenshotBytes)
        let replies = try broker.messages("panel-refresh/support/reply", count: 3, timeout: 10) {
            try broker.publish("panel-refresh/support/command", "screenshot")
            try broker.publish("panel-refresh/support/command", "brightness 150")
            try broker.publish("panel-refresh/support/command", "reboot")
        }
        #expect(replies.count == 3, "\(replies)")
        #expect(replies.contains { $0.hasPrefix("refused screenshot: one each 10 s") }, "a second within 10 s: \(replies)")
        #expect(replies.contains("refused brightness 150: brightness takes a percent from 1 to 100, or auto"), "\(replies)")
        #expect(replies.contains { $0.hasPrefix("refused reboot: unknown") }, "\(replies)")
    }

    @Test("a screenshot larger than mqtt.screenshot-max-kb is refused on the reply topic with its size; nothing goes on the screenshot topic")
    func screenshotCap() throws {
        let broker = try TestBroker()
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-client-id = capped
            [mqtt]
            commands = true
            screenshot-max-kb = 16
            """, size: "800x480")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing", "\(run.log)")
        #expect(Self.subscribed(run), "\(run.log)")
        let whole = try runProgram(["ctl", "screenshot", "-", "--socket", socket]).1
        #expect(whole.count > 16 * 1024, "the glass as PNG is \(whole.count) bytes")
        let replies = try broker.messages("panel-refresh/capped/reply", count: 1, timeout: 10) {
            try broker.publish("panel-refresh/capped/command", "screenshot")
        }
        #expect(replies.first?.hasPrefix("refused screenshot: the PNG is ") == true && replies.first?.contains("over the 16384") == true, "\(replies)")
        #expect(try broker.rawMessage("panel-refresh/capped/screenshot", timeout: 1) == nil)
    }

    @Test("two kiosks with one client id: each is told, and they take the connection from each other less and less often")
    func sharedClientID() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", Self.items(2, "twin"), retain: true)
        let config = """
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = board/list
            mqtt-client-id = twin
            """
        let (first, firstDir, _) = try startControlledKiosk(config)
        defer { kill(first.process.processIdentifier, SIGKILL); _ = first.finish(timeout: 5); try? FileManager.default.removeItem(atPath: firstDir) }
        #expect(first.wait(for: "mqtt: connected", timeout: 10), "\(first.log)")
        let (second, secondDir, _) = try startControlledKiosk(config)
        defer { kill(second.process.processIdentifier, SIGKILL); _ = second.finish(timeout: 5); try? FileManager.default.removeItem(atPath: secondDir) }
        #expect(second.wait(for: "mqtt: connected", timeout: 10), "\(second.log)")
        let hint = "does another client use the id twin? Each panel needs its own"
        #expect(first.wait(for: hint, timeout: 5), "\(first.log)")
        // Each loss within a minute of connecting is one more failure in a row: the waits are
        // drawn from [1/2, 1] of 1, 2, 4, 8 s, so in 8 s after both were connected the two
        // connect again at most 6 times (0.5, 1, 2, 3, 5, 7 s at the shortest draws); a back-off
        // that began anew at each connection would take it every second or sooner: 8 or more.
        let logs = [first.readLog(for: 8), second.readLog(for: 0.1)]
        let connections = logs.map { $0.components(separatedBy: "mqtt: connected to").count - 1 }.reduce(0, +)
        #expect(connections >= 3 && connections <= 8, "\(connections) connections:\n\(logs[0])\n\(logs[1])")
        #expect(second.log.contains(hint), "\(second.log)")
    }

    @Test("a broker restarted within a minute of the connection: the journal says the connection was lost and the panel connects again, with no word of another client's id")
    func brokerRestart() throws {
        let broker = try TestBroker()
        let (run, dir, _) = try startControlledKiosk("""
            [data]
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-client-id = restarted
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "mqtt: connected", timeout: 10), "\(run.log)")
        try broker.restart()
        #expect(run.wait(for: "connection lost", timeout: 10), "\(run.log)")
        let watch = Stopwatch()
        while run.log.components(separatedBy: "mqtt: connected to").count < 3 && watch.elapsed < 15 { _ = run.readLog(for: 0.2) }
        #expect(run.log.components(separatedBy: "mqtt: connected to").count == 3, "connected again: \(run.log)")
        #expect(!run.log.contains("does another client use the id"), "\(run.log)")
    }

    @Test("a trigger message refreshes an HTTP source within trigger-jitter, once")
    func trigger() throws {
        let broker = try TestBroker()
        let server = try DocumentServer(document(["a", "b"]))
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            source = http
            url = \(server.url)
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            [refresh]
            trigger-topic = fleet/refresh
            trigger-jitter = 1
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.wait(socket) { $0.items == 2 }?.items == 2, "\(run.log)")
        #expect(Self.subscribed(run), "\(run.log)")
        server.publish(document(["a", "b", "c"]))
        let before = server.requests.count
        let watch = Stopwatch()
        try broker.publish("fleet/refresh", "now")
        while server.requests.count == before && watch.elapsed < 5 { usleep(20_000) }
        // The jitter's second, plus the broker's and the loop's milliseconds.
        #expect(server.requests.count == before + 1 && watch.elapsed <= 1.5, "\(server.requests.count - before) requests after \(watch.elapsed) s")
        #expect(try Self.wait(socket) { $0.items == 3 }?.items == 3)
        usleep(1_500_000)
        #expect(server.requests.count == before + 1, "one trigger, one request")
    }

    @Test("rows.tap = publish: each tap of the fast-taps recording publishes its row's item to the tap topic")
    func taps() throws {
        let broker = try TestBroker()
        let items = try scratchDirectory("mqtt-taps") + "/items.json"
        try Self.items(20, "row").write(toFile: items, atomically: true, encoding: .utf8)
        let dir = try scratchDirectory("mqtt-tap-kiosk")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            [display]
            backend = headless
            headless-size = 480x800
            [state]
            directory = \(dir)
            control-socket = none
            [data]
            source = file
            file = \(items)
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-client-id = tapper
            [rows]
            tap = publish
            """.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        var run: ProgramRun?
        let taps = try broker.messages("panel-refresh/tapper/tap", count: 9, timeout: 20) {
            run = try ProgramRun(["run", "--config", dir + "/config", "--trace", dir + "/trace",
                                  "--play", fixtures + "/03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu"])
        }
        defer { if let run { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5) } }
        // The trace's line follows the publish (the message can be here before the line is).
        func published() throws -> [Substring] {
            try fileText(dir + "/trace").split(separator: "\n").filter { $0.contains("\"kind\":\"command\"") && $0.contains("published to panel-refresh/tapper/tap") }
        }
        let watch = Stopwatch()
        while try published().count < taps.count && watch.elapsed < 5 { usleep(20_000) }
        let published = try published()
        #expect(taps.count == 9 && published.count == 9, "\(taps.count) messages, \(published.count) traced: \(run?.log ?? "")")
        #expect(taps.allSatisfy { $0.hasPrefix("{") && $0.contains("\"title\":\"row ") })
    }

    @Test("10,000 unknown commands: each of the first 8 words said once, then once that no more are said; a known one still acts")
    func unknownCommands() throws {
        let broker = try TestBroker()
        let (run, dir, socket) = try startControlledKiosk("""
            [data]
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-client-id = flooded
            [mqtt]
            commands = true
            """)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing", "\(run.log)")
        #expect(Self.subscribed(run), "\(run.log)")
        // One message per line (mosquitto_pub -l): 10,000 words, 2,000 of them different.
        let lines = (0..<10_000).map { "bogus-\($0 % 2000)" }.joined(separator: "\n") + "\n"
        let (code, _, err) = try runProgram(["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-l", "-t", "panel-refresh/flooded/command"],
                                            executable: "/usr/bin/mosquitto_pub", input: Array(lines.utf8))
        #expect(code == 0, "\(err)")
        #expect(run.wait(for: "more unknown commands", timeout: 20), "\(run.log.suffix(2000))")
        // What comes after the flood (the broker may drop some of a burst for a slow client:
        // its max_queued_messages) is heard as before.
        try broker.publish("panel-refresh/flooded/command", "blank")
        #expect(try Self.wait(socket) { $0.state == "blank" }?.state == "blank", "\(run.log.suffix(2000))")
        let log = run.readLog(for: 0.5)
        let said = log.split(separator: "\n").filter { $0.contains("unknown command \"") }.count
        let more = log.split(separator: "\n").filter { $0.contains("more unknown commands") }.count
        #expect(said == 8 && more == 1, "\(said) lines of unknown commands, \(more) of more: \(log.suffix(2000))")
    }

    @Test("commands on the command topic: ignored unless mqtt.commands is true, and the first said to be ignored, once; then blank and wake act as ctl's")
    func commands() throws {
        let broker = try TestBroker()
        for allowed in [false, true] {
            let (run, dir, socket) = try startControlledKiosk("""
                [data]
                mqtt-url = mqtt://127.0.0.1:\(broker.port)
                mqtt-client-id = commanded
                [mqtt]
                commands = \(allowed)
                """)
            defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
            #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing", "\(run.log)")
            #expect(Self.subscribed(run), "\(run.log)")
            try broker.publish("panel-refresh/commanded/command", "blank")
            let after = try Self.wait(socket, timeout: allowed ? 5 : 1.5) { $0.state == "blank" }
            #expect((after?.state == "blank") == allowed, "commands = \(allowed): \(String(describing: after))")
            if !allowed {
                try broker.publish("panel-refresh/commanded/command", "refresh")
                #expect(run.wait(for: "mqtt.commands is off: commands are ignored"), "\(run.log)")
                let log = run.readLog(for: 0.5)
                #expect(log.components(separatedBy: "commands are ignored").count == 2, "said once for two commands: \(log)")
            }
            if allowed {
                try broker.publish("panel-refresh/commanded/command", "wake")
                #expect(try Self.wait(socket) { $0.state == "showing" }?.state == "showing")
            }
        }
    }
}

/// The broker's silence on the glass, in virtual time over a real broker: the kiosk's clock
/// moves only here, the broker's socket is polled for real between the steps.
@MainActor
@Suite("The kiosk on a broker in virtual time: the reader's place, the offline banner", .enabled(if: haveMosquitto, "needs Debian's mosquitto, mosquitto-clients and libmosquitto1 (scripts/bootstrap installs them)"),
       .serialized)
struct MQTTBannerTests {
    /// Steps of 0.1 s of virtual time, each after up to 10 ms of waiting for the broker.
    static func run(_ kiosk: Kiosk, seconds: Double) {
        let host = kiosk.host
        let time = VirtualTimeDriver(host)
        for _ in 0..<Int(seconds * 10) {
            if let link = kiosk.fleet, let fd = link.descriptor {
                var entry = pollfd(fd: fd, events: Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
                _ = poll(&entry, 1, 10)
                if entry.revents & Int16(POLLOUT) != 0 { host.writable(link, fd, at: host.now) }
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { host.readable(link, fd, at: host.now) }
            }
            time.advance(by: 0.1)
        }
    }

    /// A started kiosk in virtual time on `broker`'s `board/list`, its link made as the panel's
    /// is; `settings`: more configuration.
    static func kiosk(_ broker: TestBroker, _ settings: [(String, String)], width: Int, height: Int, name: String) throws -> Kiosk {
        var c = KioskConfiguration()
        for (key, value) in [("data.source", "mqtt"), ("data.mqtt-url", "mqtt://127.0.0.1:\(broker.port)"), ("data.mqtt-topic", "board/list")] + settings {
            try c.set(key, value)
        }
        c.stateDirectory = try scratchDirectory("mqtt-" + name)
        var machine = MachineEnvironment.neutral
        machine.machineID = name
        let kiosk = try Kiosk.virtual(configuration: c, display: HeadlessDisplay(width: width, height: height), fonts: FontLibrary(),
                                      machine: machine, connectsBroker: true)
        kiosk.start(at: 0)
        return kiosk
    }

    @Test("a refused password: each try waits longer, d/2 to d with d = 1, 2, 4, 8 s")
    func backoffGrows() throws {
        let broker = try TestBroker(users: [("panel", "right")])
        var connection = MQTTConnection.Settings(host: "127.0.0.1", port: Int(broker.port), clientID: "refused")
        connection.credentials = ("panel", "wrong")
        // The tries connect in virtual time: each at the step it was asked, before the tick.
        let clock = ManualClock()
        let executor = VirtualExecutor(clock: clock)
        let link = FleetLink(FleetLink.Settings(connection: connection, listTopic: nil, statusTopic: "s", staleAfter: 120), seed: "backoff", now: 0,
                             executor: executor)
        var now = 0.0, waits: [Int: Double] = [:]
        while now < 40 && waits.count < 4 {
            clock.advance(to: now)
            executor.deliver(upTo: now)
            link.tick(at: now)
            if let fd = link.descriptor {
                var entry = pollfd(fd: fd, events: Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
                _ = poll(&entry, 1, 10)
                if entry.revents & Int16(POLLOUT) != 0 { link.writable(fd, at: now) }
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { link.readable(fd, at: now) }
            }
            if case .waiting(let retry, let failures, let reason) = link.state, failures > 0, waits[failures] == nil {
                #expect(reason.contains("Not authorized"), "\(reason)")
                waits[failures] = retry - now
            }
            now += 0.05
        }
        for n in 1...4 {
            let ceiling = Double(1 << (n - 1))
            let wait = try #require(waits[n], "failure \(n) came: \(waits)")
            #expect(wait >= ceiling / 2 - 0.05 && wait <= ceiling, "failure \(n): \(wait) s")
        }
    }

    @Test("scrolled to row 40, a message that adds 3 items on top keeps row 40's item where it was on the glass")
    func keptPlace() throws {
        let broker = try TestBroker()
        func list(_ ids: [Int]) -> String { "[" + ids.map { #"{"id":"id-\#($0)","title":"Item \#($0)","subtitle":"Subtitle \#($0)"}"# }.joined(separator: ",") + "]" }
        try broker.publish("board/list", list(Array(1...100)), retain: true)
        let kiosk = try Self.kiosk(broker, [("data.page-size", "200"), ("refresh.quiet-after-touch", "0")], width: 480, height: 800, name: "place")
        Self.run(kiosk, seconds: 2)
        let session = kiosk.list
        #expect(session.items.count == 100)
        session.list.contentOffset = Point(x: 0, y: 40 * 72 - 30)
        Self.run(kiosk, seconds: 0.5)
        let item = session.items[40]
        let y = session.list.rectForRow(40).minY - session.list.contentOffset.y
        try broker.publish("board/list", list([1001, 1002, 1003] + Array(1...100)), retain: true)
        Self.run(kiosk, seconds: 2)
        #expect(session.items.count == 103)
        let row = try #require(session.items.firstIndex(of: item))
        #expect(row == 43 && session.list.rectForRow(row).minY - session.list.contentOffset.y == y, "the item stays where it was")
    }

    @Test("the broker gone: after stale-after the banner says since when, the rows stay; back, it goes")
    func offlineBanner() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", MQTTProgramTests.items(3, "kept"), retain: true)
        let kiosk = try Self.kiosk(broker, [("mqtt.stale-after", "5")], width: 320, height: 240, name: "banner")
        let link = try #require(kiosk.fleet)
        Self.run(kiosk, seconds: 3)
        let session = kiosk.list
        #expect(session.items.count == 3)
        #expect(session.banner.isHidden)
        broker.stop()
        Self.run(kiosk, seconds: 3)
        #expect(session.banner.isHidden, "not yet: 3 s of 5")
        Self.run(kiosk, seconds: 4)
        #expect(!session.banner.isHidden && session.banner.label.text.hasPrefix("offline since "), "\(session.banner.label.text)")
        #expect(session.items.count == 3, "the rows stay")
        let again = try TestBroker(port: broker.port)
        Self.run(kiosk, seconds: 70)
        #expect(session.banner.isHidden, "reconnected within the back-off's 60 s: \(link.state)")
        _ = again
    }
}
