import CPixman
import Glibc
import PanelUI

/// Pictures decoded elsewhere that the renderer draws by name (`ImageReference.isSupplied`).
@MainActor
public protocol ImageSupplier: AnyObject {
    /// The picture known as `name`, at the size it is drawn, or nil while there is none (the
    /// view then shows its background: the placeholder).
    func surface(named name: String) -> Surface?
}

/// Draws a screen's view tree into a surface: backgrounds, labels, images and the vector
/// artwork, spinners; only inside the damaged area, and only the views that reach into it
/// (a list's off-screen rows do not exist as views at all).
@MainActor
public final class Renderer {
    /// The faces text is drawn with.
    public let fonts: FontLibrary
    /// Pixels per point.
    public var scale: Double
    /// What shows where no view draws.
    public var clearColor: Color = .white
    /// How much of the light the picture loses, 0 (none) to 1 (black): a panel dimmed where
    /// no backlight can be set (a desktop window, the headless display, an HDMI monitor) is
    /// darkened by drawing black at this opacity over every damaged area. Pixels moved from
    /// the last frame are darkened already; a change of it needs a whole frame.
    public var dimming = 0.0
    /// Hears images that cannot be loaded (once per path); they are then not drawn.
    public var onError: ((RenderError) -> Void)?
    /// The most pixels one image file may declare; larger ones are refused before decoding
    /// and reported through `onError` (`PNG.defaultMaxPixels`).
    public var maxImagePixels = PNG.defaultMaxPixels
    /// Bytes the decoded images may take together (`defaultImageCacheBytes`).
    public var imageCacheBytes: Int {
        get { images.budget }
        set { images.budget = max(0, newValue) }
    }
    /// 32 MiB: a screenful of thumbnails and a header's gif frames at their drawn size, about
    /// 6 % of a 512 MB board.
    nonisolated public static let defaultImageCacheBytes = 32 << 20
    private var images = ImageCache(budget: Renderer.defaultImageCacheBytes)
    private var failedImages = Set<String>()
    /// Bytes the decoded images take now.
    public var imageCacheUsed: Int { images.bytes }
    /// Image files decoded so far (each at the size it is drawn).
    public var imagesDecoded: Int { images.decoded }
    /// Holds the pictures views name with `ImageReference(supplied:size:)` (held weakly): a
    /// list's thumbnails, decoded off the run loop.
    public weak var imageSupplier: (any ImageSupplier)?
    /// Views drawn by the last `render`, for tests and statistics.
    public private(set) var viewsDrawn = 0
    /// Views looked at (drawn or not) by the last `render`.
    public private(set) var viewsVisited = 0
    private var masks = MaskCache()
    /// Masks rasterised so far (the rest came from the cache).
    public var masksBuilt: Int { masks.built }

    /// What views draw their own content with (one, reused for every view).
    private lazy var ownDrawing = ViewDrawing(renderer: self)
    /// The direction of the screen being drawn (text with no strong letter of its own).
    private(set) var layoutDirection = LayoutDirection.leftToRight
    /// A clip no state has: the canvas's clip is set again before the next view draws.
    private static let noClip = Rect(x: -1, y: -1, width: 0, height: 0)

    /// A renderer with `fonts`, `scale` pixels per point.
    public init(fonts: FontLibrary, scale: Double = 1) { (self.fonts, self.scale) = (fonts, scale) }

    /// Draws `screen` into `surface` inside `damage` (points; nil: everything), after moving
    /// the pixels of scrolled content (`moves`, from `Screen.prepareFrame(allowingMoves:)`).
    /// `source` holds the last frame when it is not `surface` itself (double buffering).
    public func render(_ screen: Screen, into surface: Surface, damage: [Rect]? = nil,
                       moves: [ScrollMove] = [], source: Surface? = nil) {
        let canvas = Canvas(surface: surface)
        layoutDirection = screen.layoutDirection
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
        // Cleared as it is drawn on, not first: what opaque views fill is written once.
        let pending = PendingClear(pixelAreas, color: clearColor)
        viewsDrawn = 0
        viewsVisited = 0
        var state = DrawState(canvas: canvas, pending: pending, damage: areas, damageBounds: bounds, clip: full, currentClip: full)
        draw(screen.rootView, offset: .zero, opacity: 1, screen: screen, state: &state)
        canvas.setClip([])
        pending.clearRest(on: canvas)
        if dimming > 0.001 {
            canvas.setClip(pixelAreas)
            canvas.fill(toPixels(full), color: .black, opacity: min(1, dimming))
            canvas.setClip([])
        }
    }

    struct DrawState {
        let canvas: Canvas
        let pending: PendingClear
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

    func toPixels(_ r: Rect) -> Rect {
        Rect(x: r.minX * scale, y: r.minY * scale, width: r.width * scale, height: r.height * scale)
    }

