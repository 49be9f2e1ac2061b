/// A VT in memory: what the kernel would answer to the VT's ioctls, and what was asked of it.
/// For the tests of a host's VT switches, the program's and apps' own, as ``MemoryDRM`` is
/// for a card.
public final class MemoryTerminal: TerminalCalls {
    /// What was asked, in order: "graphics", "text", "process N", "auto", "release", "acquire".
    public var log: [String] = []
    /// Whether a switch away waits for VT_RELDISP (another VT asked for the screen).
    public var switchPending = false
    /// The VT in front.
    public var active: Int32 = 1
    /// Whether the VT is in graphics mode.
    public private(set) var graphics = false
    /// Whether the mode calls fail (a VT that is not the process's controlling terminal).
    public var refuseModes = false

    /// A VT 1 in front, in text mode, with no switch pending.
    public init() {}

    /// KDSETMODE, logged; fails with `refuseModes`.
    public func setGraphics(_ fd: Int32, _ graphics: Bool) -> Int32 {
        log.append(graphics ? "graphics" : "text")
        if refuseModes { return -1 }
        self.graphics = graphics
        return 0
    }
    /// KDGETMODE.
    public func graphicsMode(_ fd: Int32) -> Int32 { graphics ? 1 : 0 }
    /// VT_SETMODE, logged; fails with `refuseModes`.
    public func setProcessMode(_ fd: Int32, _ process: Bool, signal: Int32) -> Int32 {
        log.append(process ? "process \(signal)" : "auto")
        return refuseModes ? -1 : 0
    }
    /// VT_RELDISP 1: the pending switch goes on (VT 2 comes in front); fails with none pending.
    public func release(_ fd: Int32) -> Int32 {
        log.append("release")
        guard switchPending else { return -1 }
        switchPending = false
        active = 2
        return 0
    }
    /// VT_RELDISP VT_ACKACQ, logged.
    public func acknowledgeAcquire(_ fd: Int32) -> Int32 {
        log.append("acquire")
        return 0
    }
    /// VT_GETSTATE's VT in front.
    public func activeTerminal(_ fd: Int32) -> Int32 { active }
}
