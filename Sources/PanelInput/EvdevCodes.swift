/// Kernel input event types and codes used by PanelInput, from the stable kernel ABI
/// (linux/input-event-codes.h). Kept in Swift so that parsing and slot assembly work without
/// the C headers (tests, replay on machines without libevdev headers).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    /// EV_MAX.
    public static let max: UInt16 = 0x1f
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum KeyCode {
    public static let btnTouch: UInt16 = 0x14a
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolDoubleTap: UInt16 = 0x14d
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let z: UInt16 = 0x02
    public static let rx: UInt16 = 0x03
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtTrackingID: UInt16 = 0x39
    /// ABS_MAX.
    public static let max: UInt16 = 0x3f
}

public enum InputProperty {
    /// INPUT_PROP_DIRECT: the device is a touchscreen (positions are on the display).
    public static let direct: UInt16 = 0x01
}
