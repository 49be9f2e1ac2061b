import CUdev
import Dispatch
import Glibc

/// A touchscreen udev knows of.
public struct TouchscreenInfo: Sendable, Hashable {
    /// The event node, e.g. /dev/input/event3.
    public var node: String
    /// The device's name (the parent input device's `name` attribute).
    public var name: String
    /// LIBINPUT_CALIBRATION_MATRIX from udev, if set (and valid).
    public var calibration: CalibrationMatrix?
    /// The property's text when it was set but not valid: reported, not applied.
    public var invalidCalibration: String?
    /// PANEL_REFRESH_TOUCH_FILTER from udev, if set (and valid): this device's filter, over
    /// `input.filter` (a noisy sensor among clean ones).
    public var filter: TouchFilter?
    /// The property's text when it was set but not valid: reported, not applied.
    public var invalidFilter: String?

    /// Builds the entry from udev properties; pure, so the rules are testable without udev.
    public init(node: String, name: String, calibrationProperty: String?, filterProperty: String? = nil) {
        (self.node, self.name) = (node, name)
        if let text = filterProperty {
            if let filter = try? TouchFilter(text: text) { self.filter = filter } else { invalidFilter = text }
        }
        if let text = calibrationProperty {
            if let matrix = try? CalibrationMatrix(udevProperty: text) {
                calibration = matrix
            } else {
                invalidCalibration = text
            }
        }
    }
}

/// Finds touchscreens through libudev: input devices with ID_INPUT_TOUCHSCREEN=1 and an
/// event node.
public enum TouchscreenDiscovery {
    /// The touchscreens udev knows now (ID_INPUT_TOUCHSCREEN event nodes).
    public static func list() throws -> [TouchscreenInfo] {
        guard let udev = udev_new() else { throw InputError.udev("udev_new failed") }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw InputError.udev("udev_enumerate_new failed") }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_TOUCHSCREEN", "1")
        let rc = udev_enumerate_scan_devices(enumerate)
        guard rc >= 0 else { throw InputError.udev("scanning devices failed: \(InputError.message(-rc))") }
        var result: [TouchscreenInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            if let info = info(of: device) { result.append(info) }
        }
        return result.sorted { $0.node < $1.node }
    }

    /// The entry for a udev device with an event node, nil for others (the parent input
    /// device, mice, ...).
    static func info(of device: OpaquePointer) -> TouchscreenInfo? {
        guard let nodeC = udev_device_get_devnode(device) else { return nil }
        let node = String(cString: nodeC)
        guard node.hasPrefix("/dev/input/event") else { return nil }
        guard udev_device_get_property_value(device, "ID_INPUT_TOUCHSCREEN").map({ String(cString: $0) }) == "1" else { return nil }
        let parent = udev_device_get_parent(device)
        let name = parent.flatMap { udev_device_get_sysattr_value($0, "name") }.map { String(cString: $0) } ?? node
        let calibration = udev_device_get_property_value(device, "LIBINPUT_CALIBRATION_MATRIX").map { String(cString: $0) }
        let filter = udev_device_get_property_value(device, "PANEL_REFRESH_TOUCH_FILTER").map { String(cString: $0) }
        return TouchscreenInfo(node: node, name: name, calibrationProperty: calibration, filterProperty: filter)
    }
}

/// Watches udev for touchscreens coming and going (netlink, through libudev).
public final class HotplugMonitor {
    /// A device that came or went.
    public enum Change: Sendable, Hashable {
        /// A touchscreen appeared.
        case added(TouchscreenInfo)
        /// The event node of a device that went away.
        case removed(String)
    }

    private let monitor: UdevMonitor
    /// For a Dispatch read source; owned by the monitor.
    public var fileDescriptor: Int32 { monitor.fileDescriptor }

    /// Listens to udev's input events.
    public init() throws {
        monitor = try UdevMonitor(subsystem: "input")
    }

    /// The touchscreen changes pending now (never blocks).
    public func receive() -> [Change] {
        var changes: [Change] = []
        monitor.receive { device in
            let action = udev_device_get_action(device).map { String(cString: $0) }
            switch action {
            case "add":
                if let info = TouchscreenDiscovery.info(of: device) { changes.append(.added(info)) }
            case "remove":
                if let node = udev_device_get_devnode(device).map({ String(cString: $0) }), node.hasPrefix("/dev/input/event") {
                    changes.append(.removed(node))
                }
            default:
                break
            }
        }
        return changes
    }
}
