import Glibc
import PanelHost

/// The panel's one connection to its fleet's MQTT broker, as the configuration sets it
/// (`data.mqtt-*`, `[mqtt]`): the list's messages when `data.source = mqtt`, and with any
/// source the panel's presence, a retained status with a last will. It has no loop of its own:
/// it is a loop source (PanelHost's `LoopSource`), and the host calls ``readable(_:at:)``,
/// ``writable(_:at:)`` and ``tick(at:)`` from the real-time driver's sources and timer (or
/// virtual time), with the time of the event.
///
/// Lost connections are retried with exponential back-off and jitter: after n failures in a
/// row the wait is drawn from [d/2, d], d = min(60, 2^(n-1)) seconds (the issue's 60 s cap;
/// the jitter keeps a fleet that lost its broker together from coming back in the same
/// second, and the half floor keeps a refused panel from hammering it).
@MainActor
public final class FleetLink: LoopSource {
    /// What the link was made from.
    public struct Settings: Sendable, Equatable {
        /// The broker, the client id, credentials, TLS and the will.
        public var connection: MQTTConnection.Settings
        /// The list's topic, when the list comes from the broker.
        public var listTopic: String?
        /// Where the panel's retained status goes.
        public var statusTopic: String
        /// Seconds without the broker before the panel says it is offline.
        public var staleAfter: Double
        /// Where a tapped row's item goes (`rows.tap = publish`).
        public var tapTopic: String
        /// Where commands come from (`mqtt.command-topic`); nil: none heard.
        public var commandTopic: String?
        /// Whether they are acted on (`mqtt.commands`); off, the first is said to be ignored.
        public var commandsOn = true
        /// Where each command's outcome is published ("ok blank", "refused …: why"); nil: nowhere.
        public var replyTopic: String?
        /// Where a `screenshot` command's PNG is published.
        public var screenshotTopic: String?
        /// The largest screenshot published, bytes (`mqtt.screenshot-max-kb`).
        public var maxScreenshotBytes = FleetLink.maxScreenshotBytes
        /// Home Assistant's discovery configs, published retained at each connection (`mqtt.discovery`).
        public var discovery: [HomeAssistantDiscovery.Config] = []
        /// Config topics published before and to be cleared (discovery turned off since).
        public var discoveryCleared: [String] = []
        /// The state directory's file that says configs were published; nil: none kept.
        public var discoveryMarker: String?
        /// A message here starts a refresh after up to ``triggerJitter`` seconds; nil: none.
        public var triggerTopic: String?
        /// The longest delay before a triggered refresh, seconds.
        public var triggerJitter: Double = 5

        /// Settings for the broker at `connection`, reporting to `statusTopic`.
        public init(connection: MQTTConnection.Settings, listTopic: String?, statusTopic: String, staleAfter: Double,
                    tapTopic: String = "panel-refresh/tap") {
            (self.connection, self.listTopic, self.statusTopic, self.staleAfter) = (connection, listTopic, statusTopic, staleAfter)
            self.tapTopic = tapTopic
        }
    }

    /// Where the link stands.
    public enum State: Sendable, Equatable {
        /// Connecting since this time (the name resolved and the TCP connection made off the
        /// loop, then TLS and CONNECT), after `failures` failures in a row (a refusal or a loss
        /// of this try counts on from them).
        case connecting(since: Double, failures: Int)
        /// Connected since this time, after `failures` failures in a row before it: they count
        /// on when the broker drops it within ``shortLived`` seconds.
        case connected(since: Double, failures: Int)
        /// Waiting to try again at `retry`, after `failures` failures in a row; `reason`: the last.
        case waiting(retry: Double, failures: Int, reason: String)
    }

