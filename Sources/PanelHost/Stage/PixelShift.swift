import PanelUI

/// Burn-in care (`display.shift-every`, `display.shift-pixels`): a board left for years on the
/// same glass wears its bar, its lines and its letters into an OLED or a cheap LCD. While
/// nobody touches it, the whole picture moves by one pixel every `every` seconds, in a walk
/// over the square of ±`pixels` (row by row, then back), so each step is one pixel, no place
/// is held for longer than a step, and the picture comes back to where it was laid out.
public struct PixelShift: Sendable, Equatable {
    /// Seconds between steps while untouched; 0: the picture never moves.
    public var every = 0.0
    /// How far the picture may move from its place along each axis, pixels (1 to 16).
    public var pixels = 4

    /// Off: the picture stays where it is laid out.
    public init() {}

    /// Steps in one round of the walk, back to the place it started from: the square's
    /// places row by row and back again.
    public var period: Int {
        let side = 2 * pixels + 1
        return 2 * side * side - 2
    }

    /// Where the picture is at step `step` of the walk, pixels; step 0 is its own place.
    public func offset(atStep step: Int) -> Point {
        let side = 2 * pixels + 1, cells = side * side
        // The centre's index in the row-by-row order, so that step 0 is (0, 0).
        let centre = pixels * side + pixels
        // A ping-pong over the cells: 0, 1 … cells−1, cells−2 … 1, 0, …
        let round = 2 * cells - 2
        var i = ((centre + step) % round + round) % round
        if i >= cells { i = round - i }
        let row = i / side
        // Rows alternate direction (a snake), so that each step is one pixel.
        let column = row % 2 == 0 ? i % side : side - 1 - i % side
        return Point(x: Double(column - pixels), y: Double(row - pixels))
    }
}
