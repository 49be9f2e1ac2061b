import PanelDisplay

/// How many pixels on `memory`'s glass differ from a frame drawn whole: what is shown now is
/// taken, `redrawWhole` draws the same scene whole and lets it reach the glass, and the two are
/// compared. Damage a frame pass missed, or a buffer a VT switch left stale, shows as a difference.
/// nil when the card shows no frame (before or after).
@MainActor
public func pixelsDifferingFromWholeFrame(on memory: MemoryDRM, redrawWhole: () -> Void) -> Int? {
    guard let shown = memory.glassPixels() else { return nil }
    redrawWhole()
    guard let whole = memory.glassPixels() else { return nil }
    return zip(shown, whole).count { $0 != $1 }
}