    /// The settings in use.
    public let settings: Settings
    /// The list as the broker pushes it (nil when the list comes from another source).
    public let list: MQTTListSource?
    /// Where the link stands.
    public private(set) var state: State
    /// When the broker was last reachable (connected), seconds of the clock; nil: never yet.
    public private(set) var lastContact: Double?
    /// Connections made since the start: the first and every reconnection.
    public private(set) var connections = 0
    /// When the broker last sent a message (the list, a trigger, a command), seconds of the clock; nil: none yet.
    public private(set) var lastMessage: Double?
    /// Hears that a new list came (the kiosk asks its list for a refresh).
    public var onList: (() -> Void)?
    /// Hears that a triggered refresh is due (its jitter waited out).
    public var onTrigger: (() -> Void)?
    /// Hears a command from the command topic (only with `mqtt.commands`).
    public var onCommand: ((ControlCommand) -> Void)?
    /// When a triggered refresh is due, seconds of the clock; nil: none waits.
    public private(set) var triggerAt: Double?
    /// The status the panel publishes, JSON without "online" (the host's `ctl status`).
    public var status: () -> String = { "{}" }
    private var connection: MQTTConnection?
    private var random: SeededRandom
    private var nextMaintain: Double?
    /// What was last published as the status (it goes again only when it changed).
    private var published: String?
    /// Refusals said once each (a wrong password would else fill the journal every minute).
    private var said = Set<String>()
    /// When the link was made: a broker never reached counts as out of reach since then.
    private let created: Double
    /// The last tick's time.
    private var lastTick = -Double.infinity
    /// Where connecting runs: a lane of its own, off the loop (a resolver that never answers
    /// blocked the loop 10 s at each try, past `WatchdogSec=10`), so that a try that waits
    /// minutes on TCP holds no shared worker.
    private let lane: WorkLane
    private let executor: any WorkExecutor
    /// A try's outcome that came back from the lane, taken at the next tick.
    private var tried: (connection: Handoff, error: MQTTError?)?
    /// Whether ``stop()`` ran: a try that comes back after it is dropped.
    private var stopped = false
    /// The unknown command words the journal named (the first 8, once each), and whether it
    /// said that no more are named.
    private var unknownWords = Set<String>()
    private var saidNoMoreUnknown = false
    /// Whether the journal was told that a command came while commands are off.
    private var saidCommandsOff = false
    /// Connections in a row the broker dropped within ``shortLived`` of their making.
    private var shortLosses = 0
    /// When the last screenshot was asked over the broker, seconds of the clock.
    private var lastScreenshot: Double?
    /// The second replies are counted in, and how many went in it.
    private var replySecond = -Double.infinity, repliesThisSecond = 0
    /// Whether a failed TLS try was looked into, and what was found.
    private var diagnosedTLS = false
    private var tlsProblem: String?
    /// The command topic's words, as the reply and the journal name them when one is unknown.
    nonisolated static let knownCommands = "refresh, blank, wake, brightness, schedule, identify, interval, theme and screenshot"
    /// Distinct unknown words the journal names: 8.
    nonisolated static let unknownWordsSaid = 8

    /// Seconds after a connection before a list topic that sent nothing is said to have no
    /// list: a retained list comes with the subscription's answer, within a round trip.
    public nonisolated static let firstListWait = 10.0

    /// Seconds between two screenshots asked over the broker: a support session's pace, not a
    /// video stream (each is the glass copied and encoded, and a message of its size).
    public nonisolated static let screenshotInterval = 10.0
    /// The largest screenshot published by default, bytes: 1 MiB (a 1080p list is a few hundred
    /// KB as PNG; a broker's message_size_limit or a mobile link may hold less).
    public nonisolated static let maxScreenshotBytes = 1 << 20

    /// Seconds a wait after failures may last at most.
    public nonisolated static let maxBackoff = 60.0

    /// A link with `settings`; it connects at the first ``tick(at:)``. `seed`: the jitter's
    /// generator (the machine id's hash, so panels differ and a test repeats); `executor`:
    /// where the list's messages are parsed (the host's).
    public init(_ settings: Settings, seed: String, now: Double, executor: any WorkExecutor) {
        self.settings = settings
        list = settings.listTopic.map { MQTTListSource(topic: $0, executor: executor) }
        random = SeededRandom(seeding: seed)
        (self.executor, lane) = (executor, executor.lane("panel-refresh.broker"))
        created = now
        state = .waiting(retry: now, failures: 0, reason: "not connected yet")
    }

