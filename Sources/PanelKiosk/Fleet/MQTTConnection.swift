import CMosquitto
import Glibc
import PanelHost

/// Why a broker connection could not be made or used.
public enum MQTTError: Error, Equatable, CustomStringConvertible {
    /// libmosquitto cannot be loaded (Debian's `libmosquitto1` is not installed): the reason.
    case unavailable(String)
    /// A libmosquitto call failed: the call and libmosquitto's words for why.
    case failed(call: String, reason: String)

    /// What went wrong, for the journal and the banner.
    public var description: String {
        switch self {
        case .unavailable(let reason): return "MQTT is unavailable: \(reason) (Debian's libmosquitto1)"
        case .failed(let call, let reason): return "\(call): \(reason)"
        }
    }
}

/// One client connection to an MQTT broker through libmosquitto, driven from outside: no
/// thread of the library's (`mosquitto_loop_start` is never called). Its owner watches
/// ``descriptor`` for reading (and for writing while ``wantsWrite``), calls ``readable()``,
/// ``writable()`` and, about once a second, ``maintain()`` (keepalive pings and QoS 1
/// retries), and handles the ``Event``s they return. Every callback of libmosquitto runs inside
/// those calls, on the caller's thread.
///
/// MQTT 5 (Mosquitto since 1.6, EMQX, HiveMQ and VerneMQ speak it), because its acknowledgements
/// carry reasons: a publish the broker's ACL denies is answered "Not authorized", where 3.1.1
/// drops it without a word. A clean session: the broker keeps nothing for the panel between
/// connections but what everyone gets, the retained messages, which is how the current list
/// arrives at every (re)connect.
public final class MQTTConnection {
    /// How to reach the broker and who the panel is to it.
    public struct Settings: Sendable, Equatable {
        /// The broker's host name or address.
        public var host: String
        /// TCP port: 1883 for `mqtt://`, 8883 for `mqtts://` (IANA's).
        public var port: Int
        /// The client id, unique per panel: a second client with the same id makes the broker
        /// drop the first (MQTT 3.1.1, 3.1.4).
        public var clientID: String
        /// Seconds between the client's pings while nothing else is sent; the broker drops a
        /// client silent for 1.5 times this (MQTT 3.1.1, 3.1.2.10) and then publishes its will.
        /// 60, libmosquitto's own default and the issue's.
        public var keepalive = 60
        /// User and password, when the broker asks for them.
        public var credentials: (user: String, password: String)? {
            get { user.map { ($0, password ?? "") } }
            set { (user, password) = (newValue?.user, newValue?.password) }
        }
        private var user: String?
        private var password: String?
        /// TLS (`mqtts://`): with the system's CAs (/etc/ssl/certs) unless ``tlsCAFile`` names one.
        public var tls = false
        /// A CA certificate file (PEM) that the broker's certificate must chain to.
        public var tlsCAFile: String?
        /// The last will: published by the broker, retained, when this client vanishes without
        /// saying goodbye (a kill, a cable pulled, a silence past 1.5 x keepalive).
        public var will: (topic: String, payload: [UInt8])? {
            get { willTopic.map { ($0, willPayload) } }
            set { (willTopic, willPayload) = (newValue?.topic, newValue?.payload ?? []) }
        }
        private var willTopic: String?
        private var willPayload: [UInt8] = []
        /// The largest payload taken, bytes: a larger message is an ``Event/oversized(topic:bytes:)``,
        /// not copied. The list's limit (``ItemParser/maxBytes``, 4 MiB).
        public var maximumPayload = ItemParser.maxBytes
        /// The largest packet the broker may send, bytes (MQTT 5's Maximum Packet Size in
        /// CONNECT): the largest payload and 64 KiB for its topic and properties. A conformant
        /// broker (Mosquitto since 1.6) drops a larger message for this client; a 100 MB
        /// retained message was received whole and killed the kiosk under `MemoryMax=256M`.
        public var maximumPacket: Int { maximumPayload + 65536 }

        /// A broker at `host:port`, known to it as `clientID`.
        public init(host: String, port: Int, clientID: String) {
            (self.host, self.port, self.clientID) = (host, port, clientID)
        }
    }

