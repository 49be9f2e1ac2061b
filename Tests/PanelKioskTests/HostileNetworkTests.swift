import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// Whether this process may make a mount namespace and bind a resolver's port (root, with
/// `unshare`): a kiosk then runs with an /etc/resolv.conf of the test's own.
let canFakeResolver: Bool = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    && (try? shell("/usr/bin/unshare", ["-m", "/bin/true"]).status) == 0

/// The network as bad luck and attackers make it: a resolver that never answers, a redirect to
/// another host.
@Suite("What breaks on the network: a resolver that never answers, a redirect elsewhere")
struct HostileNetworkTests {
    @Test("the broker's name is resolved off the loop: with a resolver that never answers, the kiosk answers ctl within a second all along, and says it is connecting",
          .enabled(if: canFakeResolver, "needs root and unshare (a mount namespace for a resolv.conf of the test's own)"))
    func silentResolver() throws {
        // A name server that takes every question and answers none, on a loopback address of
        // its own (127.0.0.53 may be systemd-resolved's).
        let server = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(53).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.77")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0, "bind 127.0.0.77:53: errno \(errno)")
        // The kiosk in a mount namespace whose /etc/resolv.conf names the silent server.
        let (run, dir, control) = try startControlledKiosk("""
            [data]
            source = mqtt
            mqtt-url = mqtt://broker.invalid-by-test.example:1883
            mqtt-topic = board/list
            """) { dir in
            try? "nameserver 127.0.0.77\noptions timeout:5 attempts:2\n".write(toFile: dir + "/resolv.conf", atomically: true, encoding: .utf8)
            return ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", dir + "/resolv.conf"]
        }
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "control: panel-refresh ctl answers", timeout: 15), "\(run.log)")
        // 12 s: past the resolver's 10 s (two tries of 5 s) for the first connection try.
        let watch = Stopwatch()
        var slowest = 0.0, answers = 0, connecting = false
        while watch.elapsed < 12 {
            let asked = Stopwatch()
            if case .ok(let payload)? = try? ControlClient.request(.status, path: control, timeout: 5) {
                answers += 1
                if String(decoding: payload, as: UTF8.self).contains("connecting") { connecting = true }
            }
            slowest = max(slowest, asked.elapsed)
            usleep(200_000)
        }
        #expect(answers >= 20, "the kiosk answered \(answers) times in 12 s: \(run.log)")
        #expect(slowest < 1, "the slowest answer took \(slowest) s (the loop waited on the resolver)")
        #expect(connecting, "ctl status said the broker is connecting")
    }

    @Test("a redirect to another host takes only the header file's headers named in data.redirect-headers, and neither user nor password; a redirect home takes them all")
    @MainActor
    func redirectHeaders() throws {
        let requests = Locked<[String]>([])
        let elsewhere = try LoopbackServer { server, client, request in
            requests.withLock { $0.append("elsewhere " + request) }
            _ = server.send(client, "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nConnection: close\r\n\r\n[{\"title\":\"b\"}]")
        }
        let home = try LoopbackServer(connections: 2) { server, client, request in
            requests.withLock { $0.append("home " + request) }
            let next = request.hasPrefix("GET /list") ? "/moved" : "http://127.0.0.1:\(elsewhere.port)/list"
            _ = server.send(client, "HTTP/1.1 302 Found\r\nLocation: \(next)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let dir = try scratchDirectory("redirect-headers")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "X-Api-Key: s3cret-key\nAccept-Language: de\n".write(toFile: dir + "/headers", atomically: true, encoding: .utf8)
        let executor = VirtualExecutor(clock: ManualClock())
        let source = HTTPItemSource(url: "http://panel:pa55word@127.0.0.1:\(home.port)/list", timeout: 10, executor: executor)
        source.headerFile = dir + "/headers"
        source.redirectHeaders = ["accept-language"]
        var got: Result<ItemPage, Error>?
        source.load(page: 0, pageSize: 50) { got = $0 }
        executor.deliver(upTo: 0)
        #expect(try got?.get().items.map(\.title) == ["b"])
        let seen = requests.withLock { $0 }
        let homeRequests = seen.filter { $0.hasPrefix("home ") }, away = seen.filter { $0.hasPrefix("elsewhere ") }
        #expect(homeRequests.count == 2 && away.count == 1, "\(seen)")
        for request in homeRequests {
            #expect(request.contains("X-Api-Key: s3cret-key") && request.contains("Accept-Language: de") && request.contains("Authorization: Basic"),
                    "the URL's own origin gets every header: \(request)")
        }
        let other = away.first ?? ""
        #expect(other.contains("Accept-Language: de"), "a header named in data.redirect-headers follows: \(other)")
        #expect(!other.contains("s3cret-key") && !other.contains("Authorization"), "a key and a password stay home: \(other)")
    }
}
