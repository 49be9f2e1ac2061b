import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// Work that leaves the loop comes back through one executor, as an entry of the host's own at
/// its arrival time (arrive, apply, draw): in virtual time at the time the test chooses, in real
/// time when the worker is done. Before, an answer was applied at the time of the last entry and
/// then a whole host tick ran inside the data source's completion, so a broker message that came
/// during a parse started the next refresh inside the end of this one.
@MainActor
@Suite("Work off the loop comes back as an entry at its arrival", .serialized)
struct WorkArrivalTests {
    /// A list document of `count` items, `tag` in their titles.
    static func document(_ count: Int, _ tag: String) -> [UInt8] {
        Array(("[" + (1...count).map { #"{"id":"\#(tag)-\#($0)","title":"\#(tag) \#($0)"}"# }.joined(separator: ",") + "]").utf8)
    }

    /// What STATUS said, in order, each line without what follows its first "; " (a broker's
    /// trouble), one line said again in a row counted once.
    static func statuses(_ notifier: RecordingNotifier) -> [String] {
        var said: [String] = []
        for message in notifier.messages where message.hasPrefix("STATUS=") {
            let line = message.components(separatedBy: "; ")[0]
            if said.last != line { said.append(line) }
        }
        return said
    }

    /// The times of the trace's frame lines that show `rows` rows.
    static func frames(_ trace: [TraceEvent], rows: Int) -> [Double] {
        trace.compactMap { if case let .frame(t, _, _, count, _) = $0, count == rows { t } else { nil } }
    }

    @Test("virtual time: parses take 0.5 s; a broker message during one starts the next refresh only when this one has ended, each answer applied at its arrival")
    func virtualTime() throws {
        var c = KioskConfiguration()
        for (key, value) in [("data.source", "mqtt"), ("data.mqtt-url", "mqtt://127.0.0.1:9"), ("data.mqtt-topic", "board/list"),
                             ("data.page-size", "100"), ("refresh.quiet-after-touch", "0")] {
            try c.set(key, value)
        }
        c.stateDirectory = try scratchDirectory("arrival-virtual")
        let notifier = RecordingNotifier()
        let kiosk = try Kiosk.virtual(configuration: c, display: HeadlessDisplay(width: 320, height: 480), notifier: notifier,
                                      connectsBroker: true)
        let host = kiosk.host, list = kiosk.list
        let link = try #require(kiosk.fleet)
        let executor = try #require(host.virtualExecutor)
        executor.latency = 0.5
        let time = VirtualTimeDriver(host)
        kiosk.start(at: 0)
        time.advance(to: 1)
        // The messages come as the broker's socket brings them: an entry each.
        func message(_ payload: [UInt8], at t: Double) {
            time.advance(to: t)
            host.entry(at: t) { link.received(topic: "board/list", payload: payload, at: t) }
        }
        message(Self.document(3, "A"), at: 1)
        time.advance(to: 1.49)
        #expect(list.items.isEmpty, "the parse takes 0.5 s")
        time.advance(to: 1.5)
        #expect(list.items.count == 3, "applied at its arrival, 1.5 s")
        message(Self.document(5, "B"), at: 2)
        message(Self.document(7, "C"), at: 2.2)
        time.advance(to: 2.49)
        #expect(list.items.count == 3 && list.isRefreshing, "B is still being parsed; C waits")
        time.advance(to: 2.5)
        #expect(list.items.count == 5, "B applied at 2.5")
        time.advance(to: 3)
        #expect(list.items.count == 7, "C's refresh began when B's ended, and its answer came 0.5 s later")

        let refreshes = list.trace.compactMap { if case let .refresh(t, _) = $0 { t } else { nil } }
        #expect(refreshes.count == 3 && refreshes.suffix(2) == [2, 2.5], "the start's, B's, C's (not during B's parse): \(refreshes)")
        #expect(Self.frames(list.trace, rows: 5).first == 2.5 && Self.frames(list.trace, rows: 7).first == 3)
        #expect(Self.frames(list.trace, rows: 7).allSatisfy { $0 >= 3 } && Self.frames(list.trace, rows: 5).allSatisfy { $0 >= 2.5 })
        let said = Self.statuses(notifier)
        let b = try #require(said.firstIndex(of: "STATUS=showing 5 items"))
        #expect(said[b...].prefix(3) == ["STATUS=showing 5 items", "STATUS=refreshing", "STATUS=showing 7 items"],
                "B's end told before C's refresh: \(said)")
    }

    /// A kiosk of `c` on the real-time executor and clock, on a headless display, telling
    /// `notifier`; `fleet`: its broker link, made on the host's executor.
    static func realTimeKiosk(_ c: KioskConfiguration, notifier: RecordingNotifier, broker: Bool = false) throws -> Kiosk {
        let display = HeadlessDisplay(width: 320, height: 480)
        let host = KioskHost(configuration: c.host, display: display, clock: MonotonicClock.makeClock(), executor: RealTimeExecutor(),
                             fonts: try FontLibrary(), notifier: notifier, stopwatch: MonotonicClock.stopwatch, announcesContent: false)
        var fleet: FleetLink?
        if broker, let settings = try FleetLink.settings(for: c, machineID: "arrival") {
            fleet = FleetLink(settings, seed: "arrival", now: host.clock.now, executor: host.executor)
        }
        return try Kiosk(host: host, configuration: c, machine: .neutral, control: nil, fleet: fleet, announces: false) { [fleet] c, animator, executor in
            RunCommand.source(for: c, animator: animator, executor: executor, mqtt: fleet?.list)
        }
    }

    /// `kiosk` started on a real-time driver on the main queue (which runs while the test
    /// waits); the test stops it.
    static func driven(_ kiosk: Kiosk) -> RealTimeDriver {
        let driver = RealTimeDriver(kiosk.host)
        driver.takesSignals = false
        driver.start()
        return driver
    }

    /// Lets the main queue run until `done` holds (at most `timeout` seconds).
    static func wait(timeout: Double = 20, until done: () -> Bool) async -> Bool {
        let watch = Stopwatch()
        while !done() && watch.elapsed < timeout { try? await Task.sleep(for: .milliseconds(10)) }
        return done()
    }

    @Test("real time, a loopback server answering after 0.4 s while the loop sleeps: the answer is applied at an entry of its own, at the time it arrived (not at the last entry's)")
    func realTimeServer() async throws {
        let server = try DocumentServer(String(decoding: Self.document(4, "A"), as: UTF8.self))
        server.delay(by: 0.4)
        var c = KioskConfiguration()
        for (key, value) in [("data.source", "http"), ("data.url", server.url), ("refresh.every", "1"), ("refresh.jitter", "0"),
                             ("refresh.quiet-after-touch", "0")] {
            try c.set(key, value)
        }
        c.stateDirectory = try scratchDirectory("arrival-server")
        let notifier = RecordingNotifier()
        let kiosk = try Self.realTimeKiosk(c, notifier: notifier)
        let list = kiosk.list
        let driver = Self.driven(kiosk)
        defer { driver.stop() }
        #expect(await Self.wait { list.items.count == 4 && !list.isRefreshing && kiosk.host.stage.isIdle })
        // The next document; the timer's silent refresh asks for it, and nothing moves while
        // the server takes its 0.4 s: the loop sleeps.
        server.publish(String(decoding: Self.document(5, "B"), as: UTF8.self))
        var applied: (host: Double, machine: Double)?
        let previous = list.onItemsChanged
        list.onItemsChanged = {
            // Read before anything the change sets off (the old code ran a whole tick from here).
            if list.items.count == 5 { applied = applied ?? (kiosk.host.now, MonotonicClock.now()) }
            previous?()
        }
        #expect(await Self.wait { list.items.count == 5 && !Self.frames(list.trace, rows: 5).isEmpty })
        let (at, now) = try #require(applied)
        #expect(now - at < 0.1, "the host's clock was at the answer's arrival (\(now - at) s behind), not at the entry that asked")
        #expect(Self.statuses(notifier).suffix(2) == ["STATUS=refreshing", "STATUS=showing 5 items"])
    }

    @Test("real time, a broker: a message that comes while the last one is parsed starts its refresh when that one has ended, told in order",
          .enabled(if: haveMosquitto, "needs Debian's mosquitto, mosquitto-clients and libmosquitto1 (scripts/bootstrap installs them)"))
    func realTimeBroker() async throws {
        let broker = try TestBroker()
        var c = KioskConfiguration()
        for (key, value) in [("data.source", "mqtt"), ("data.mqtt-url", "mqtt://127.0.0.1:\(broker.port)"), ("data.mqtt-topic", "board/list"),
                             ("data.page-size", "1000")] {
            try c.set(key, value)
        }
        c.stateDirectory = try scratchDirectory("arrival-broker")
        let notifier = RecordingNotifier()
        let kiosk = try Self.realTimeKiosk(c, notifier: notifier, broker: true)
        let list = kiosk.list
        try broker.publish("board/list", String(decoding: Self.document(3, "A"), as: UTF8.self), retain: true)
        let driver = Self.driven(kiosk)
        defer { driver.stop() }
        // A's refresh wholly over (its header closed): B then starts one of its own.
        #expect(await Self.wait { list.items.count == 3 && !list.isRefreshing })
        // B is large (its parse takes a while on the worker); C comes right behind it.
        let folder = try scratchDirectory("arrival-documents")
        try Data(Self.document(20_000, "B")).write(to: URL(fileURLWithPath: folder + "/b.json"))
        try broker.publish("board/list", file: folder + "/b.json")
        try broker.publish("board/list", String(decoding: Self.document(7, "C"), as: UTF8.self))
        #expect(await Self.wait { list.items.count == 7 })
        let said = Self.statuses(notifier)
        let b = try #require(said.firstIndex(of: "STATUS=showing 1000 items"), "\(said)")
        #expect(said[b...].prefix(3) == ["STATUS=showing 1000 items", "STATUS=refreshing", "STATUS=showing 7 items"],
                "B's end told before C's refresh began: \(said)")
        let refreshes = list.trace.compactMap { if case let .refresh(t, _) = $0 { t } else { nil } }
        #expect(refreshes.count == 3, "the start's, B's, C's: \(refreshes) \(said)")
        #expect(list.trace.map(\.time) == list.trace.map(\.time).sorted(), "the trace's lines in time order")
    }
}
