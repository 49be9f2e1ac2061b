import CPixman
import FoundationEssentials
import Glibc
import PanelUI

/// Draws a screen's view tree into a surface: backgrounds, labels, images and the vector
/// artwork, spinners; only inside the damaged area, and only the views that reach into it
/// (a list's off-screen rows do not exist as views at all).
@MainActor
public final class Renderer {
    public let fonts: FontLibrary
    /// Pixels per point.
    public var scale: Double
    /// What shows where no view draws.
    public var clearColor: Color = .white
    /// Hears images that cannot be loaded (once per path); they are then not drawn.
    public var onError: ((RenderError) -> Void)?
    private var images: [String: Surface] = [:]
    private var failedImages = Set<String>()
    /// Views drawn by the last `render`, for tests and statistics.
    public private(set) var viewsDrawn = 0
    /// Views looked at (drawn or not) by the last `render`.
    public private(set) var viewsVisited = 0
    private var masks = MaskCache()
    /// Masks rasterised so far (the rest came from the cache).
    public var masksBuilt: Int { masks.built }

    public init(fonts: FontLibrary, scale: Double = 1) {
        self.fonts = fonts
        self.scale = scale
    }

    /// Draws `screen` into `surface` inside `damage` (points; nil: everything), after moving
    /// the pixels of scrolled content (`moves`, from `Screen.prepareFrame(allowingMoves:)`).
    /// `source` holds the last frame when it is not `surface` itself (double buffering).
    public func render(_ screen: Screen, into surface: Surface, damage: [Rect]? = nil,
                       moves: [ScrollMove] = [], source: Surface? = nil) {
        let canvas = Canvas(surface: surface)
        for move in moves {
            canvas.move(toPixels(move.area), dx: Int((move.delta.x * scale).rounded()),
                        dy: Int((move.delta.y * scale).rounded()), from: source)
        }
        let full = Rect(origin: .zero, size: screen.size)
        let areas = (damage ?? [full]).compactMap { $0.intersection(full) }
        guard !areas.isEmpty else { return }
        // Whole pixels, outwards: what is cleared must be exactly what may be drawn (the clip),
        // or the partial pixels at fractional edges would be drawn over without being cleared.
        let pixelAreas = areas.map { Self.outward(toPixels($0)) }
        let bounds = areas.dropFirst().reduce(areas[0]) { $0.union($1) }
        canvas.setClip(pixelAreas)
        for area in pixelAreas { canvas.fill(area, color: clearColor) }
        viewsDrawn = 0
        viewsVisited = 0
        var state = DrawState(canvas: canvas, damage: areas, damageBounds: bounds, clip: full, currentClip: full)
        draw(screen.rootView, offset: .zero, opacity: 1, screen: screen, state: &state)
        canvas.setClip([])
    }

    private struct DrawState {
        let canvas: Canvas
        let damage: [Rect]
        let damageBounds: Rect
        var clip: Rect
        /// The clip the canvas has now (damage ∩ this).
        var currentClip: Rect
    }

