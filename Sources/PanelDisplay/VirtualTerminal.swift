import CConsole
import Glibc

/// The VT ioctls a `VirtualTerminal` makes: the seam for tests.
public protocol TerminalCalls: AnyObject {
    /// KDSETMODE: graphics (the console stops drawing on the VT) or text.
    func setGraphics(_ fd: Int32, _ graphics: Bool) -> Int32
    /// KDGETMODE: 1 in graphics mode, 0 in text mode, -1 on error.
    func graphicsMode(_ fd: Int32) -> Int32
    /// VT_SETMODE: VT_PROCESS with `signal` for both directions, or VT_AUTO.
    func setProcessMode(_ fd: Int32, _ process: Bool, signal: Int32) -> Int32
    /// VT_RELDISP 1: lets a pending switch away go on; fails (EINVAL) when none is pending.
    func release(_ fd: Int32) -> Int32
    /// VT_RELDISP VT_ACKACQ.
    func acknowledgeAcquire(_ fd: Int32) -> Int32
    /// VT_GETSTATE's VT in front, -1 on error.
    func activeTerminal(_ fd: Int32) -> Int32
}

/// The kernel's VT ioctls.
public final class KernelTerminal: TerminalCalls {
    /// The calls, on the kernel.
    public init() {}
    /// KDSETMODE.
    public func setGraphics(_ fd: Int32, _ graphics: Bool) -> Int32 { panel_vt_set_graphics(fd, graphics ? 1 : 0) }
    /// KDGETMODE.
    public func graphicsMode(_ fd: Int32) -> Int32 { panel_vt_graphics_mode(fd) }
    /// VT_SETMODE.
    public func setProcessMode(_ fd: Int32, _ process: Bool, signal: Int32) -> Int32 { panel_vt_set_process(fd, process ? 1 : 0, signal) }
    /// VT_RELDISP 1.
    public func release(_ fd: Int32) -> Int32 { panel_vt_release(fd) }
    /// VT_RELDISP VT_ACKACQ.
    public func acknowledgeAcquire(_ fd: Int32) -> Int32 { panel_vt_acknowledge_acquire(fd) }
    /// VT_GETSTATE.
    public func activeTerminal(_ fd: Int32) -> Int32 { panel_vt_active(fd) }
}

/// Why the kiosk does not switch VTs itself.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Standard input is not a virtual terminal (a pipe, /dev/null, a serial line, a pty).
    case notAVirtualTerminal(String)
    /// An ioctl was refused (the VT is not the controlling terminal, and no CAP_SYS_TTY_CONFIG).
    case call(String, errno: Int32)

    /// What is wrong, and what to do.
    public var description: String {
        switch self {
        case .notAVirtualTerminal(let what):
            "standard input is \(what), not a virtual terminal (give the unit TTYPath=/dev/ttyN and StandardInput=tty)"
        case let .call(name, errno):
            "\(name) on the VT: \(String(cString: strerror(errno))) (errno \(errno)); the VT must be the controlling terminal"
        }
    }
}

/// What a VT switch signal meant.
public enum TerminalSwitch: Sendable, Hashable {
    /// The kernel asked to switch away; the caller has stopped drawing and given up DRM master,
    /// and the switch went on.
    case released
    /// The VT is in front again: take DRM master back and draw a full frame.
    case acquired
    /// Nothing to do (a stray signal: no switch was pending).
    case none
}

/// The kiosk's virtual terminal on the groups path (no logind session): in graphics mode while
/// the kiosk runs, so the console does not draw over the list, and switched by the process
/// (`VT_PROCESS`): a switch to another VT waits until the kiosk has stopped drawing and
/// dropped DRM master, and the switch back tells it to take them again. The same signal serves
/// both directions; what it means follows from whether the kiosk holds the VT.
///
/// `restore()` (at exit) puts text mode and automatic switching back; after a crash the
/// kernel resets the switching when the next switch finds the process gone, and the unit's
/// `TTYReset=yes` puts text mode back.
@MainActor
public final class VirtualTerminal {
    /// The VT's descriptor (standard input: the unit's `TTYPath=`).
    public let fileDescriptor: Int32
    /// Its number (tty1 is 1).
    public let number: Int
    /// The signal the kernel sends for a switch.
    public let signal: Int32
    /// Whether the kiosk holds the VT (it is in front and the kiosk draws).
    public private(set) var isHeld = true
    private let calls: any TerminalCalls
    private var restored = false

    /// The VT on `fd` (by default standard input), which must be a virtual terminal
    /// (`/dev/ttyN`, major 4, minor 1...63): put in graphics mode and process switching.
    public init(fd: Int32 = 0, signal: Int32 = SIGUSR2, calls: any TerminalCalls = KernelTerminal(),
                device: (major: UInt32, minor: UInt32)? = nil) throws(TerminalError) {
        guard let found = device.map({ DeviceNumber(major: $0.major, minor: $0.minor) }) ?? DeviceNumber(fd: fd) else {
            throw .notAVirtualTerminal("not a character device")
        }
        // TTY_MAJOR 4: minors 1-63 are the VTs (0 is the current console, 64 on the serial lines).
        guard found.major == DeviceNumber.ttyMajor, (1...63).contains(found.minor) else {
            throw .notAVirtualTerminal("the device \(found)")
        }
        let minor = found.minor
        (fileDescriptor, number, self.signal, self.calls) = (fd, Int(minor), signal, calls)
        guard calls.setProcessMode(fd, true, signal: signal) == 0 else { throw .call("VT_SETMODE", errno: errno) }
        guard calls.setGraphics(fd, true) == 0 else {
            let code = errno
            _ = calls.setProcessMode(fd, false, signal: 0)
            throw .call("KDSETMODE", errno: code)
        }
    }

    /// The switch signal arrived. Held: `stopDrawing` runs (no frame, DRM master dropped), then
    /// the switch is allowed; if none was pending (a stray signal) `startDrawing` runs at once.
    /// Not held: if the VT is in front again, the switch back is acknowledged.
    public func switchSignal(stopDrawing: () -> Void, startDrawing: () -> Void) -> TerminalSwitch {
        if isHeld {
            stopDrawing()
            guard calls.release(fileDescriptor) == 0 else {
                startDrawing()
                return .none
            }
            isHeld = false
            return .released
        }
        guard calls.activeTerminal(fileDescriptor) == Int32(number) else { return .none }
        _ = calls.acknowledgeAcquire(fileDescriptor)
        isHeld = true
        return .acquired
    }

    /// Whether the VT is in graphics mode now.
    public var isGraphics: Bool { calls.graphicsMode(fileDescriptor) == 1 }

    /// Text mode and automatic switching again (at exit). Safe twice.
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = calls.setGraphics(fileDescriptor, false)
        _ = calls.setProcessMode(fileDescriptor, false, signal: 0)
    }
}
