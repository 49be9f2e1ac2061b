import PanelUI

/// Drawing laid-out lines: each line's glyph masks added into one mask once, then one
/// composite per line and frame.
extension FontLibrary {
    /// Line `i`'s coverage, built at its first drawing and kept with the layout.
    func mask(of layout: TextLayout, line i: Int) -> Glyph? {
        if let cached = layout.masks[i] { return cached }
        var placed: [(glyph: Glyph, x: Int, y: Int)] = []
        var colored: [(glyph: Glyph, x: Int, y: Int)] = []
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for p in layout.lines[i].glyphs {
            guard let g = glyph(face: p.face, index: p.index) else { continue }
            let x = Int(p.x.rounded()) + g.left, y = Int(p.y.rounded()) - g.top
            if g.color != nil {
                colored.append((g, x, y))
            } else if g.mask != nil {
                placed.append((g, x, y))
            } else {
                continue
            }
            minX = min(minX, x); maxX = max(maxX, x + g.width)
            minY = min(minY, y); maxY = max(maxY, y + g.height)
        }
        let width = layout.lines[i].width
        let line = placed.isEmpty && colored.isEmpty ? Glyph(empty: width)
            : Glyph(line: placed.map { ($0.glyph, $0.x - minX, $0.y - minY) },
                    width: maxX - minX, height: maxY - minY, left: minX, top: -minY, advance: width)
        layout.masks[i] = line
        layout.colorGlyphs[i] = colored.map { ($0.glyph, $0.x - minX, $0.y - minY) }
        return line
    }

    /// Draws line `i` of `layout` with its left end at `x` and its baseline at `baseline` (pixels).
    func draw(_ layout: TextLayout, line i: Int, x: Double, baseline: Double, color: Color, opacity: Double, on canvas: Canvas) {
        guard let line = mask(of: layout, line: i) else { return }
        let left = Int(x.rounded()) + line.left, top = Int(baseline.rounded()) - line.top
        if let mask = line.mask {
            canvas.withSolidSource(color, opacity: opacity) { source in
                canvas.composite(source, mask: mask, x: left, y: top, width: line.width, height: line.height)
            }
        }
        // Emoji keep their own colours, as on every phone.
        for (glyph, gx, gy) in layout.colorGlyphs[i] {
            guard let image = glyph.color else { continue }
            canvas.draw(image: image, in: Rect(x: Double(left + gx), y: Double(top + gy), width: Double(glyph.width),
                                               height: Double(glyph.height)), opacity: opacity)
        }
    }
}