    /// The settings the configuration asks for (nil without `data.mqtt-url`), the client id
    /// made from the panel's `name` and `machineID` when it names none. Reads the password file.
    public static func settings(for c: KioskConfiguration, machineID: String, name: String = "") throws -> Settings? {
        guard let broker = c.mqttBroker else { return nil }
        let id = c.mqttClientID ?? defaultClientID(name: name, machineID: machineID)
        var connection = MQTTConnection.Settings(host: broker.host, port: broker.port, clientID: id)
        connection.tls = broker.tls
        connection.tlsCAFile = c.mqttCAFile
        if let user = c.mqttUser {
            let password = try c.mqttPasswordFile.map { try HTTPItemSource.readPassword($0, key: "data.mqtt-password-file") } ?? ""
            connection.credentials = (user, password)
        }
        func topic(_ given: String?, _ fallback: String) -> String { (given ?? fallback).replacing(text: "CLIENT-ID", with: id) }
        let statusTopic = topic(c.mqttStatusTopic, "panel-refresh/CLIENT-ID/status")
        connection.will = (statusTopic, Array(Self.offline.utf8))
        var settings = Settings(connection: connection, listTopic: c.source == .mqtt ? c.mqttTopic : nil, statusTopic: statusTopic,
                                staleAfter: c.mqttStaleAfter, tapTopic: topic(c.mqttTapTopic, "panel-refresh/CLIENT-ID/tap"))
        // Subscribed with commands off too, so that a command sent there is said once to be
        // ignored, not dropped without a word.
        settings.commandTopic = topic(c.mqttCommandTopic, "panel-refresh/CLIENT-ID/command")
        settings.commandsOn = c.mqttCommands
        settings.replyTopic = topic(nil, "panel-refresh/CLIENT-ID/reply")
        settings.screenshotTopic = topic(nil, "panel-refresh/CLIENT-ID/screenshot")
        settings.maxScreenshotBytes = c.mqttScreenshotMaxKB * 1024
        // Home Assistant's configs, or the clearing of those a former start published.
        let marker = HomeAssistantDiscovery.markerPath(stateDirectory: c.stateDirectory)
        settings.discoveryMarker = marker
        if c.mqttDiscovery {
            settings.discovery = HomeAssistantDiscovery.configs(prefix: c.mqttDiscoveryPrefix, clientID: id, name: name.isEmpty ? id : name,
                                                                version: ProgramVersion.current, statusTopic: statusTopic,
                                                                commandTopic: settings.commandTopic ?? "", tapTopic: settings.tapTopic)
        } else if access(marker, F_OK) == 0 {
            settings.discoveryCleared = HomeAssistantDiscovery.topics(prefix: c.mqttDiscoveryPrefix, clientID: id)
        }
        settings.triggerTopic = c.refreshTriggerTopic.map { topic($0, $0) }
        settings.triggerJitter = c.refreshTriggerJitter
        return settings
    }