    private func applyClip(_ state: inout DrawState) {
        guard state.currentClip != state.clip else { return }
        state.currentClip = state.clip
        // One array, not one per step: this runs for most views a frame draws.
        var rects: [Rect] = []
        rects.reserveCapacity(state.damage.count)
        for area in state.damage {
            if let inside = area.intersection(state.clip) { rects.append(Self.outward(toPixels(inside))) }
        }
        state.canvas.setClip(rects)
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
            drawContent(view, frame: frame, extent: extent, opacity: opacity, canvas: state.canvas, pending: state.pending)
            // The view's own drawing: the context clears and clips only once something is drawn.
            ownDrawing.begin(frame: frame, extent: extent, opacity: opacity, state: state)
            view.draw(in: ownDrawing)
            if ownDrawing.end() { state.currentClip = Self.noClip }
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
        // A mirroring view (a right-to-left horizontal list) finds its subviews where they were
        // laid out and draws each at its reflected place.
        let mirrored = view.mirrorsSubviews
        for subview in view.subviews(reaching: mirrored ? view.reflected(area, origin: origin) : area) {
            var offset = childOffset
            if mirrored {
                let shown = view.shownFrame(of: subview, origin: origin)
                offset = offset + Point(x: shown.minX - subview.frame.minX, y: 0)
            }
            draw(subview, offset: offset, opacity: opacity, screen: screen, state: &state)
        }
        state.clip = saved
    }

    /// A box `margin` whole pixels around `r` (pixels).
    static func box(around r: Rect, margin: Int32) -> pixman_box32_t {
        var b = Canvas.box(r)
        (b.x1, b.y1, b.x2, b.y2) = (b.x1 - margin, b.y1 - margin, b.x2 + margin, b.y2 + margin)
        return b
    }

    private func drawContent(_ view: View, frame: Rect, extent: Rect, opacity: Double, canvas: Canvas, pending: PendingClear) {
        let px = toPixels(frame)
        if let background = view.backgroundColor, background.alpha > 0 {
            if background.alpha == 255, opacity >= 1, view.cornerRadius <= 0 {
                // The fill writes its rounded box whole (Canvas.fill): no clear under it.
                pending.cover(pixman_box32_t(x1: Int32(px.minX.rounded()), y1: Int32(px.minY.rounded()),
                                             x2: Int32(px.maxX.rounded()), y2: Int32(px.maxY.rounded())), on: canvas)
            } else {
                // It blends, anti-aliased edges a pixel out at most.
                pending.clear(Self.box(around: px, margin: 1), on: canvas)
            }
            if view.cornerRadius > 0 {
                canvas.fillRoundedRect(px, radius: view.cornerRadius * scale, color: background, opacity: opacity)
            } else {
                canvas.fill(px, color: background, opacity: opacity)
            }
        }
        // Content blends over what is there: cleared first, all the view may draw (its extent,
        // as the culling takes it) and two pixels for the masks' margin and anti-aliasing.
        if view is Label || view is ImageView || view is ActivityIndicator {
            pending.clear(Self.box(around: toPixels(extent), margin: 2), on: canvas)
        }
        switch view {
        case let label as Label: drawLabel(label, in: px, opacity: opacity, canvas: canvas)
        case let image as ImageView: drawImage(image, in: px, opacity: opacity, canvas: canvas)
        case let spinner as ActivityIndicator: drawSpinner(spinner, in: px, opacity: opacity, canvas: canvas)
        default: break
        }
    }

    /// Lines a label with `numberOfLines == 0` draws at most: 256, more than any panel shows at
    /// the smallest text, so a megabyte of text costs no more than a screenful.
    static let maxUnlimitedLines = 256

    private func drawLabel(_ label: Label, in rect: Rect, opacity: Double, canvas: Canvas) {
        guard !label.text.isEmpty, rect.width > 0 else { return }
        // A label that may shrink or wrap draws with the font and lines its layout chose.
        let (font, fittedLines) = label.fitted(width: rect.width / scale)
        drawText(label.laidOutText, font: font, maxLines: fittedLines, alignment: label.alignment, color: label.textColor,
                 rightToLeftUI: label.screen?.layoutDirection == .rightToLeft, in: rect, opacity: opacity, canvas: canvas)
    }

    /// Text in `rect` (pixels), centred vertically; `maxLines` 0: as many as fit.
    func drawText(_ text: String, font: Font, maxLines: Int, alignment: TextAlignment, color: Color, rightToLeftUI: Bool,
                  in rect: Rect, opacity: Double, canvas: Canvas) {
        guard !text.isEmpty, rect.width > 0 else { return }
        let pixels = FontLibrary.pixels(font, scale: scale)
        let m = fonts.metrics(font, pixels: pixels)
        let lineHeight = m.height.rounded(.up)
        // Lines past the label's height are not laid out (UILabel cuts the last one that fits
        // with "…"); a label with no limit draws at most `maxUnlimitedLines`.
        let asked = maxLines > 0 ? maxLines : Self.maxUnlimitedLines
        let fitting = rect.height.isFinite ? max(1, Int((rect.height + 0.5) / max(lineHeight, 1))) : asked
        let laid = fonts.layout(text, font: font, pixels: pixels, width: rect.width,
                                maxLines: min(asked, fitting), rightToLeftWhenNeutral: rightToLeftUI)
        // Centred vertically, as UILabel does.
        let top = rect.midY - lineHeight * Double(laid.lines.count) / 2
        for (i, line) in laid.lines.enumerated() {
            let x: Double
            switch alignment.resolved(rightToLeft: laid.isRightToLeft) {
            case .left, .natural: x = rect.minX
            case .center: x = rect.midX - line.width / 2
            case .right: x = rect.maxX - line.width
            }
            let baseline = top + Double(i) * lineHeight + (lineHeight - (m.ascender - m.descender)) / 2 + m.ascender
            fonts.draw(laid, line: i, x: x, baseline: baseline, color: color, opacity: opacity, on: canvas)
        }
    }

