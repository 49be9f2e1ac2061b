import CUdev
import FoundationEssentials
import Glibc

/// udev's events for DRM cards: a connector plugged or unplugged (`HOTPLUG=1` on the card's
/// "change" event), the card's node added or removed. The run loop watches `fileDescriptor`
/// and probes the display again when `receive()` says so.
public final class DisplayHotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when udev has news; owned by the monitor.
    public let fileDescriptor: Int32

    /// Listens to udev's DRM events.
    public init() throws {
        guard let udev = udev_new() else { throw DisplayError.call("udev_new", errno: ENOMEM) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw DisplayError.call("udev_monitor_new_from_netlink (display hotplug)", errno: errno == 0 ? EIO : errno)
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw DisplayError.call("udev_monitor_enable_receiving (display hotplug)", errno: -rc)
        }
        self.udev = udev
        self.monitor = monitor
        fileDescriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Whether a pending event concerns connectors (never blocks; reads them all).
    public func receive() -> Bool {
        var relevant = false
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let hotplug = udev_device_get_property_value(device, "HOTPLUG").map { String(cString: $0) }
            let action = udev_device_get_action(device).map { String(cString: $0) }
            if hotplug == "1" || action == "add" || action == "remove" { relevant = true }
        }
        return relevant
    }
}
