import PanelRender
import PanelUI

/// Something that shows frames: a DRM output, a framebuffer, or memory.
@MainActor
public protocol Display: AnyObject {
    /// Pixels.
    var width: Int { get }
    var height: Int { get }
    var format: PixelFormat { get }
    /// Where the next frame is drawn. Double-buffered displays hand out the buffer that is not
    /// on screen; it holds an older frame, so draw `damageToRedraw(for:)`, not just the new
    /// damage.
    var backSurface: Surface { get }
    /// The frame on screen, when it is another buffer than `backSurface` (moved pixels are
    /// copied from it); nil when one buffer holds the last frame.
    var frontSurface: Surface? { get }
    /// The area of the back surface that must be drawn for a frame whose own damage is
    /// `damage` (pixels): with two buffers, also what the other buffer's last frame changed.
    func damageToRedraw(for damage: [Rect]) -> [Rect]
    /// Puts the back surface on screen. `completion` runs once the frame is visible (after the
    /// vertical blank on DRM; at once in memory). Never call it again before then.
    func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws
}

/// A display in memory: tests, the demo on machines with no panel, replays that save frames.
@MainActor
public final class HeadlessDisplay: Display {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let backSurface: Surface
    /// Frames presented so far.
    public private(set) var framesPresented = 0
    /// Damage of the last present, pixels.
    public private(set) var lastDamage: [Rect] = []
    /// When set, every presented frame is written here as frame-NNNNN.png.
    public var frameDirectory: String?

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        self.width = width
        self.height = height
        self.format = format
        backSurface = Surface(width: width, height: height, format: format)
    }

    public var frontSurface: Surface? { nil }

    /// One buffer: it always holds the last frame, so the new damage is all there is to draw.
    public func damageToRedraw(for damage: [Rect]) -> [Rect] { damage }

    public func present(damage: [Rect], completion: @escaping @MainActor () -> Void) throws {
        framesPresented += 1
        lastDamage = damage
        if let frameDirectory {
            let name = "frame-" + String(repeating: "0", count: max(0, 5 - String(framesPresented).count)) + "\(framesPresented).png"
            try PNG.write(backSurface, to: frameDirectory + "/" + name)
        }
        completion()
    }

    /// The frame on show, as a PNG file.
    public func savePNG(to path: String) throws { try PNG.write(backSurface, to: path) }
}
