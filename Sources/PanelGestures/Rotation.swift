/// How the picture is turned on the glass, clockwise: the display draws it so, and touch
/// positions on the glass are turned back by the same amount before the UI sees them.
public enum Rotation: Int, Sendable, Hashable, CaseIterable {
    /// Not turned.
    case none = 0
    /// A quarter turn clockwise.
    case clockwise90 = 90
    /// Half a turn.
    case upsideDown = 180
    /// Three quarters clockwise (a quarter anticlockwise).
    case clockwise270 = 270

    /// The turn a text gives in degrees ("0", "90", "180", "270"), nil for anything else: the
    /// one reading of a rotation for the configuration and the command line.
    public init?(degrees text: String) {
        guard let degrees = Int(text) else { return nil }
        self.init(rawValue: degrees)
    }

    /// Whether the picture's width lies along the glass's height.
    public var swapsSides: Bool { self == .clockwise90 || self == .clockwise270 }

    /// This turn followed by `other`.
    public func adding(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360) ?? .none
    }
}
