import Glibc
import PanelGestures

/// libinput's calibration matrix: six numbers [a b c; d e f] applied to the device's
/// normalised coordinates (0...1): x' = a·x + b·y + c, y' = d·x + e·y + f.
public struct CalibrationMatrix: Sendable, Hashable, CustomStringConvertible {
    /// The matrix's entries, row by row.
    public var a, b, c, d, e, f: Double

    /// A matrix of six entries, row by row.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The matrix that changes nothing.
    public static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// Largest magnitude of an entry: 10,000. Real matrices hold scale factors near 1 and
    /// offsets within ±1 (libinput's documentation of LIBINPUT_CALIBRATION_MATRIX); larger
    /// ones could only come from a typo or a hostile property, and could overflow to
    /// infinity and NaN positions.
    public static let maxMagnitude = 10_000.0

    /// Parses the udev property LIBINPUT_CALIBRATION_MATRIX ("1 0 0 0 1 0"): six finite
    /// numbers within ±`maxMagnitude` separated by blanks.
    public init(udevProperty value: String) throws {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numbers = parts.compactMap { Double($0) }.filter { $0.isFinite && abs($0) <= Self.maxMagnitude }
        guard parts.count == 6, numbers.count == 6 else {
            throw InputError.badCalibration(value)
        }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// The matrix applied to a normalised point.
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// The six numbers, as udev's property writes them.
    public var description: String { "\(a) \(b) \(c) \(d) \(e) \(f)" }
}

/// Device units to screen pixels: normalise each axis by its own range (panels with 55
/// units/mm on X and 98 on Y come out right), apply the calibration matrix, swap and invert,
/// turn by the rotation, scale to the screen. Values outside the declared range are clamped
/// to the screen's edge.
public struct ScreenMapping: Sendable, Hashable {
    /// The device's X axis range.
    public var xAxis: AbsInfo
    /// The device's Y axis range.
    public var yAxis: AbsInfo
    /// Screen size in pixels, after rotation (what the UI sees).
    public var width: Double
    /// The picture's height in pixels, after rotation.
    public var height: Double
    /// The turn from the sensor to the picture, clockwise.
    public var rotation: Rotation = .none
    /// Exchange X and Y before turning.
    public var swapAxes = false
    /// Mirror X before turning.
    public var invertX = false
    /// Mirror Y before turning.
    public var invertY = false
    /// libinput's matrix on the normalised coordinates.
    public var calibration: CalibrationMatrix = .identity
    /// How the mapped positions are smoothed (`TouchAssembler` applies it per contact).
    public var filter: TouchFilter = .off

    /// A mapping of the device's axes to a `width`×`height` picture, nothing turned or mirrored.
    public init(xAxis: AbsInfo, yAxis: AbsInfo, width: Double, height: Double) {
        (self.xAxis, self.yAxis, self.width, self.height) = (xAxis, yAxis, width, height)
    }

    /// The screen position of device coordinates (x, y), px.
    public func map(x: Int32, y: Int32) -> Point {
        func normalise(_ v: Int32, _ axis: AbsInfo) -> Double {
            let span = Double(axis.maximum) - Double(axis.minimum)
            guard span > 0 else { return 0 }
            return (Double(v) - Double(axis.minimum)) / span
        }
        var p = calibration.apply(Point(x: normalise(x, xAxis), y: normalise(y, yAxis)))
        if swapAxes { p = Point(x: p.y, y: p.x) }
        if invertX { p.x = 1 - p.x }
        if invertY { p.y = 1 - p.y }
        switch rotation {
        case .none: break
        // The picture's top edge lies along the panel's right edge: its origin is the panel's
        // top-right corner, its x runs down the panel, its y runs left.
        case .clockwise90: p = Point(x: p.y, y: 1 - p.x)
        case .upsideDown: p = Point(x: 1 - p.x, y: 1 - p.y)
        case .clockwise270: p = Point(x: 1 - p.y, y: p.x)
        }
        // A NaN would pass min/max unchanged: a matrix set in code is not checked as a parsed one is.
        let nx = p.x.isNaN ? 0 : min(max(p.x, 0), 1), ny = p.y.isNaN ? 0 : min(max(p.y, 0), 1)
        return Point(x: nx * max(width - 1, 0), y: ny * max(height - 1, 0))
    }
}
