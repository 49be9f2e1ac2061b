import CEvdev
import Dispatch
import Glibc

/// A live input device through libevdev: opened non-blocking and close-on-exec, timestamps
/// on CLOCK_MONOTONIC, SYN_DROPPED resynchronised by libevdev's sync mode (the synthetic
/// events that bring the state up to date follow the SYN_DROPPED, so `TouchAssembler`
/// cancels the old contacts and picks up the ones still down).
public final class EvdevDevice: EventSource {
    /// The device node.
    public let path: String
    /// What libevdev read of the device: name, ids, axes, codes.
    public let device: DeviceDescription
    /// The open descriptor, for a Dispatch read source; owned by this object, closed on deinit.
    public let fileDescriptor: Int32
    /// The device's descriptor (non-blocking), for a read source.
    public var pollDescriptor: Int32? { fileDescriptor }
    private let handle: OpaquePointer

    /// The node's path.
    public var name: String { path }

    /// Opens `path` (e.g. /dev/input/event3).
    /// - Parameters:
    ///   - path: the event node.
    ///   - descriptor: the node already open (logind's `TakeDevice`); nil: it is opened here.
    ///   - requireTouchscreen: refuse devices that are not touchscreens
    ///     (`DeviceDescription.isTouchscreen`); `requireDirect: false` admits old drivers
    ///     without INPUT_PROP_DIRECT.
    ///   - requireDirect: refuse touchscreens without INPUT_PROP_DIRECT (touchpads).
    ///   - grab: take the device exclusively (EVIOCGRAB through `libevdev_grab`), so that no
    ///     other reader (a console, X) sees the touches.
    public init(path: String, descriptor: Int32? = nil, requireTouchscreen: Bool = true, requireDirect: Bool = true,
                grab: Bool = false) throws {
        self.path = path
        let fd: Int32
        if let descriptor {
            // Opened elsewhere (logind's TakeDevice): ours from now on, read without blocking.
            fd = descriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        } else {
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        }
        guard fd >= 0 else { throw InputError.cannotOpen(path: path, errno: errno) }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            close(fd)
            throw InputError.failed(path: path, call: "libevdev_new_from_fd", errno: -rc)
        }
        // From here the descriptor and handle belong to this object; release them on any error.
        func fail(_ error: InputError) -> InputError {
            libevdev_free(dev)
            close(fd)
            return error
        }
        let clockResult = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        guard clockResult == 0 else { throw fail(.failed(path: path, call: "libevdev_set_clock_id", errno: -clockResult)) }
        let description = EvdevDevice.describe(dev)
        if requireTouchscreen && !description.isTouchscreen(requireDirect: requireDirect) {
            throw fail(.notATouchscreen("\(path) (\(description.name))"))
        }
        if grab {
            let grabResult = libevdev_grab(dev, LIBEVDEV_GRAB)
            guard grabResult == 0 else { throw fail(.failed(path: path, call: "libevdev_grab", errno: -grabResult)) }
        }
        fileDescriptor = fd
        handle = dev
        device = description
    }

    deinit {
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// What libevdev knows of the device, as a description.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var d = DeviceDescription(name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
                                  bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
                                  vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
                                  product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
                                  version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, property) == 1 {
            d.properties.insert(UInt16(property))
        }
        let limits: [(UInt16, UInt32)] = [(EventType.syn, UInt32(SYN_CNT)), (EventType.key, UInt32(KEY_CNT)),
                                          (EventType.abs, UInt32(ABS_CNT)), (EventType.msc, UInt32(MSC_CNT))]
        for (type, count) in limits where libevdev_has_event_type(dev, UInt32(type)) == 1 {
            for code in 0..<count where libevdev_has_event_code(dev, UInt32(type), code) == 1 {
                d.codes[type, default: []].insert(UInt16(code))
                if type == EventType.abs, let info = libevdev_get_abs_info(dev, code)?.pointee {
                    d.absInfo[UInt16(code)] = AbsInfo(minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
                                                      flat: info.flat, resolution: info.resolution)
                }
            }
        }
        return d
    }

    /// libevdev_next_event until EAGAIN, resyncing after SYN_DROPPED; ENODEV is `InputError.deviceGone`.
    public func readEvents() throws -> [InputEvent] {
        var events: [InputEvent] = []
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(handle, flags, &event)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                events.append(InputEvent(microseconds: Int64(panel_input_event_microseconds(&event)),
                                         type: event.type, code: event.code, value: event.value))
                // SYN_DROPPED: drain the resync events in sync mode, then carry on normally.
                flags = rc == LIBEVDEV_READ_STATUS_SYNC.rawValue ? LIBEVDEV_READ_FLAG_SYNC.rawValue
                                                                  : LIBEVDEV_READ_FLAG_NORMAL.rawValue
                continue
            }
            switch -rc {
            case EAGAIN:
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return events
            case EINTR:
                continue
            case ENODEV:
                throw InputError.deviceGone(path: path)
            default:
                throw InputError.failed(path: path, call: "libevdev_next_event", errno: -rc)
            }
        }
    }
}
