import Glibc

/// Errors of PanelInput that are not about one evemu line.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A calibration property that is not six numbers within bounds.
    case badCalibration(String)
    /// A touch filter setting that is not "off", "one-euro" or "one-euro MIN-CUTOFF BETA".
    case badFilter(String)
    /// The device has no range for an axis that carries positions.
    case missingAxis(device: String, code: UInt16)
    /// A device that is not a touchscreen.
    case notATouchscreen(String)
    /// open() failed; `errno` says why (EACCES: not in the input group, ENOENT: no such node).
    case cannotOpen(path: String, errno: Int32)
    /// The device went away (ENODEV): unplugged, or its driver unbound.
    case deviceGone(path: String)
    /// Reading or a libevdev call failed with `errno`.
    case failed(path: String, call: String, errno: Int32)
    /// libudev could not do `what`.
    case udev(String)
    /// The device sent more contacts in a frame than `TouchAssembler.maxContacts`; the excess
    /// was dropped.
    case tooManyContacts(device: String, limit: Int)

    /// The message, naming the device and the errno.
    public var description: String {
        switch self {
        case let .cannotOpen(path, errno): return "cannot open \(path): \(InputError.message(errno))"
        case .deviceGone(let path): return "\(path) went away"
        case let .failed(path, call, errno): return "\(path): \(call) failed: \(InputError.message(errno))"
        case .udev(let what): return "udev: \(what)"
        case let .tooManyContacts(device, limit):
            return "\(device) sent more than \(limit) contacts in a frame (broken or hostile device); the excess is dropped"
        case .badCalibration(let v): return "bad calibration matrix \"\(v)\": want six numbers, as libinput's LIBINPUT_CALIBRATION_MATRIX"
        case .badFilter(let v): return "bad touch filter \"\(v)\": want off, one-euro, or one-euro with a cutoff at rest (0.01 to 100 Hz) and a beta (0 to 10 Hz per pt/s)"
        case let .missingAxis(device, code): return "\(device): no range for axis 0x\(String(code, radix: 16)), which should carry positions"
        case .notATouchscreen(let d): return "\(d) is not a touchscreen (no INPUT_PROP_DIRECT with ABS_MT_POSITION_X/Y or ABS_X/Y)"
        }
    }

    static func message(_ errno: Int32) -> String { String(cString: strerror(errno)) + " (errno \(errno))" }
}