    /// Where an image of `size` (points) goes in `rect` (pixels) for the content mode.
    private func place(_ size: Size, in rect: Rect, mode: ContentMode) -> Rect {
        let w = size.width * scale, h = size.height * scale
        switch mode {
        case .center: return Rect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h)
        case .right: return Rect(x: rect.maxX - w, y: rect.midY - h / 2, width: w, height: h)
        case .left: return Rect(x: rect.minX, y: rect.midY - h / 2, width: w, height: h)
        case .scaleToFill: return rect
        case .scaleAspectFit:
            let f = min(rect.width / max(w, 1), rect.height / max(h, 1))
            return Rect(x: rect.midX - w * f / 2, y: rect.midY - h * f / 2, width: w * f, height: h * f)
        }
    }

    private func drawImage(_ view: ImageView, in rect: Rect, opacity: Double, canvas: Canvas) {
        guard let image = view.currentImage else { return }
        drawImage(image, mode: view.contentMode, rotation: view.rotation, tint: view.tintColor, in: rect, opacity: opacity, canvas: canvas)
    }

    /// `image` placed in `rect` (pixels) as `mode` says: artwork through its mask in `tint`,
    /// a supplied picture as its supplier has it, a file decoded at the drawn size.
    func drawImage(_ image: ImageReference, mode: ContentMode, rotation: Double, tint: Color?, in rect: Rect, opacity: Double,
                   canvas: Canvas) {
        let target = place(image.size, in: rect, mode: mode)
        let tint = tint ?? Color(red: 90, green: 90, blue: 90)
        switch image.artwork {
        case .arrow?:
            drawMasked("arrow", in: target, variant: Int((rotation * 1000).rounded()), color: tint, opacity: opacity, canvas: canvas) {
                Shapes.arrow(in: $0, rotation: rotation)
            }
        case .trailArrow?:
            drawMasked("trail-arrow", in: target, variant: Int((rotation * 1000).rounded()), color: tint, opacity: opacity, canvas: canvas) {
                Shapes.trailArrow(in: $0, rotation: rotation)
            }
        case .placeholder?, .brokenImage?:
            let broken = image.artwork == .brokenImage
            drawMasked(broken ? "broken-image" : "placeholder", in: target, variant: 0, color: tint, opacity: opacity, canvas: canvas) {
                Shapes.picture(in: $0, broken: broken)
            }
        case nil where image.isSupplied:
            // Decoded by a worker at the drawn size; nothing is decoded here.
            guard let surface = imageSupplier?.surface(named: image.name) else { return }
            canvas.draw(image: surface, in: target, rotation: rotation, opacity: opacity)
        case nil:
            guard let surface = load(image.name, drawnAt: target) else { return }
            canvas.draw(image: surface, in: target, rotation: rotation, opacity: opacity)
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

    /// The image at `path` for drawing into `target` (pixels): from the cache, or decoded under
    /// the pixel budget and, when larger than `target`, scaled down to it once (so only the
    /// drawn size stays resident).
    private func load(_ path: String, drawnAt target: Rect) -> Surface? {
        guard target.width.isFinite, target.height.isFinite, target.width >= 1, target.height >= 1,
              target.width < 1e5, target.height < 1e5 else { return nil }
        let drawn = (width: Int(target.width.rounded(.up)), height: Int(target.height.rounded(.up)))
        let key = ImageCache.Key(path: path, width: drawn.width, height: drawn.height)
        if let cached = images.surface(key) { return cached }
        guard !failedImages.contains(path) else { return nil }
        let decoded: Surface
        do {
            decoded = try ImageDecoder.read(path: path, maxPixels: maxImagePixels)
        } catch {
            failedImages.insert(path)
            onError?(error)
            return nil
        }
        let kept = decoded.width > drawn.width || decoded.height > drawn.height
            ? Self.scaled(decoded, toFit: drawn) : decoded
        images.insert(kept, for: key)
        return kept
    }

    /// `image` scaled down to at most `size` pixels, aspect kept per axis as drawn (the caller
    /// draws it into a rect of that size), with pixman's good filter (box-filtered downscale).
    nonisolated public static func scaled(_ image: Surface, toFit size: (width: Int, height: Int)) -> Surface {
        let w = min(image.width, size.width), h = min(image.height, size.height)
        let target = Surface(width: w, height: h, format: .argb8888)
        Canvas(surface: target).draw(image: image, in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), filter: .good)
        return target
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
