/// Kernel input event types and codes used by PanelInput, from the stable kernel ABI
/// (linux/input-event-codes.h). Kept in Swift so that parsing and slot assembly work without
/// the C headers (tests, replay on machines without libevdev headers).
public enum EventType {
    /// EV_SYN: frame boundaries.
    public static let syn: UInt16 = 0x00
    /// EV_KEY: keys and buttons.
    public static let key: UInt16 = 0x01
    /// EV_REL: relative axes.
    public static let rel: UInt16 = 0x02
    /// EV_ABS: absolute axes.
    public static let abs: UInt16 = 0x03
    /// EV_MSC: miscellaneous.
    public static let msc: UInt16 = 0x04
    /// EV_SW: switches.
    public static let sw: UInt16 = 0x05
    /// EV_LED: LEDs.
    public static let led: UInt16 = 0x11
    /// EV_SND: sounds.
    public static let snd: UInt16 = 0x12
    /// EV_REP: autorepeat.
    public static let rep: UInt16 = 0x14
    /// EV_FF: force feedback.
    public static let ff: UInt16 = 0x15
    /// EV_MAX.
    public static let max: UInt16 = 0x1f
}

/// EV_SYN codes (linux/input-event-codes.h).
public enum SynCode {
    /// SYN_REPORT: the end of a frame.
    public static let report: UInt16 = 0
    /// SYN_CONFIG.
    public static let config: UInt16 = 1
    /// SYN_MT_REPORT: the end of one contact (protocol A).
    public static let mtReport: UInt16 = 2
    /// SYN_DROPPED: the kernel's buffer overran.
    public static let dropped: UInt16 = 3
}

/// EV_KEY codes a touchscreen sends.
public enum KeyCode {
    /// BTN_TOUCH: a finger is down.
    public static let btnTouch: UInt16 = 0x14a
    /// BTN_TOOL_FINGER.
    public static let btnToolFinger: UInt16 = 0x145
    /// BTN_TOOL_DOUBLETAP.
    public static let btnToolDoubleTap: UInt16 = 0x14d
}

/// EV_ABS codes a touchscreen sends.
public enum AbsCode {
    /// ABS_X.
    public static let x: UInt16 = 0x00
    /// ABS_Y.
    public static let y: UInt16 = 0x01
    /// ABS_Z (some single-touch panels' X).
    public static let z: UInt16 = 0x02
    /// ABS_RX (some single-touch panels' Y).
    public static let rx: UInt16 = 0x03
    /// ABS_MT_SLOT: the slot the following events are for (protocol B).
    public static let mtSlot: UInt16 = 0x2f
    /// ABS_MT_TOUCH_MAJOR.
    public static let mtTouchMajor: UInt16 = 0x30
    /// ABS_MT_POSITION_X.
    public static let mtPositionX: UInt16 = 0x35
    /// ABS_MT_POSITION_Y.
    public static let mtPositionY: UInt16 = 0x36
    /// ABS_MT_TRACKING_ID: a contact's id; -1 lifts it.
    public static let mtTrackingID: UInt16 = 0x39
    /// ABS_MAX.
    public static let max: UInt16 = 0x3f
}

/// Input properties (INPUT_PROP_*).
public enum InputProperty {
    /// INPUT_PROP_DIRECT: the device is a touchscreen (positions are on the display).
    public static let direct: UInt16 = 0x01
}
