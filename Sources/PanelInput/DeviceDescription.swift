/// An absolute axis: `struct input_absinfo` without the current value.
public struct AbsInfo: Sendable, Hashable {
    /// The smallest value the axis reports.
    public var minimum: Int32
    /// The largest value the axis reports.
    public var maximum: Int32
    /// Noise the kernel filters out, units.
    public var fuzz: Int32
    /// The dead zone around the centre, units.
    public var flat: Int32
    /// Units per millimetre (0: unknown, common on touchscreens).
    public var resolution: Int32

    /// An axis from `minimum` to `maximum` with the kernel's fuzz, flat and resolution (units per mm).
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        (self.minimum, self.maximum, self.fuzz, self.flat, self.resolution) = (minimum, maximum, fuzz, flat, resolution)
    }
}

/// What an input device is and what it can send: an evemu description, or what libevdev
/// reports for a live device.
public struct DeviceDescription: Sendable, Hashable {
    /// The device's name, as the kernel reports it.
    public var name: String
    /// The bus (BUS_USB, BUS_I2C, …).
    public var bustype: UInt16
    /// The USB or bus vendor id.
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The hardware version.
    public var version: UInt16
    /// INPUT_PROP_* numbers.
    public var properties: Set<UInt16>
    /// Codes per event type.
    public var codes: [UInt16: Set<UInt16>]
    /// The absolute axes' ranges, by ABS code.
    public var absInfo: [UInt16: AbsInfo]
    /// LED and switch states (evemu 1.3 `L:` / `S:`), only the non-zero ones.
    public var leds: [UInt16: Int32]
    /// The switches' states, by SW code.
    public var switches: [UInt16: Int32]

    /// A description; everything but the name defaults to none.
    public init(name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:],
                leds: [UInt16: Int32] = [:], switches: [UInt16: Int32] = [:]) {
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.leds = leds
        self.switches = switches
    }

    /// Whether the device reports event `type` with `code`.
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    /// Whether the device has absolute axis `code`.
    public func hasAbs(_ code: UInt16) -> Bool { has(type: EventType.abs, code: code) || absInfo[code] != nil }

    /// The multitouch protocol the device speaks, from what it declares.
    public var touchProtocol: TouchProtocol {
        if hasAbs(AbsCode.mtSlot) || hasAbs(AbsCode.mtTrackingID) { return .multitouchB }
        if hasAbs(AbsCode.mtPositionX) && hasAbs(AbsCode.mtPositionY) { return .multitouchA }
        return .singleTouch
    }

    /// A direct-touch device with positions: what PanelInput accepts as a touchscreen. Old
    /// drivers do not set INPUT_PROP_DIRECT (N-Trig, eGalax); `requireDirect: false` lets
    /// them through when the caller knows better (udev's ID_INPUT_TOUCHSCREEN).
    public func isTouchscreen(requireDirect: Bool = true) -> Bool {
        if requireDirect && !properties.contains(InputProperty.direct) { return false }
        let mt = hasAbs(AbsCode.mtPositionX) && hasAbs(AbsCode.mtPositionY)
        let st = hasAbs(AbsCode.x) && hasAbs(AbsCode.y)
        return mt || st
    }
}

/// How contacts are reported.
public enum TouchProtocol: String, Sendable, Hashable {
    /// Slots and tracking ids (ABS_MT_SLOT / ABS_MT_TRACKING_ID); slot 0 when no slot events.
    case multitouchB
    /// Anonymous contacts separated by SYN_MT_REPORT, no ids.
    case multitouchA
    /// One contact: BTN_TOUCH and ABS_X / ABS_Y.
    case singleTouch
}
