/// How the picture is turned on the glass, clockwise: the display draws it so, and touch
/// positions on the glass are turned back by the same amount before the UI sees them.
public enum Rotation: Int, Sendable, Hashable, CaseIterable {
    /// The picture's turn on the glass, clockwise, in degrees.
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// Whether the picture's width lies along the glass's height.
    public var swapsSides: Bool { self == .clockwise90 || self == .clockwise270 }

    /// This turn followed by `other`.
    public func adding(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360) ?? .none
    }
}
