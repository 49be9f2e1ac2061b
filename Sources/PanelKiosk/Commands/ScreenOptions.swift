import PanelHost

/// Options shared by the headless commands.
public struct ScreenOptions: Sendable {
    /// Pixels across.
    public var width = 800
    /// Pixels down.
    public var height = 480

    /// 800x480, the demo's size.
    public init() {}

    /// Parses "WxH" (PanelHost's `ConfigurationValue.screenSize(_:)`).
    public static func parse(_ text: String) throws(UsageError) -> (Int, Int) {
        guard let size = ConfigurationValue.screenSize(text) else {
            throw UsageError("bad screen size \"\(text)\": want WIDTHxHEIGHT, e.g. 800x480")
        }
        return size
    }
}
