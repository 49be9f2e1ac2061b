import CHarfBuzz
import PanelUI

/// Shaping and line layout: a text bounded, split into runs, shaped, broken and reordered.
extension FontLibrary {
    /// A run: characters of one embedding level, one script and one face, shaped together.
    struct Run {
        var range: Range<Int>
        var level: Int8
        var script: hb_script_t
        var face: Int
        /// HarfBuzz's glyphs for it, in its visual order (reversed for a right-to-left run).
        var glyphs: [(index: UInt32, cluster: Int, advance: Double, dx: Double, dy: Double)] = []
    }

    /// Characters a layout of `lines` lines `width` pixels wide at `pixels` shapes at most: as
    /// many as fit at a fifth of an em each (narrower than any real letter: DejaVu's "i" is 0.27
    /// em) and 32 more per line, so a megabyte of title costs what a line of it does; 4,096 for
    /// an unbounded width.
    public static func scalarLimit(width: Double, pixels: Int, lines: Int) -> Int {
        guard width.isFinite else { return 4096 }
        let perLine = Int(min(max(width, 0), 1e5) / max(1, 0.2 * Double(pixels))) + 32
        return max(1, lines) * perLine
    }

    /// Combining marks kept in a row on one character: UAX #15's stream-safe limit, 30; a text
    /// with 10,000 of them on a letter shows its first 30, as browsers show an unreadable pile.
    static let maxMarksInARow = 30

    /// `text`'s first `limit` characters that are drawn: controls dropped (a tab becomes a
    /// space, newlines stay), marks past `maxMarksInARow` in a row dropped.
    static func bounded(_ text: String, limit: Int) -> (scalars: [Unicode.Scalar], cut: Bool) {
        var kept: [Unicode.Scalar] = []
        kept.reserveCapacity(min(limit, 256))
        var marks = 0
        for scalar in text.unicodeScalars {
            if kept.count >= limit { return (kept, true) }
            let category = scalar.properties.generalCategory
            switch category {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                marks += 1
                if marks > maxMarksInARow { continue }
            default:
                marks = 0
            }
            if category == .control {
                switch scalar {
                case "\t": kept.append(" ")
                case "\n", "\r", "\u{85}": kept.append(scalar)
                default: break
                }
                continue
            }
            kept.append(scalar)
        }
        return (kept, false)
    }