    /// What happened on the connection, in order.
    public enum Event: Sendable, Equatable {
        /// The broker accepted the connection (CONNACK 0): subscribe now, the subscriptions of a
        /// clean session are gone.
        case connected
        /// The broker refused the connection: its reason ("Bad user name or password").
        case refused(String)
        /// A message on a subscribed topic; `retained` when the broker kept it from before.
        case message(topic: String, payload: [UInt8], retained: Bool)
        /// A message larger than ``Settings/maximumPayload`` (from a broker that ignores the
        /// Maximum Packet Size): its topic and size, its payload not copied.
        case oversized(topic: String, bytes: Int)
        /// The broker refused a subscription: the topic and the SUBACK's reason ("Not
        /// authorized"). Mosquitto's `acl_file` never refuses one (it withholds the messages).
        case subscriptionRefused(topic: String, reason: String)
        /// The broker refused a publish: the topic and the PUBACK's reason ("Not authorized":
        /// an ACL that does not let this client write there).
        case publishRefused(topic: String, reason: String)
        /// The connection is gone: why, or nil when this side disconnected.
        case disconnected(String?)
    }

    /// The settings it was made with.
    public let settings: Settings
    private let client: OpaquePointer
    private let callbacks: UnsafeMutablePointer<panel_mqtt_callbacks>
    /// Events the callbacks recorded during the current call.
    private var pending: [Event] = []
    /// Topics by the message id of their SUBSCRIBE, until the SUBACK comes.
    private var subscribing: [Int32: String] = [:]
    /// Topics by the message id of their PUBLISH, until the PUBACK comes (QoS 1).
    private var publishing: [Int32: String] = [:]