    /// `panel-` and the panel's name in lower-case letters, digits and dashes (at most 32), then
    /// 8 hex digits hashed from the machine id: the broker's log and its topics name the panel
    /// (`panel-hall-2-98a4d4d5`), and two panels of one name still differ. Without a name, the
    /// hash's 16 digits alone.
    public static func defaultClientID(name: String, machineID: String) -> String {
        let hash = String(FNV1a.hash(machineID.utf8), radix: 16).leftPadded(to: 16)
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            let plain = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if plain { slug.unicodeScalars.append(scalar) } else if !slug.isEmpty && !slug.hasSuffix("-") { slug += "-" }
        }
        slug = String(slug.prefix(32))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "panel-" + hash : "panel-\(slug)-" + hash.prefix(8)
    }

    /// A connection the broker drops sooner than this (seconds) counts as one more failure in a
    /// row, so the back-off grows: two panels with one id, each taking it from the other, wait
    /// longer each time instead of a second. A minute: the back-off's ceiling, and one keepalive.
    public nonisolated static let shortLived = 60.0

    /// What the status topic says of a panel that is gone (the last will, and a clean stop).
    public nonisolated static let offline = #"{"online":false}"#

    /// What is wrong, while something is: the reason of the wait before the next try, or the
    /// broker's last refusal of a publish (until the next connection).
    public var problem: String? {
        if case .waiting(_, let failures, let reason) = state, failures > 0 { return tlsProblem ?? reason }
        return refusal
    }
    private var refusal: String?

    /// The state's one word for `ctl status`.
    public var stateName: String {
        switch state {
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .waiting: return "waiting"
        }
    }

    /// The socket, nil while there is none.
    public var descriptor: Int32? { connection?.descriptor }
    /// The socket to watch for reading, in its generation.
    public var reading: [WatchedDescriptor] { descriptor.map { [WatchedDescriptor($0, generation: socketGeneration)] } ?? [] }
    /// The socket again while something waits to go.
    public var writing: [WatchedDescriptor] { wantsWrite ? reading : [] }
    /// Counts the sockets the link has made: a watcher of ``descriptor`` starts again when it
    /// changes, even where a new socket got the old one's number.
    public private(set) var socketGeneration = 0
    /// Whether to watch it for writing too.
    public var wantsWrite: Bool { connection?.wantsWrite ?? false }

    /// When the link needs the loop next: a retry, or the next keepalive round.
    public var nextDeadline: Double? {
        let link: Double?
        var stale: Double?
        if tried != nil {
            // A try came back: taken at once.
            link = lastTick
        } else if case .waiting(let retry, _, _) = state {
            link = retry
            // The moment the silence becomes worth saying, so the banner shows on time.
            // (Only ahead of the last tick: a moment passed would wake the loop without end.)
            stale = [(lastContact ?? created) + settings.staleAfter].first { $0 > lastTick }
        } else {
            link = nextMaintain
        }
        return [link, triggerAt, stale, firstListDue].compactMap { $0 }.min()
    }

    /// When a list topic that has sent nothing since the connection is said to have no list.
    private var firstListDue: Double? {
        guard case .connected(let since, _) = state, list?.isWaiting == true else { return nil }
        return since + Self.firstListWait
    }

    /// Since when the panel has been without its broker, once that is longer than
    /// `staleAfter` (the banner says it); nil while connected or not yet stale.
    public func offlineSince(now: Double) -> Double? {
        if case .connected = state { return nil }
        let since = lastContact ?? created
        return now - since >= settings.staleAfter ? since : nil
    }

    /// The socket is readable.
    public func readable(_ descriptor: Int32, at now: Double) {
        guard let connection, connection.descriptor == descriptor else { return }
        handle(connection.readable(), at: now)
    }

    /// The socket is writable.
    public func writable(_ descriptor: Int32, at now: Double) {
        guard let connection, connection.descriptor == descriptor else { return }
        handle(connection.writable(), at: now)
    }

    /// The timer: a retry that is due, keepalive once a second, a status that changed.
    public func tick(at now: Double) {
        lastTick = now
        if let (handoff, error) = tried {
            tried = nil
            connection = handoff.connection
            if let error {
                diagnoseTLS()
                fail("\(error)", at: now, failures: failures + 1)
            } else {
                socketGeneration += 1
                nextMaintain = now + 1
            }
        }
        if case .waiting(let retry, let failures, _) = state, now >= retry {
            connect(at: now, failures: failures)
        }
        if let due = nextMaintain, now >= due, let connection {
            nextMaintain = now + 1
            handle(connection.maintain(), at: now)
        }
        if let due = triggerAt, now >= due {
            triggerAt = nil
            onTrigger?()
        }
        if let due = firstListDue, now >= due, let list {
            Log.warning("mqtt: nothing on \(list.topic) in the \(TextFormat.number(Self.firstListWait)) s since the connection: "
                        + "no list is retained there (does the server publish it with retain?); the panel shows it when one comes")
            list.stopWaiting(seconds: Self.firstListWait)
        }
        publishStatusIfChanged()
        if list?.isBehind == true { onList?() }
    }

    /// Publishes a tapped row's item (its JSON) to the tap topic; what happened, for the trace.
    public func publishTap(_ item: Item) -> String {
        guard case .connected = state, let connection else { return "not published: the broker is not connected" }
        do throws(MQTTError) {
            try connection.publish(settings.tapTopic, item.json)
            return "published to \(settings.tapTopic)"
        } catch {
            return "not published: \(error)"
        }
    }

    /// Says goodbye: the status says offline (a clean DISCONNECT sends no will), then the
    /// connection closes.
    public func stop() {
        stopped = true
        guard let connection, case .connected = state else { return }
        try? connection.publish(settings.statusTopic, Array(Self.offline.utf8), retain: true)
        _ = connection.writable()
        connection.disconnect()
        _ = connection.writable()
    }

    /// A try: the connection (made once, used for every try) goes to the lane, which
    /// connects it; its outcome comes back as the host's entry and is taken at the next tick.
    /// The loop does not touch the connection meanwhile.
    private func connect(at now: Double, failures: Int) {
        var made: MQTTConnection
        if let connection {
            made = connection
        } else {
            do throws(MQTTError) { made = try MQTTConnection(settings.connection) } catch {
                return fail("\(error)", at: now, failures: failures + 1)
            }
        }
        connection = nil
        nextMaintain = nil
        state = .connecting(since: now, failures: failures)
        let handoff = Handoff(made)
        executor.execute(in: lane, { handoff.connect() }, then: { [weak self] error in
            guard let self, !self.stopped else { return }
            self.tried = (handoff, error)
        })
    }

    /// Waits before the next try: [d/2, d] seconds, d = min(60, 2^(failures-1)).
    private func fail(_ reason: String, at now: Double, failures: Int) {
        let ceiling = min(Self.maxBackoff, Double(1 << min(max(failures - 1, 0), 16)))
        let wait = Double.random(in: ceiling / 2 ... ceiling, using: &random)
        state = .waiting(retry: now + wait, failures: failures, reason: reason)
        nextMaintain = nil
        published = nil
        if said.insert(reason).inserted {
            Log.warning("mqtt: \(settings.connection.host):\(settings.connection.port): \(reason); trying again in \(Int(wait.rounded(.up))) s, then with back-off up to \(Int(Self.maxBackoff)) s")
        }
    }

    private func handle(_ events: [MQTTConnection.Event], at now: Double) {
        for event in events {
            switch event {
            case .connected:
                state = .connected(since: now, failures: failures)
                lastContact = now
                connections += 1
                (tlsProblem, diagnosedTLS) = (nil, false)
                refusal = nil
                Log.info("mqtt: connected to \(settings.connection.host):\(settings.connection.port) as \(settings.connection.clientID)"
                         + (settings.listTopic.map { "; the list from \($0)" } ?? "") + "; status on \(settings.statusTopic)")
                for topic in [settings.listTopic, settings.triggerTopic, settings.commandTopic].compactMap({ $0 }) {
                    do throws(MQTTError) { try connection?.subscribe(topic) } catch { Log.error("mqtt: cannot subscribe to \(topic): \(error)") }
                }
                published = nil
                publishStatusIfChanged()
                announce()
            case .refused(let reason):
                fail("the broker refused the connection: \(reason)", at: now, failures: failures + 1)
            case .message(let topic, let payload, _):
                received(topic: topic, payload: payload, at: now)
            case .oversized(let topic, let bytes):
                lastContact = now
                let why = "a message of \(bytes) bytes on \(topic) is over the \(settings.connection.maximumPayload) a message may be; "
                    + (topic == settings.listTopic ? "the list stays as it is" : "it is ignored")
                if said.insert("oversized " + topic).inserted { Log.warning("mqtt: " + why) }
            case .subscriptionRefused(let topic, let reason):
                Log.error("mqtt: the broker refused the subscription to \(topic): \(reason) (its ACL?)")
            case .publishRefused(let topic, let reason):
                let why = "the broker refused the panel's message on \(topic): \(reason) (its ACL?)"
                if refusal != why { Log.error("mqtt: " + why) }
                refusal = why
            case .disconnected(let reason):
                // A refusal is followed by the socket's close: one failure, its reason kept.
                if case .waiting = state { continue }
                socketGeneration += 1
                let lost = reason.map { "connection lost: \($0)" } ?? "disconnected"
                guard case .connected(let since, let before) = state else {
                    diagnoseTLS()
                    fail(lost, at: now, failures: failures + 1)
                    continue
                }
                lastContact = now
                guard let reason, now - since < Self.shortLived else {
                    said = []
                    shortLosses = 0
                    fail(lost, at: now, failures: 1)
                    continue
                }
                shortLosses += 1
                // Dropped soon after it was made: the failures count on, so that two clients
                // with one id (the broker gives the session to the newer one, MQTT 5's
                // "Session taken over") do not take it from each other every second. The id is
                // named for that reason, or from the second such loss in a row (Mosquitto
                // closes the older client's socket without a DISCONNECT to it): one loss, as a
                // broker restarted or a network lost gives, is no one's twin.
                let twin = reason == MQTTConnection.takenOver || shortLosses >= 2
                    ? " (does another client use the id \(settings.connection.clientID)? Each panel needs its own: /etc/machine-id, or data.mqtt-client-id)"
                    : ""
                fail("connection lost within a minute of connecting: \(reason)" + twin, at: now, failures: before + 1)
            }
        }
    }

    /// A message from the broker on `topic`: the list's, a trigger, a command (the
    /// connection's events bring them; the fuzzer's `mqtt` target too).
    public func received(topic: String, payload: [UInt8], at now: Double) {
        lastContact = now
        lastMessage = now
        if topic == settings.listTopic, let list {
            list.receive(payload)
            if list.isBehind { onList?() }
        }
        if topic == settings.triggerTopic, triggerAt == nil {
            // One refresh per burst of triggers: a second while one waits adds nothing.
            triggerAt = now + Double.random(in: 0...settings.triggerJitter, using: &random)
        }
        if topic == settings.commandTopic { command(payload, at: now) }
    }

    /// A command message: ctl's words that change the panel (`refresh`, `blank`, `wake`,
    /// `brightness N|auto`, `schedule on|off`) or `screenshot` (blanks and a newline around it
    /// allowed). Each outcome is published on the reply topic.
    private func command(_ payload: [UInt8], at now: Double) {
        let text = String(decoding: payload.prefix(200), as: UTF8.self)
        guard settings.commandsOn else {
            reply("refused \(text.prefix(40)): mqtt.commands is off")
            if !saidCommandsOff {
                saidCommandsOff = true
                Log.warning("mqtt: a command came on \(settings.commandTopic ?? ""), but mqtt.commands is off: commands are ignored "
                            + "(set mqtt.commands = true to act on them; said once)")
            }
            return
        }
        let word = TextFormat.trimmed(String(decoding: payload, as: UTF8.self), newlines: true)
        // The words ctl takes that change the panel (not those that only read it).
        let command = ControlCommand(line: word)
        switch command {
        case let command? where command.actsFromBroker: onCommand?(command)
        case .screenshot?:
            if let last = lastScreenshot, now - last < Self.screenshotInterval {
                reply("refused screenshot: one each \(TextFormat.number(Self.screenshotInterval)) s; the next from "
                      + "\(TextFormat.number((last + Self.screenshotInterval - now).rounded(.up))) s on")
                return
            }
            // Counted from one taken (publishScreenshot): a refused one cost nothing.
            onCommand?(.screenshot)
        default:
            // A known word with a value out of its bounds: refused with the bounds.
            let first = String(word.prefix { $0 != " " })
            if let bounds = ControlCommand.values[first] {
                reply("refused \(word.prefix(40)): \(first) takes \(bounds)")
                return
            }
            reply("refused \(word.prefix(40)): unknown (\(Self.knownCommands) are known)")
            // Each unknown word once, the first few of them: 10,000 messages wrote 10,009 lines.
            if unknownWords.count < Self.unknownWordsSaid, unknownWords.insert(String(word.prefix(40))).inserted {
                Log.warning("mqtt: unknown command \"\(word.prefix(40))\" on \(settings.commandTopic ?? "") (\(Self.knownCommands) are known); "
                            + "said once for each word")
            } else if unknownWords.count == Self.unknownWordsSaid, !saidNoMoreUnknown {
                saidNoMoreUnknown = true
                Log.warning("mqtt: more unknown commands on \(settings.commandTopic ?? ""); they are no longer said")
            }
        }
    }

    /// Home Assistant's configs at each connection (retained: a Home Assistant that starts
    /// later reads them), or the clearing of those a former start published; the state
    /// directory's marker says which was done last.
    private func announce() {
        guard let connection, !settings.discovery.isEmpty || !settings.discoveryCleared.isEmpty else { return }
        do throws(MQTTError) {
            for config in settings.discovery { try connection.publish(config.topic, Array(config.payload.utf8), retain: true) }
            for topic in settings.discoveryCleared { try connection.publish(topic, [], retain: true) }
        } catch {
            Log.warning("mqtt: cannot publish Home Assistant's discovery: \(error)")
            return
        }
        guard let marker = settings.discoveryMarker else { return }
        if settings.discovery.isEmpty {
            unlink(marker)
            if said.insert("discovery cleared").inserted {
                Log.info("mqtt: Home Assistant's discovery is off: the \(settings.discoveryCleared.count) configs published before are cleared")
            }
        } else {
            let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd) }
            if said.insert("discovery").inserted {
                Log.info("mqtt: announced to Home Assistant: \(settings.discovery.count) entities under \(settings.discovery[0].topic.split(separator: "/").first ?? "")")
            }
        }
    }

    /// A try over TLS failed before the broker accepted it: libmosquitto says only "A TLS error
    /// occurred", so the handshake is made again through libcurl on the lane, whose words for
    /// the certificate (not trusted, another host's, expired) are said once and kept in the
    /// status's broker problem. One diagnosis per run: the certificate does not change between
    /// tries.
    private func diagnoseTLS() {
        guard settings.connection.tls, !diagnosedTLS else { return }
        diagnosedTLS = true
        let (host, port, ca) = (settings.connection.host, settings.connection.port, settings.connection.tlsCAFile)
        executor.execute(in: lane, { TLSDiagnosis.explain(host: host, port: port, caFile: ca) }, then: { [weak self] why in
            guard let self, !self.stopped, let why else { return }
            self.tlsProblem = why
            Log.error("mqtt: \(host):\(port): \(why)")
        })
    }

    /// Publishes a command's outcome on the reply topic (not retained), when connected; at most
    /// ``repliesPerSecond`` a second, so a flood of commands is not echoed back as one.
    public func reply(_ text: String) {
        guard case .connected = state, let connection, let topic = settings.replyTopic else { return }
        let second = lastTick.rounded(.down)
        if second != replySecond { (replySecond, repliesThisSecond) = (second, 0) }
        guard repliesThisSecond < Self.repliesPerSecond else { return }
        repliesThisSecond += 1
        try? connection.publish(topic, Array(text.utf8))
    }

    /// Replies published in one second at most.
    public nonisolated static let repliesPerSecond = 5

    /// Publishes a screenshot asked over the broker, within ``maxScreenshotBytes``; what
    /// happened on the reply topic.
    public func publishScreenshot(_ png: [UInt8]) {
        guard case .connected = state, let connection, let topic = settings.screenshotTopic else { return }
        guard png.count <= settings.maxScreenshotBytes else {
            reply("refused screenshot: the PNG is \(png.count) bytes, over the \(settings.maxScreenshotBytes) mqtt.screenshot-max-kb allows (ctl screenshot has it whole)")
            return
        }
        do throws(MQTTError) {
            try connection.publish(topic, png)
            lastScreenshot = lastTick
            reply("ok screenshot: \(png.count) bytes on \(topic)")
        } catch {
            reply("refused screenshot: \(error)")
        }
    }

    /// Failures in a row so far (0 while connected).
    private var failures: Int {
        switch state {
        case .waiting(_, let failures, _), .connecting(_, let failures): return failures
        case .connected: return 0
        }
    }

    /// Publishes the status, retained, when connected and it differs from what went last.
    private func publishStatusIfChanged() {
        guard case .connected = state, let connection else { return }
        let body = status()
        guard body != published else { return }
        let json = body.hasPrefix("{") && body.count > 2 ? #"{"online":true,"# + body.dropFirst() : #"{"online":true}"#
        do throws(MQTTError) {
            try connection.publish(settings.statusTopic, Array(json.utf8), retain: true)
            published = body
        } catch {
            Log.warning("mqtt: cannot publish the status: \(error)")
        }
    }
}

/// A connection on its way to the lane that connects it and back: one thread holds it at a time
/// (the lane's while it connects, then the loop's, once its outcome has arrived), which is why
/// it may cross.
private final class Handoff: @unchecked Sendable {
    let connection: MQTTConnection
    init(_ connection: MQTTConnection) { self.connection = connection }
    /// Connects (blocking); the error, nil when CONNECT went out.
    func connect() -> MQTTError? {
        do throws(MQTTError) { try connection.connect() } catch { return error }
        return nil
    }
}

extension String {
    /// The string with zeros before it up to `width` characters (hex digits of a hash).
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