    static func outward(_ r: Rect) -> Rect {
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: r.maxX.rounded(.up) - x0, height: r.maxY.rounded(.up) - y0)
    }

    private func toPixels(_ r: Rect) -> Rect {
        Rect(x: r.minX * scale, y: r.minY * scale, width: r.width * scale, height: r.height * scale)
    }

    private func applyClip(_ state: inout DrawState) {
        guard state.currentClip != state.clip else { return }
        state.currentClip = state.clip
        state.canvas.setClip(state.damage.compactMap { $0.intersection(state.clip) }.map { Self.outward(toPixels($0)) })
    }

    /// `offset`: screen position of the superview's bounds origin, points.
    private func draw(_ view: View, offset: Point, opacity: Double, screen: Screen, state: inout DrawState) {
        viewsVisited += 1
        guard !view.isHidden, view.alpha > 0.004 else { return }
        let frame = Rect(origin: offset + view.frame.origin, size: view.frame.size)
        let extent = view.extentInSuperview.offsetBy(dx: offset.x, dy: offset.y)
        // Views outside the damage and the clip cost nothing; their subviews may still reach
        // out of them (a header above its scroll view's content), so only clipping views and
        // views without subviews are skipped whole.
        let reaches = extent.intersection(state.damageBounds) != nil && extent.intersection(state.clip) != nil
        let clips = view.clipsToBounds || view is ScrollView
        if !reaches && (clips || view.subviews.isEmpty) { return }
        let opacity = opacity * view.alpha
        if reaches {
            viewsDrawn += 1
            applyClip(&state)
            drawContent(view, frame: frame, opacity: opacity, canvas: state.canvas)
        }
        let saved = state.clip
        if clips {
            guard let inner = state.clip.intersection(frame) else { return }
            state.clip = inner
        }
        // Scrolled content sits at whole pixels, where moved pixels land too.
        let origin = view is ScrollView ? screen.drawingOffset(view.boundsOrigin) : view.boundsOrigin
        let childOffset = frame.origin - origin
        // Only the subviews that can reach the damage (a list answers from its rows).
        let area = (state.damageBounds.intersection(state.clip) ?? Rect(x: 0, y: 0, width: 0, height: 0))
            .offsetBy(dx: -childOffset.x, dy: -childOffset.y)
        for subview in view.subviews(reaching: area) { draw(subview, offset: childOffset, opacity: opacity, screen: screen, state: &state) }
        state.clip = saved
    }

    private func drawContent(_ view: View, frame: Rect, opacity: Double, canvas: Canvas) {
        let px = toPixels(frame)
        if let background = view.backgroundColor, background.alpha > 0 {
            if view.cornerRadius > 0 {
                canvas.fillRoundedRect(px, radius: view.cornerRadius * scale, color: background, opacity: opacity)
            } else {
                canvas.fill(px, color: background, opacity: opacity)
            }
        }
        switch view {
        case let label as Label: drawLabel(label, in: px, opacity: opacity, canvas: canvas)
        case let image as ImageView: drawImage(image, in: px, opacity: opacity, canvas: canvas)
        case let spinner as ActivityIndicator: drawSpinner(spinner, in: px, opacity: opacity, canvas: canvas)
        default: break
        }
    }

    private func drawLabel(_ label: Label, in rect: Rect, opacity: Double, canvas: Canvas) {
        guard !label.text.isEmpty, rect.width > 0 else { return }
        let pixels = FontLibrary.pixels(label.font, scale: scale)
        let lines: [String]
        if label.numberOfLines == 1 {
            lines = [fonts.truncate(label.text, font: label.font, pixels: pixels, width: rect.width)]
        } else {
            let wrapped = fonts.wrap(label.text, font: label.font, pixels: pixels, width: rect.width)
            lines = label.numberOfLines > 0 ? Array(wrapped.prefix(label.numberOfLines)) : wrapped
        }
        let m = fonts.metrics(label.font, pixels: pixels)
        let lineHeight = m.height.rounded(.up)
        // Centred vertically, as UILabel does.
        let top = rect.midY - lineHeight * Double(lines.count) / 2
        for (i, line) in lines.enumerated() {
            let width = fonts.advance(line, label.font, pixels: pixels)
            let x: Double
            switch label.alignment {
            case .left: x = rect.minX
            case .center: x = rect.midX - width / 2
            case .right: x = rect.maxX - width
            }
            let baseline = top + Double(i) * lineHeight + (lineHeight - (m.ascender - m.descender)) / 2 + m.ascender
            fonts.drawLine(line, font: label.font, pixels: pixels, x: x, baseline: baseline, color: label.textColor,
                           opacity: opacity, on: canvas)
        }
    }

    /// Where an image of `size` (points) goes in `rect` (pixels) for the content mode.
    private func place(_ size: Size, in rect: Rect, mode: ContentMode) -> Rect {
        let w = size.width * scale, h = size.height * scale
        switch mode {
        case .center: return Rect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h)
        case .right: return Rect(x: rect.maxX - w, y: rect.midY - h / 2, width: w, height: h)
        case .scaleToFill: return rect
        case .scaleAspectFit:
            let f = min(rect.width / max(w, 1), rect.height / max(h, 1))
            return Rect(x: rect.midX - w * f / 2, y: rect.midY - h * f / 2, width: w * f, height: h * f)
        }
    }

    private func drawImage(_ view: ImageView, in rect: Rect, opacity: Double, canvas: Canvas) {
        guard let image = view.currentImage else { return }
        let target = place(image.size, in: rect, mode: view.contentMode)
        let tint = view.tintColor ?? Color(red: 90, green: 90, blue: 90)
        switch image.artwork {
        case .arrow?:
            drawMasked("arrow", in: target, variant: Int((view.rotation * 1000).rounded()), color: tint, opacity: opacity, canvas: canvas) {
                Shapes.arrow(in: $0, rotation: view.rotation)
            }
        case .trailArrow?:
            drawMasked("trail-arrow", in: target, variant: Int((view.rotation * 1000).rounded()), color: tint, opacity: opacity, canvas: canvas) {
                Shapes.trailArrow(in: $0, rotation: view.rotation)
            }
        case nil:
            guard let surface = load(image.name) else { return }
            canvas.draw(image: surface, in: target, rotation: view.rotation, opacity: opacity)
        }
    }

    /// Draws a shape through its cached mask: `shape` gives its triangles in a rect the size of
    /// `rect`, placed inside the mask.
    private func drawMasked(_ name: String, in rect: Rect, variant: Int, color: Color, opacity: Double, canvas: Canvas,
                            shape: (Rect) -> [Triangle]) {
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return }
        let x0 = rect.minX.rounded(.down), y0 = rect.minY.rounded(.down)
        let key = MaskCache.Key(shape: name, width: rect.width, height: rect.height,
                                offsetX: Int(((rect.minX - x0) * 4).rounded()), offsetY: Int(((rect.minY - y0) * 4).rounded()),
                                variant: variant)
        guard let mask = masks.mask(key, { mask, origin in
            mask.add(shape(Rect(origin: origin, size: rect.size)), alpha: 1)
        }) else { return }
        canvas.fill(mask: mask, x: Int(x0) - 1, y: Int(y0) - 1, color: color, opacity: opacity)
    }

    private func load(_ path: String) -> Surface? {
        if let cached = images[path] { return cached }
        guard !failedImages.contains(path) else { return nil }
        do {
            let surface = try PNG.read(path: path)
            images[path] = surface
            return surface
        } catch let error as RenderError {
            failedImages.insert(path)
            onError?(error)
            return nil
        } catch {
            failedImages.insert(path)
            return nil
        }
    }

    private func drawSpinner(_ spinner: ActivityIndicator, in rect: Rect, opacity: Double, canvas: Canvas) {
        guard spinner.isVisible, rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return }
        let n = ActivityIndicator.spokes
        let x0 = rect.minX.rounded(.down), y0 = rect.minY.rounded(.down)
        let key = MaskCache.Key(shape: "spinner-\(n)", width: rect.width, height: rect.height,
                                offsetX: Int(((rect.minX - x0) * 4).rounded()), offsetY: Int(((rect.minY - y0) * 4).rounded()),
                                variant: spinner.phase)
        guard let mask = masks.mask(key, { mask, origin in
            let box = Rect(origin: origin, size: rect.size)
            for i in 0..<n {
                // The spoke at `phase` is the darkest; the ones behind it fade, as UIKit's do.
                let behind = (spinner.phase - i + n) % n
                mask.add(Shapes.spinnerSpoke(in: box, index: i, spokes: n), alpha: 1 - Double(behind) / Double(n) * 0.8)
            }
        }) else { return }
        canvas.fill(mask: mask, x: Int(x0) - 1, y: Int(y0) - 1, color: spinner.color, opacity: opacity)
    }
}
