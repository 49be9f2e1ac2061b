import CEvdev
import Glibc

/// A virtual input device made through /dev/uinput (libevdev's uinput API) from a
/// description: the hardware tests' touchscreen, and how `panel-refresh inject` plays a
/// recording into a running panel. Needs write access to /dev/uinput (root, or a udev rule).
public final class UInputDevice {
    private let template: OpaquePointer
    private let uinput: OpaquePointer
    /// The event node the kernel made, e.g. /dev/input/event7.
    public let devnode: String?

    /// Whether this process can create uinput devices here.
    public static var isAvailable: Bool { access("/dev/uinput", W_OK) == 0 }

    /// Creates a virtual device like `d` (its name, ids and axes) through /dev/uinput.
    public init(description d: DeviceDescription) throws {
        guard let dev = libevdev_new() else { throw InputError.failed(path: "/dev/uinput", call: "libevdev_new", errno: ENOMEM) }
        libevdev_set_name(dev, d.name)
        libevdev_set_id_bustype(dev, Int32(d.bustype))
        libevdev_set_id_vendor(dev, Int32(d.vendor))
        libevdev_set_id_product(dev, Int32(d.product))
        libevdev_set_id_version(dev, Int32(d.version))
        for property in d.properties { libevdev_enable_property(dev, UInt32(property)) }
        for (type, codes) in d.codes where type != EventType.syn {
            libevdev_enable_event_type(dev, UInt32(type))
            for code in codes {
                if type == EventType.abs {
                    let a = d.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var info = input_absinfo(value: a.minimum, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz,
                                             flat: a.flat, resolution: a.resolution)
                    libevdev_enable_event_code(dev, UInt32(type), UInt32(code), &info)
                } else {
                    libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard rc == 0, let created else {
            libevdev_free(dev)
            throw InputError.failed(path: "/dev/uinput", call: "libevdev_uinput_create_from_device", errno: -rc)
        }
        template = dev
        uinput = created
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(template)
    }

    /// Writes one event (the kernel stamps its own time).
    public func write(_ event: InputEvent) throws {
        let rc = libevdev_uinput_write_event(uinput, UInt32(event.type), UInt32(event.code), event.value)
        guard rc == 0 else { throw InputError.failed(path: devnode ?? "/dev/uinput", call: "libevdev_uinput_write_event", errno: -rc) }
    }

    /// Whether a process other than this one has the event node open now: the panel reading
    /// it, or logind holding it for the panel's session. Read from `/proc/PID/fd`, so it sees
    /// only the processes this one may look into (all of them as root).
    public var hasReader: Bool {
        guard let devnode else { return false }
        let own = getpid()
        for name in DirectoryNames.of("/proc") ?? [] {
            guard let pid = Int32(name), pid != own, let fds = DirectoryNames.of("/proc/\(name)/fd") else { continue }
            for number in fds {
                var target = [CChar](repeating: 0, count: 256)
                let n = readlink("/proc/\(name)/fd/\(number)", &target, target.count - 1)
                if n > 0, String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == devnode { return true }
            }
        }
        return false
    }

    /// Plays a recording's events at their recorded pace on `clock`.
    public func play<C: _Concurrency.Clock>(_ recording: EvemuRecording, clock: C) async throws where C.Duration == Duration {
        guard let first = recording.events.first?.microseconds else { return }
        let origin = clock.now
        for event in recording.events {
            try await clock.sleep(until: origin.advanced(by: .microseconds(event.microseconds - first)), tolerance: nil)
            try write(event)
        }
    }
}
