import CUdev
import Glibc

/// One libudev netlink monitor of one subsystem ("input", "drm"): the descriptor a loop watches
/// and the devices pending on it. The input and DRM hotplug monitors are both this.
public final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when udev has news; owned by the monitor.
    public let fileDescriptor: Int32

    /// Listens to udev's events of `subsystem`.
    public init(subsystem: String) throws(InputError) {
        guard let udev = udev_new() else { throw InputError.udev("udev_new failed") }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw InputError.udev("cannot listen to udev's \(subsystem) events (netlink)")
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw InputError.udev("cannot receive udev's \(subsystem) events: \(InputError.message(-rc))")
        }
        (self.udev, self.monitor) = (udev, monitor)
        fileDescriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Hands `body` each device pending now, released after it returns (never blocks).
    public func receive(_ body: (OpaquePointer) -> Void) {
        while let device = udev_monitor_receive_device(monitor) {
            body(device)
            udev_device_unref(device)
        }
    }
}
