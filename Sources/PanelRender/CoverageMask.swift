import CPixman
import PanelUI

/// An A8 coverage mask: shapes rasterised once, then composited in one operation per frame.
/// The spinner's twelve spokes (each with its own alpha) and the arrows are drawn from these,
/// so a spinner frame costs one composite of a small rectangle instead of rasterising 12
/// anti-aliased polygons.
public final class CoverageMask {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    let image: OpaquePointer

    /// A cleared mask (pixman allocates and zeroes the bits).
    init?(width: Int, height: Int) {
        guard width > 0, height > 0, let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else { return nil }
        (self.width, self.height, self.image) = (width, height, image)
    }

    deinit { pixman_image_unref(image) }

    /// Adds the triangles' coverage times `alpha` (0...1).
    func add(_ triangles: [Triangle], alpha: Double) {
        guard !triangles.isEmpty else { return }
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((min(max(alpha, 0), 1) * 65535).rounded()))
        guard let source = pixman_image_create_solid_fill(&color) else { return }
        defer { pixman_image_unref(source) }
        var tris = triangles.map(\.pixman)
        pixman_composite_triangles(PIXMAN_OP_ADD, source, image, PIXMAN_a8, 0, 0, 0, 0, Int32(tris.count), &tris)
    }
}

extension Canvas {
    /// `color` through `mask`, the mask's top-left at (x, y) pixels.
    public func fill(mask: CoverageMask, x: Int, y: Int, color: Color, opacity: Double = 1) {
        withSolidSource(color, opacity: opacity) { source in
            composite(source, mask: mask.image, x: x, y: y, width: mask.width, height: mask.height)
        }
    }
}

/// Masks by what they show; emptied when it holds `limit` (an arrow turning through its flip
/// makes a few dozen, a spinner twelve per size).
struct MaskCache {
    struct Key: Hashable {
        var shape: String
        var width: Double
        var height: Double
        /// The shape's offset inside its whole-pixel box, quarter pixels.
        var offsetX: Int
        var offsetY: Int
        /// Spinner phase, or arrow rotation in thousandths of a radian.
        var variant: Int
    }

    static let limit = 256
    private var masks: [Key: CoverageMask] = [:]
    private(set) var built = 0

    /// The mask for `key`, built by `draw` (given the box's size and the shape's origin in it).
    mutating func mask(_ key: Key, _ draw: (CoverageMask, Point) -> Void) -> CoverageMask? {
        if let mask = masks[key] { return mask }
        if masks.count >= Self.limit { masks.removeAll() }
        let origin = Point(x: Double(key.offsetX) / 4, y: Double(key.offsetY) / 4)
        // One pixel of margin: anti-aliasing reaches half a pixel outside the shape's edge.
        guard let mask = CoverageMask(width: Int((origin.x + key.width).rounded(.up)) + 2,
                                      height: Int((origin.y + key.height).rounded(.up)) + 2) else { return nil }
        draw(mask, Point(x: origin.x + 1, y: origin.y + 1))
        masks[key] = mask
        built += 1
        return mask
    }
}
