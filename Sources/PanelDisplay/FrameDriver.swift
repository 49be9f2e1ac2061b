import PanelRender
import PanelUI

/// Draws a screen's frames on a display: the frame pass, the renderer on the damaged area,
/// present, and telling the screen when the frame is on the panel. One frame at a time: a
/// frame asked for while one is in flight waits for its completion.
@MainActor
public final class FrameDriver {
    public let screen: Screen
    public let renderer: Renderer
    public let display: any Display
    public private(set) var inFlight = false
    private var firstFrame = true
    /// Hears present failures (the frame is dropped, the next one tries again).
    public var onError: ((any Error) -> Void)?

    public init(screen: Screen, renderer: Renderer, display: any Display) {
        self.screen = screen
        self.renderer = renderer
        self.display = display
    }

    /// Runs one frame if none is in flight. Returns whether it drew (nothing changed: no draw).
    @discardableResult
    public func drawFrame() -> Bool {
        guard !inFlight else { return false }
        var update = screen.prepareFrame(allowingMoves: !firstFrame)
        let scale = renderer.scale
        if firstFrame {
            update.moves = []
            update.damage = [Rect(x: 0, y: 0, width: screen.size.width, height: screen.size.height)]
        }
        // Moved areas are new pixels too, as far as the display is concerned.
        let changed = update.damage + update.moves.map(\.area)
        let pixels = changed.map { Rect(x: $0.minX * scale, y: $0.minY * scale, width: $0.width * scale, height: $0.height * scale) }
        guard !pixels.isEmpty else { return false }
        let redraw = display.damageToRedraw(for: update.damage.map {
            Rect(x: $0.minX * scale, y: $0.minY * scale, width: $0.width * scale, height: $0.height * scale)
        }).map { Rect(x: $0.minX / scale, y: $0.minY / scale, width: $0.width / scale, height: $0.height / scale) }
        renderer.render(screen, into: display.backSurface, damage: redraw, moves: update.moves, source: display.frontSurface)
        inFlight = true
        do {
            try display.present(damage: pixels) { [weak self] in
                self?.inFlight = false
                self?.screen.didPresentFrame()
            }
            firstFrame = false
            return true
        } catch {
            inFlight = false
            onError?(error)
            return false
        }
    }
}
