import PanelGestures

/// How a touchscreen's axes meet the picture, the settings an operator gives (`input.rotation`
/// plus `display.rotation`, `input.calibration`, `input.swap-axes`, `input.invert-x`,
/// `input.invert-y`, `input.filter`): one value from the configuration to every device and replay.
public struct TouchMapping: Sendable, Hashable {
    /// The turn from the sensor to the picture, clockwise: the picture's own turn plus the
    /// sensor's mounting.
    public var rotation: Rotation
    /// libinput's matrix on the normalised coordinates; a device's udev property wins over it.
    public var calibration: CalibrationMatrix
    /// Exchange X and Y before turning.
    public var swapAxes: Bool
    /// Mirror X before turning.
    public var invertX: Bool
    /// Mirror Y before turning.
    public var invertY: Bool
    /// How positions are smoothed; a device's udev property (PANEL_REFRESH_TOUCH_FILTER) wins over it.
    public var filter: TouchFilter

    /// A mapping; by default the sensor's axes are the picture's, unsmoothed.
    public init(rotation: Rotation = .none, calibration: CalibrationMatrix = .identity, swapAxes: Bool = false,
                invertX: Bool = false, invertY: Bool = false, filter: TouchFilter = .off) {
        self.filter = filter
        self.rotation = rotation
        self.calibration = calibration
        self.swapAxes = swapAxes
        self.invertX = invertX
        self.invertY = invertY
    }

    /// The sensor's axes are the picture's.
    public static let identity = TouchMapping()
}

extension ScreenMapping {
    /// The operator's part of the mapping (everything but the axes' ranges and the picture's size).
    public var touch: TouchMapping {
        get { TouchMapping(rotation: rotation, calibration: calibration, swapAxes: swapAxes, invertX: invertX, invertY: invertY, filter: filter) }
        set {
            rotation = newValue.rotation
            calibration = newValue.calibration
            swapAxes = newValue.swapAxes
            invertX = newValue.invertX
            invertY = newValue.invertY
            filter = newValue.filter
        }
    }
}
