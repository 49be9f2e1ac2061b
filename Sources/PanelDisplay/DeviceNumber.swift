import CConsole
import Glibc

/// A character device's number (major, minor): what logind's `TakeDevice` asks for and what
/// tells a virtual terminal (major 4), a DRM card (226) and an input device (13) apart.
public struct DeviceNumber: Sendable, Hashable, CustomStringConvertible {
    /// The driver's number.
    public var major: UInt32
    /// The device's number within the driver.
    public var minor: UInt32

    /// The major 226: DRM (drm_core).
    public static let drmMajor: UInt32 = 226
    /// The major 13: input (evdev).
    public static let inputMajor: UInt32 = 13
    /// The major 4: TTYs (minors 1-63 are the VTs).
    public static let ttyMajor: UInt32 = 4

    /// `major`:`minor`.
    public init(major: UInt32, minor: UInt32) { (self.major, self.minor) = (major, minor) }

    /// The number of the character device at `path` (stat, following links); nil when it is
    /// not one.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        self.init(major: panel_device_major(info.st_rdev), minor: panel_device_minor(info.st_rdev))
    }

    /// The number of the character device open on `fd`; nil when it is not one.
    public init?(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        self.init(major: panel_device_major(info.st_rdev), minor: panel_device_minor(info.st_rdev))
    }

    /// "226:0".
    public var description: String { "\(major):\(minor)" }
}
