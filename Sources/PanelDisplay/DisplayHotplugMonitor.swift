import CUdev
import Glibc
import PanelInput

/// udev's events for DRM cards: a connector plugged or unplugged (`HOTPLUG=1` on the card's
/// "change" event), the card's node added or removed. The run loop watches `fileDescriptor`
/// and probes the display again when `receive()` says so.
public final class DisplayHotplugMonitor {
    private let monitor: UdevMonitor
    /// Readable when udev has news; owned by the monitor.
    public var fileDescriptor: Int32 { monitor.fileDescriptor }

    /// Listens to udev's DRM events.
    public init() throws {
        do {
            monitor = try UdevMonitor(subsystem: "drm")
        } catch {
            throw DisplayError.call("udev monitor (display hotplug): \(error)", errno: EIO)
        }
    }

    /// Whether a pending event concerns connectors (never blocks; reads them all).
    public func receive() -> Bool {
        var relevant = false
        monitor.receive { device in
            let hotplug = udev_device_get_property_value(device, "HOTPLUG").map { String(cString: $0) }
            let action = udev_device_get_action(device).map { String(cString: $0) }
            if hotplug == "1" || action == "add" || action == "remove" { relevant = true }
        }
        return relevant
    }
}
