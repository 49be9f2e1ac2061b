import CSystemd
import Glibc
import PanelDisplay

/// Why logind's session cannot give the kiosk its devices.
public enum SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A D-Bus call failed (`name`: the method; `message`: logind's or sd-bus's error).
    case call(String, String)
    /// The system bus cannot be reached.
    case bus(Int32)

    /// What failed.
    public var description: String {
        switch self {
        case let .call(name, message): "logind \(name): \(message)"
        case .bus(let code): "the system bus: \(String(cString: strerror(-code))) (errno \(-code))"
        }
    }
}

/// The kiosk's logind session (a unit with `PAMName=`, `TTYPath=`, `User=`): the session's
/// controller, which takes its DRM card and touchscreens from logind (`TakeDevice`) instead of
/// opening them through group permissions, and hears logind pause and resume them when another
/// VT comes to the front (`PauseDevice`, `ResumeDevice`). logind also switches the VT, so the
/// kiosk does no VT handling of its own on this path.
///
/// Through libsystemd's sd-bus, one message at a time (the variadic helpers are not callable
/// from Swift). The bus's descriptor is watched by the loop; `receive()` reads what came.
@MainActor
public final class LogindSession {
    /// What logind said about a device.
    public enum Event: Sendable, Hashable {
        /// The device is paused. `kind` "pause": answer with `pauseComplete` once it is no
        /// longer used; "force": it is paused already (an input device's descriptor is revoked);
        /// "gone": it went away.
        case pause(DeviceNumber, kind: String)
        /// The device is back; `fd` is a new descriptor for it (the kiosk owns it).
        case resume(DeviceNumber, fd: Int32)
    }

    /// The session's id ("3").
    public let id: String
    /// Its object path on the bus.
    public let path: String
    private let bus: OpaquePointer
    private var events: [Event] = []
    /// Set by each call: sd-bus may have queued signals while it waited for the answer.
    private var mayHaveQueued = false
    /// Descriptors logind gave, by device, open until the kiosk takes them (`descriptor(for:)`).
    private var given: [DeviceNumber: Int32] = [:]