    /// `text` laid out at `pixels` in lines no wider than `width` pixels, at most `maxLines`
    /// (at least 1); a paragraph without strong characters runs right to left when asked.
    /// Cached per text, font, size, width and line count.
    public func layout(_ text: String, font: Font, pixels: Int, width: Double, maxLines: Int,
                       rightToLeftWhenNeutral: Bool = false) -> TextLayout {
        let key = LayoutKey(text: text, font: font, pixels: pixels, width: width, maxLines: maxLines,
                            rightToLeftWhenNeutral: rightToLeftWhenNeutral)
        if let cached = layouts[key] { return cached }
        let lines = max(1, maxLines)
        let (scalars, _) = Self.bounded(text, limit: Self.scalarLimit(width: width, pixels: pixels, lines: lines))
        advancesMeasured += scalars.count
        let made = lay(scalars, font: font, pixels: pixels, width: width, maxLines: lines, rightToLeftWhenNeutral: rightToLeftWhenNeutral)
        if layouts.count >= Self.maxLayouts { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = made
        return made
    }

    /// The runs `text` is shaped in on one line, each with its glyphs (tests compare them with
    /// `hb-shape`'s for the same font file and size).
    func shapedRuns(_ text: String, font: Font, pixels: Int) -> (scalars: [Unicode.Scalar], runs: [Run]) {
        let (scalars, _) = Self.bounded(text, limit: Self.scalarLimit(width: .infinity, pixels: pixels, lines: 1))
        let values = scalars.map(\.value)
        return (scalars, shapedRuns(scalars, values, bidi: Bidi(values, rightToLeftWhenNeutral: false), font: font, pixels: pixels))
    }

    /// `scalars` split into runs and each run shaped.
    private func shapedRuns(_ scalars: [Unicode.Scalar], _ values: [UInt32], bidi: Bidi, font: Font, pixels: Int) -> [Run] {
        var runs = itemize(scalars, bidi: bidi, font: font, pixels: pixels)
        let language = language(of: font).flatMap { hb_language_from_string($0, -1) }
        for i in runs.indices { shape(&runs[i], values, language: language) }
        return runs
    }

    private func lay(_ scalars: [Unicode.Scalar], font: Font, pixels: Int, width: Double, maxLines: Int,
                     rightToLeftWhenNeutral: Bool) -> TextLayout {
        let values = scalars.map(\.value)
        let bidi = Bidi(values, rightToLeftWhenNeutral: rightToLeftWhenNeutral)
        let runs = shapedRuns(scalars, values, bidi: bidi, font: font, pixels: pixels)
        // Each character's share of the advance: its cluster's glyphs count at the cluster's
        // first character; the others of the cluster measure zero (and are never a place to cut).
        var advance = [Double](repeating: 0, count: scalars.count)
        var clusterStart = [Bool](repeating: false, count: scalars.count)
        for run in runs {
            for g in run.glyphs {
                advance[g.cluster] += g.advance
                clusterStart[g.cluster] = true
            }
        }
        let breaks = LineBreaks.opportunities(values, language: language(of: font))
        let ellipsis = ellipsisGlyph(font, pixels: pixels)
        let ranges = breakLines(scalars, advance: advance, clusterStart: clusterStart, breaks: breaks,
                                width: width, maxLines: maxLines, ellipsisWidth: ellipsis?.advance ?? 0)
        let lines = ranges.map { line in
            place(line.range, truncated: line.truncated, runs: runs, bidi: bidi, ellipsis: ellipsis,
                  trailing: Self.trailingSpaceStart(scalars, line.range))
        }
        return TextLayout(scalars: scalars, lines: lines, isRightToLeft: bidi.isRightToLeft)
    }

    /// Where a line's trailing white space (and newline) starts: it takes no width and is not drawn.
    static func trailingSpaceStart(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound, scalars[end - 1].properties.isWhitespace { end -= 1 }
        return end
    }

    /// Splits the text into runs: a new run where the level, the script or the face changes.
    /// Characters of no script of their own (spaces, digits, punctuation, marks) take the run's
    /// script; marks, joiners and other default-ignorables stay in the run's face when it has
    /// them (an Arabic word keeps its harakat and ZWJ in its own font).
    private func itemize(_ scalars: [Unicode.Scalar], bidi: Bidi, font: Font, pixels: Int) -> [Run] {
        guard let own = primaryFace(font, pixels: pixels) else { return [] }
        let unicode = hb_unicode_funcs_get_default()
        var runs: [Run] = []
        // The first real script decides the runs before it (a leading quote or digit).
        var script = HB_SCRIPT_COMMON
        for s in scalars {
            let found = hb_unicode_script(unicode, s.value)
            if found != HB_SCRIPT_COMMON && found != HB_SCRIPT_INHERITED && found != HB_SCRIPT_UNKNOWN { script = found; break }
        }
        if script == HB_SCRIPT_COMMON { script = HB_SCRIPT_LATIN }
        // Each character's own face, asked once (the stretches below and the runs both need it).
        var looked: [Int?] = Array(repeating: nil, count: scalars.count)
        func faceOf(_ i: Int) -> Int? {
            if let known = looked[i] { return known }
            looked[i] = faceFor(scalars[i].value, font, pixels: pixels)
            return looked[i]
        }
        let together = sameFaceForScriptRuns(scalars, unicode: unicode, faceOf: faceOf)
        for (i, s) in scalars.enumerated() {
            let found = hb_unicode_script(unicode, s.value)
            let ownScript = found != HB_SCRIPT_COMMON && found != HB_SCRIPT_INHERITED && found != HB_SCRIPT_UNKNOWN
            if ownScript { script = found }
            let level = bidi.levels.isEmpty ? 0 : Int8(bidi.levels[i])
            let properties = s.properties
            // An emoji is common to all scripts but goes to a colour face of its own.
            let clings = (!ownScript || properties.isDefaultIgnorableCodePoint || properties.isWhitespace)
                && !Self.prefersColor(s.value)
            // A space or punctuation after an emoji is the text's, as browsers draw it: a colour
            // face covers the space too (Noto Color Emoji's is 1.25 em wide). What belongs to
            // the emoji stays with it: joiners, variation selectors, tags, the keycap.
            let staysWithEmoji = properties.isDefaultIgnorableCodePoint || properties.isEmojiModifier
                || s.value == 0x20E3
            let face: Int
            if let chosen = together[i] {
                face = chosen
            } else if let last = runs.last, clings, last.level == level, !loaded[last.face].isColor || staysWithEmoji,
               properties.isDefaultIgnorableCodePoint || covers(last.face, s.value) {
                face = last.face
            } else {
                face = faceOf(i) ?? own
                if face == own, onUncovered != nil, !covers(own, s.value) { reportUncovered(s.value, in: scalars) }
            }
            if let last = runs.last, last.level == level, last.face == face, last.script == script || !ownScript {
                runs[runs.count - 1].range = last.range.lowerBound..<(i + 1)
            } else {
                runs.append(Run(range: i..<(i + 1), level: level, script: script, face: face))
            }
        }
        return runs
    }

    /// One face for each stretch of a script whose letters the faces would otherwise split:
    /// Urdu's ہ (U+06C1) and ے (U+06D2), which KacstOne lacks, came from Nafees in the middle
    /// of words KacstOne drew, visibly smaller and joined to nothing. Where one face met along
    /// the stretch covers all its letters (the fallback's, usually), the whole stretch takes
    /// it, its spaces and marks included; a stretch one face draws, or that no one face
    /// covers, is left to the character-by-character choice. Returns the face by index.
    /// `faceOf`: a character's own face by its index.
    private func sameFaceForScriptRuns(_ scalars: [Unicode.Scalar], unicode: OpaquePointer?,
                                       faceOf: (Int) -> Int?) -> [Int: Int] {
        var chosen: [Int: Int] = [:]
        var start = 0
        while start < scalars.count {
            let script = hb_unicode_script(unicode, scalars[start].value)
            guard script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN,
                  !Self.prefersColor(scalars[start].value) else {
                start += 1
                continue
            }
            // The stretch: letters of this script, with the marks and spaces between them.
            var end = start + 1, last = start
            while end < scalars.count {
                let s = scalars[end], found = hb_unicode_script(unicode, s.value)
                if found == script { last = end } else if !(found == HB_SCRIPT_INHERITED || s.properties.isWhitespace) { break }
                end += 1
            }
            let stretch = start...last
            var faces: [Int] = []
            for i in stretch {
                if let f = faceOf(i), !faces.contains(f) { faces.append(f) }
            }
            if faces.count > 1, let one = faces.reversed().first(where: { f in
                stretch.allSatisfy { covers(f, scalars[$0].value) || scalars[$0].properties.isDefaultIgnorableCodePoint }
            }) {
                for i in stretch { chosen[i] = one }
            }
            start = last + 1
        }
        return chosen
    }

    /// Shapes `run` with HarfBuzz, the whole paragraph given as context (Arabic joins across a
    /// run's edge as it would in one piece of text).
    /// `language` (HarfBuzz's, from the font's or the library's tag) picks the script's local
    /// forms; nil leaves HarfBuzz's default.
    private func shape(_ run: inout Run, _ values: [UInt32], language: hb_language_t? = nil) {
        guard let buffer = hb_buffer_create() else { return }
        defer { hb_buffer_destroy(buffer) }
        values.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(run.range.lowerBound), Int32(run.range.count))
        }
        hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, run.script)
        if let language { hb_buffer_set_language(buffer, language) }
        hb_buffer_guess_segment_properties(buffer)
        let face = loaded[run.face]
        hb_shape(face.font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        run.glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let cluster = Int(infos[i].cluster)
            guard run.range.contains(cluster) else { continue }
            let p = positions[i]
            run.glyphs.append((infos[i].codepoint, cluster, Double(p.x_advance) / 64 * face.scale,
                               Double(p.x_offset) / 64 * face.scale, Double(p.y_offset) / 64 * face.scale))
        }
    }

    /// The lines' character ranges: greedy, ending each line at its last break opportunity that
    /// fits (trailing spaces hang past the width); a word wider than the line breaks between
    /// clusters. The last line allowed, with text left over, is cut at its logical end for "…".
    private func breakLines(_ scalars: [Unicode.Scalar], advance: [Double], clusterStart: [Bool],
                            breaks: [LineBreaks.Opportunity], width: Double, maxLines: Int,
                            ellipsisWidth: Double) -> [(range: Range<Int>, truncated: Bool)] {
        let n = scalars.count
        var lines: [(range: Range<Int>, truncated: Bool)] = []
        var start = 0
        while start < n {
            var used = 0.0
            var lastBreak: Int?
            var end = n
            var hard = false
            var i = start
            while i < n {
                let isSpace = scalars[i].properties.isWhitespace
                if !isSpace && used + advance[i] > width && i > start {
                    end = lastBreak ?? Self.clusterBoundary(before: i, after: start, clusterStart)
                    break
                }
                used += advance[i]
                if i < n - 1 {
                    if breaks.indices.contains(i), breaks[i] == .must { end = i + 1; hard = true; break }
                    if breaks.indices.contains(i), breaks[i] == .allowed { lastBreak = i + 1 }
                }
                i += 1
            }
            if i == n { end = n }
            let isLast = lines.count == maxLines - 1
            if isLast && end < n {
                // Text is left over: this line takes it up to the next hard break, cut for "…".
                var limit = n
                if !hard {
                    for j in start..<n where breaks.indices.contains(j) && breaks[j] == .must && j < n - 1 { limit = j + 1; break }
                } else {
                    limit = end
                }
                // Not even "…" fits: the line shows nothing.
                let room = width - ellipsisWidth
                lines.append(room < 0 ? (start..<start, false)
                             : (cut(start..<limit, scalars: scalars, advance: advance, clusterStart: clusterStart, room: room), true))
                return lines
            }
            lines.append((start..<end, false))
            start = end
        }
        if lines.isEmpty && n > 0 { lines.append((0..<n, false)) }
        return lines
    }

    /// Where a line that cannot fit character `i` ends without a break opportunity: at the last
    /// cluster boundary after `start` up to `i`; a first cluster wider than the line goes whole.
    private static func clusterBoundary(before i: Int, after start: Int, _ clusterStart: [Bool]) -> Int {
        var j = i
        while j > start, !clusterStart[j] { j -= 1 }
        if j > start { return j }
        var k = start + 1
        while k < clusterStart.count, !clusterStart[k] { k += 1 }
        return k
    }

    /// `range` cut at a cluster boundary so that it fits `room` (the width less the ellipsis's);
    /// empty when nothing does.
    private func cut(_ range: Range<Int>, scalars: [Unicode.Scalar], advance: [Double], clusterStart: [Bool],
                     room: Double) -> Range<Int> {
        var used = 0.0
        var fit = range.lowerBound
        for i in range {
            if clusterStart[i] && i > range.lowerBound {
                if used <= room { fit = i } else { break }
            }
            used += advance[i]
        }
        if used <= room { fit = range.upperBound }
        // The ellipsis follows the last word, not a space.
        let end = Self.trailingSpaceStart(scalars, range.lowerBound..<fit)
        return range.lowerBound..<end
    }

    /// Places one line: its runs in display order (FriBidi's L1 and L2), each run's glyphs as
    /// HarfBuzz ordered them, the ellipsis at the paragraph's end side.
    private func place(_ range: Range<Int>, truncated: Bool, runs: [Run], bidi: Bidi,
                       ellipsis: (face: Int, index: UInt32, advance: Double)?, trailing: Int) -> TextLine {
        let shown = range.lowerBound..<max(range.lowerBound, trailing)
        let visual = bidi.visualPositions(of: range)
        var pieces: [(place: Int, run: Run)] = []
        for run in runs {
            let lower = max(run.range.lowerBound, shown.lowerBound), upper = min(run.range.upperBound, shown.upperBound)
            guard lower < upper else { continue }
            var piece = run
            piece.range = lower..<upper
            piece.glyphs = run.glyphs.filter { piece.range.contains($0.cluster) }
            let place = min(visual[lower] ?? lower, visual[upper - 1] ?? upper - 1)
            pieces.append((place, piece))
        }
        pieces.sort { $0.place < $1.place }
        var placed: [PlacedGlyph] = []
        var pen = 0.0
        func putEllipsis() {
            guard truncated, let ellipsis else { return }
            placed.append(PlacedGlyph(face: ellipsis.face, index: ellipsis.index, cluster: shown.upperBound,
                                      x: pen, y: 0, advance: ellipsis.advance))
            pen += ellipsis.advance
        }
        if bidi.ordersRightToLeft { putEllipsis() }
        for piece in pieces {
            for g in piece.run.glyphs {
                placed.append(PlacedGlyph(face: piece.run.face, index: g.index, cluster: g.cluster,
                                          x: pen + g.dx, y: -g.dy, advance: g.advance))
                pen += g.advance
            }
        }
        if !bidi.ordersRightToLeft { putEllipsis() }
        return TextLine(glyphs: placed, width: pen, range: shown, isTruncated: truncated)
    }

    /// "…" in the font's own face, shaped alone.
    private func ellipsisGlyph(_ font: Font, pixels: Int) -> (face: Int, index: UInt32, advance: Double)? {
        let scalar: UInt32 = 0x2026
        guard let number = faceFor(scalar, font, pixels: pixels) else { return nil }
        var run = Run(range: 0..<1, level: 0, script: HB_SCRIPT_COMMON, face: number)
        shape(&run, [scalar])
        guard let g = run.glyphs.first else { return nil }
        return (number, g.index, g.advance)
    }
}