    /// A client for `settings`; nothing is sent until ``connect()``.
    public init(_ settings: Settings) throws(MQTTError) {
        if let reason = panel_mqtt_load() { throw .unavailable(String(cString: reason)) }
        self.settings = settings
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: panel_mqtt_callbacks(
            user: nil,
            on_connect: { user, code in MQTTConnection.owner(user).connected(code) },
            on_disconnect: { user, code in MQTTConnection.owner(user).disconnected(code) },
            on_message: { user, topic, payload, length, retained in
                let owner = MQTTConnection.owner(user), name = topic.map { String(cString: $0) } ?? ""
                // Checked before the copy: the payload is not taken twice.
                guard Int(length) <= owner.settings.maximumPayload else {
                    owner.pending.append(.oversized(topic: name, bytes: Int(length)))
                    return
                }
                let bytes = payload.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(max(0, length)))) } ?? []
                owner.pending.append(.message(topic: name, payload: bytes, retained: retained))
            },
            on_subscribe: { user, mid, granted in MQTTConnection.owner(user).subscribed(mid, granted: granted) },
            on_publish: { user, mid, reason in MQTTConnection.owner(user).published(mid, reason: reason) }))
        guard let client = panel_mqtt_new(settings.clientID, callbacks) else {
            callbacks.deallocate()
            throw .failed(call: "mosquitto_new", reason: String(cString: strerror(errno)))
        }
        self.client = client
        callbacks.pointee.user = Unmanaged.passUnretained(self).toOpaque()
        if let will = settings.will {
            try check(will.payload.withUnsafeBytes { panel_mqtt_will_set(client, will.topic, Int32($0.count), $0.baseAddress, 1, true) }, "mosquitto_will_set")
        }
        if let credentials = settings.credentials {
            try check(panel_mqtt_username_pw_set(client, credentials.user, credentials.password), "mosquitto_username_pw_set")
        }
        if settings.tls {
            try check(panel_mqtt_tls_set(client, settings.tlsCAFile), "mosquitto_tls_set")
        }
    }

    deinit {
        panel_mqtt_destroy(client)
        callbacks.deallocate()
    }

    private static func owner(_ user: UnsafeMutableRawPointer?) -> MQTTConnection {
        // libmosquitto hands back the `obj` given to mosquitto_new: this connection's callbacks,
        // whose `user` is the connection, unretained (it outlives its client).
        Unmanaged<MQTTConnection>.fromOpaque(user!).takeUnretainedValue()
    }

    private func check(_ code: Int32, _ call: String) throws(MQTTError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw .failed(call: call, reason: Self.reason(code))
    }

    /// libmosquitto's words for an error code; for a system error, the system's.
    static func reason(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: panel_mqtt_strerror(code))
    }

    private func connected(_ code: Int32) {
        pending.append(code == 0 ? .connected : .refused(String(cString: panel_mqtt_reason_string(code))))
    }

    /// Why a connection ended when the broker gave it to another client with the same id
    /// (MQTT 5's DISCONNECT with reason 0x8E, Session taken over).
    public nonisolated static let takenOver = "the broker gave the session to another client with the same id"

    /// The connection ended: `code` is libmosquitto's error (a lost connection), or the MQTT 5
    /// reason of the broker's DISCONNECT (0x80 and up).
    private func disconnected(_ code: Int32) {
        switch code {
        case 0: pending.append(.disconnected(nil))
        case 0x8E: pending.append(.disconnected(Self.takenOver))
        case 0x80...: pending.append(.disconnected(String(cString: panel_mqtt_reason_string(code))))
        default: pending.append(.disconnected(Self.reason(code)))
        }
    }

    private func subscribed(_ mid: Int32, granted: Int32) {
        guard let topic = subscribing.removeValue(forKey: mid) else { return }
        if granted >= 0x80 { pending.append(.subscriptionRefused(topic: topic, reason: String(cString: panel_mqtt_reason_string(granted)))) }
    }

    private func published(_ mid: Int32, reason: Int32) {
        guard let topic = publishing.removeValue(forKey: mid) else { return }
        if reason >= 0x80 { pending.append(.publishRefused(topic: topic, reason: String(cString: panel_mqtt_reason_string(reason)))) }
    }

    private func take() -> [Event] {
        defer { pending = [] }
        return pending
    }

    /// Connects: resolves the broker's name, makes the TCP connection (and TLS) and sends
    /// CONNECT with the Maximum Packet Size; ``Event/connected`` or ``Event/refused(_:)``
    /// follows from ``readable()``. It blocks for as long as the resolver and TCP take (a
    /// resolver that never answers: its timeouts, 5 s per try and server by default; a host
    /// that drops the SYN: the kernel's retries, about 2 minutes), so it runs off the loop
    /// (``FleetLink`` hands it to a worker). Every try, the first or after a loss, calls it.
    public func connect() throws(MQTTError) {
        try check(panel_mqtt_connect(client, settings.host, Int32(settings.port), Int32(settings.keepalive), UInt32(settings.maximumPacket)),
                  "mosquitto_connect")
    }

    /// Says goodbye (DISCONNECT: the broker publishes no will).
    public func disconnect() {
        _ = panel_mqtt_disconnect(client)
    }

    /// The socket to watch, or nil while there is none (before connecting, after a loss).
    public var descriptor: Int32? {
        let fd = panel_mqtt_socket(client)
        return fd >= 0 ? fd : nil
    }

    /// Whether something waits to be written: watch ``descriptor`` for writing while true.
    public var wantsWrite: Bool { panel_mqtt_want_write(client) }

    /// Reads what the socket has (call when it is readable) and returns what it brought.
    public func readable() -> [Event] {
        let code = panel_mqtt_loop_read(client)
        lost(code)
        return take()
    }

    /// Writes what waits (call when the socket is writable).
    public func writable() -> [Event] {
        lost(panel_mqtt_loop_write(client))
        return take()
    }

    /// Pings when keepalive is due and retries unacknowledged QoS 1 messages: about once a second.
    public func maintain() -> [Event] {
        lost(panel_mqtt_loop_misc(client))
        return take()
    }

    /// A failed loop call means the connection is gone; libmosquitto has said so through the
    /// disconnect callback when it closed the socket itself, and not otherwise.
    private func lost(_ code: Int32) {
        guard code != MOSQ_ERR_SUCCESS.rawValue, code != MOSQ_ERR_NO_CONN.rawValue else { return }
        if !pending.contains(where: { if case .disconnected = $0 { return true }; return false }) {
            pending.append(.disconnected(Self.reason(code)))
        }
    }

    /// Subscribes to `topic` at QoS 1 (at least once: a message is not lost to a dropped
    /// connection, and one that comes twice replaces the list with itself).
    public func subscribe(_ topic: String) throws(MQTTError) {
        var mid: Int32 = 0
        try check(panel_mqtt_subscribe(client, &mid, topic, 1), "mosquitto_subscribe")
        subscribing[mid] = topic
    }

    /// Publishes `payload` on `topic` at QoS 1; `retain` keeps it at the broker for later
    /// subscribers (the panel's status).
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) throws(MQTTError) {
        var mid: Int32 = 0
        try check(payload.withUnsafeBytes { panel_mqtt_publish(client, &mid, topic, Int32($0.count), $0.baseAddress, 1, retain) }, "mosquitto_publish")
        publishing[mid] = topic
    }
}