    /// The session of this process: `sessionID` ($XDG_SESSION_ID, set by pam_systemd), else
    /// the one logind finds from the process's cgroup. nil: no session (the kiosk then opens its
    /// devices through its groups). Throws when there is a session the kiosk cannot control.
    /// `busAddress`: another bus than the system's (tests, with a stand-in logind).
    public static func current(sessionID: String?, busAddress: String? = nil) throws(SessionError) -> LogindSession? {
        var id = sessionID
        if id == nil {
            var found: UnsafeMutablePointer<CChar>?
            if sd_pid_get_session(0, &found) >= 0, let found {
                id = String(cString: found)
                free(found)
            }
        }
        guard let id else { return nil }
        var bus: OpaquePointer?
        let opened = busAddress.map { open(address: $0, &bus) } ?? sd_bus_open_system(&bus)
        guard opened >= 0, let bus else {
            if let bus { sd_bus_flush_close_unref(bus) }
            throw .bus(opened)
        }
        do {
            return try LogindSession(id: id, bus: bus)
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
    }

    /// A bus client at `address`, started (sd_bus_open_system does the same for the system's).
    private static func open(address: String, _ bus: inout OpaquePointer?) -> Int32 {
        var made = sd_bus_new(&bus)
        guard made >= 0, let bus else { return made }
        made = sd_bus_set_address(bus, address)
        if made >= 0 { made = sd_bus_set_bus_client(bus, 1) }
        if made >= 0 { made = sd_bus_start(bus) }
        return made
    }

    private init(id: String, bus: OpaquePointer) throws(SessionError) {
        self.id = id
        self.bus = bus
        let reply = try Self.call(bus, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                                  method: "GetSession") { message in
            sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), id)
        }
        defer { sd_bus_message_unref(reply) }
        var object: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &object) > 0, let object else {
            throw .call("GetSession", "no object path in the answer")
        }
        path = String(cString: object)
        // Signals first, so no pause between taking control and the first device is missed.
        let me = Unmanaged.passUnretained(self).toOpaque()
        for (member, handler) in [("PauseDevice", Self.onPause), ("ResumeDevice", Self.onResume)] {
            let added = sd_bus_match_signal(bus, nil, "org.freedesktop.login1", path, "org.freedesktop.login1.Session",
                                            member, handler, me)
            guard added >= 0 else { throw .call("AddMatch \(member)", String(cString: strerror(-added))) }
        }
        // force: false — refuse to take over a session another controller has.
        let control = try call("TakeControl") { message in
            var force: Int32 = 0
            return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &force)
        }
        sd_bus_message_unref(control)
    }

    isolated deinit {
        for fd in given.values { Glibc.close(fd) }
        sd_bus_flush_close_unref(bus)
    }

    /// A device's number as logind sends and takes it: two `u` arguments, major then minor.
    private nonisolated static func readDevice(_ message: OpaquePointer) -> DeviceNumber? {
        var major: UInt32 = 0, minor: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &major) > 0,
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &minor) > 0 else { return nil }
        return DeviceNumber(major: major, minor: minor)
    }

    /// Appends `number` as the two `u` arguments; sd-bus's result (negative: an errno).
    private static func append(_ number: DeviceNumber, to message: OpaquePointer) -> Int32 {
        var major = number.major, minor = number.minor
        let appended = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &major)
        return appended < 0 ? appended : sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &minor)
    }

    private static let onPause: sd_bus_message_handler_t = { message, userdata, _ in
        var kind: UnsafePointer<CChar>?
        guard let message, let userdata, let number = readDevice(message),
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &kind) > 0 else { return 0 }
        let event = Event.pause(number, kind: kind.map { String(cString: $0) } ?? "force")
        // sd_bus_process runs handlers on the thread that called it: the loop's, the main actor.
        deliver(event, to: userdata)
        return 0
    }

    private static let onResume: sd_bus_message_handler_t = { message, userdata, _ in
        var fd: Int32 = -1
        guard let message, let userdata, let number = readDevice(message),
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "h")), &fd) > 0 else { return 0 }
        // The message owns its descriptor: a copy outlives it.
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard own >= 0 else { return 0 }
        let event = Event.resume(number, fd: own)
        deliver(event, to: userdata)
        return 0
    }

    /// Hands a signal's event to the session `userdata` points to (the match's user data).
    private nonisolated static func deliver(_ event: Event, to userdata: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: userdata)
        MainActor.assumeIsolated {
            guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
            Unmanaged<LogindSession>.fromOpaque(pointer).takeUnretainedValue().events.append(event)
        }
    }

    /// A method call on the session and its answer (the caller unrefs it).
    private func call(_ method: String, append: (OpaquePointer) -> Int32 = { _ in 0 }) throws(SessionError) -> OpaquePointer {
        // While it waits for the answer, sd-bus queues the signals that come first.
        mayHaveQueued = true
        return try Self.call(bus, path: path, interface: "org.freedesktop.login1.Session", method: method, append: append)
    }

    private static func call(_ bus: OpaquePointer, path: String, interface: String, method: String,
                             append: (OpaquePointer) -> Int32) throws(SessionError) -> OpaquePointer {
        var message: OpaquePointer?
        var made = sd_bus_message_new_method_call(bus, &message, "org.freedesktop.login1", path, interface, method)
        guard made >= 0, let message else { throw .call(method, String(cString: strerror(-made))) }
        defer { sd_bus_message_unref(message) }
        made = append(message)
        guard made >= 0 else { throw .call(method, String(cString: strerror(-made))) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let called = sd_bus_call(bus, message, 0, &error, &reply)
        guard called >= 0, let reply else {
            throw .call(method, error.message.map { String(cString: $0) } ?? String(cString: strerror(-called)))
        }
        return reply
    }

    /// Takes the device `number` from logind: a descriptor the kiosk owns, and whether the
    /// device is paused now (the session is not in front).
    public func takeDevice(_ number: DeviceNumber) throws(SessionError) -> (fd: Int32, paused: Bool) {
        if let fd = given.removeValue(forKey: number) { return (fd, false) }
        let reply = try call("TakeDevice") { Self.append(number, to: $0) }
        defer { sd_bus_message_unref(reply) }
        var fd: Int32 = -1
        var inactive: Int32 = 0
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), &fd) > 0,
              sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &inactive) > 0 else {
            throw .call("TakeDevice", "no descriptor in the answer")
        }
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard own >= 0 else { throw .call("TakeDevice", String(cString: strerror(errno))) }
        return (own, inactive != 0)
    }

    /// Keeps a descriptor a `resume` event brought until `takeDevice` asks for that device
    /// (an input device reopened after the VT came back).
    public func keep(_ fd: Int32, for number: DeviceNumber) {
        if let old = given.updateValue(fd, forKey: number) { Glibc.close(old) }
    }

    /// Tells logind the device is no longer used after a "pause" (it then drops DRM master).
    public func pauseComplete(_ number: DeviceNumber) {
        do {
            let reply = try call("PauseDeviceComplete") { Self.append(number, to: $0) }
            sd_bus_message_unref(reply)
        } catch {
            Log.warning("\(error)")
        }
    }

    /// The bus's descriptor: readable when logind has sent something.
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Reads what the bus has (also what arrived during a call) and returns logind's events
    /// in order.
    public func receive() -> [Event] {
        mayHaveQueued = false
        while sd_bus_process(bus, nil) > 0 {}
        defer { events = [] }
        return events
    }

    /// Whether events wait that were read already during a call (the descriptor will not wake
    /// for them): what is queued is dispatched first. Only a call can have queued any, so an
    /// entry that made none costs no read of the bus.
    public var hasPendingEvents: Bool {
        if mayHaveQueued {
            mayHaveQueued = false
            while sd_bus_process(bus, nil) > 0 {}
        }
        return !events.isEmpty
    }
}
