import PanelHost

/// What a refresh brought, made visible: rows new or changed since the list before it (a diff
/// by id) are marked for ``markSeconds``, as list adapters animate their inserts, unless every
/// row is (then nothing stands out, and nothing is marked); and when new
/// rows came above the reader's kept place (a timer's or a broker's refresh while someone reads
/// further down), a chip at the top says how many ("3 new ↑") and scrolls to them when tapped.
/// It goes once the list is back at its top. Both are deadlines of the host.
extension KioskList {
    /// Seconds a new or changed row stays marked.
    public static let markSeconds = 3.0

    /// After a refresh replaced `before` with the items now shown, the reader's place kept
    /// (`anchored`: the list was away from its top): the marks and the chip.
    func noteNewRows(before: [Item], anchored: Bool) {
        // The first list is all new: nothing to tell apart.
        guard !before.isEmpty else { return }
        var old: [String: Item] = [:]
        for item in before { old[item.id] = item }
        let until = scene.clock.now + Self.markSeconds
        var fresh = 0, above = 0
        var marks: [String] = []
        let topRow = anchored ? list.visibleRows.lowerBound : 0
        for (row, item) in items.enumerated() {
            let previous = old[item.id]
            guard previous != item else { continue }
            marks.append(item.id)
            if previous == nil {
                fresh += 1
                if anchored && row < topRow { above += 1 }
            }
        }
        // A mark tells what differs among what stayed: when every row is new or changed (a
        // feed that stamps each item, another source after a restart), the whole list in
        // yellow would tell the passer-by nothing.
        if marks.count < items.count {
            for id in marks { markedRows[id] = until }
        }
        lastNewRows = fresh
        if above > 0 { showChip(count: newAbove + above) }
    }

    /// The chip for `count` new rows above.
    private func showChip(count: Int) {
        newAbove = count
        let chip = newChip ?? makeChip()
        chip.titleLabel.text = Self.newRowsText(count, language: statusView.localizer.language)
        let size = chip.fittingSize(maxWidth: list.frame.width * 0.8)
        chip.frame = Rect(x: ((list.frame.width - size.width) / 2).rounded(), y: list.frame.minY + 8, width: size.width, height: size.height)
        chip.cornerRadius = size.height / 2
        chip.isHidden = false
        Log.info("refresh: \(count) new row\(count == 1 ? "" : "s") above the reader's place; the chip shows it")
        stage?.contentStatusChanged()
    }

    private func makeChip() -> Button {
        let chip = Button()
        chip.titleLabel.font = .bold(15)
        chip.action = { [weak self] in
            guard let self else { return }
            Log.debug("the new rows' chip was tapped: to the top")
            self.list.scrollToTop(animated: true)
            self.hideChip()
        }
        scene.screen.rootView.addSubview(chip)
        newChip = chip
        return chip
    }

    /// The chip goes (tapped, or the list is at its top).
    func hideChip() {
        guard newAbove > 0 else { return }
        newAbove = 0
        newChip?.isHidden = true
        stage?.contentStatusChanged()
    }

    /// "3 new ↑" in the list's language.
    static func newRowsText(_ count: Int, language: RefreshLanguage) -> String {
        let word: String = switch language {
        case .german: "neu"
        case .french: count == 1 ? "nouveau" : "nouveaux"
        case .spanish: count == 1 ? "nuevo" : "nuevos"
        case .italian: count == 1 ? "nuovo" : "nuovi"
        case .portuguese: count == 1 ? "novo" : "novos"
        case .russian: "новых"
        case .ukrainian: "нових"
        case .simplifiedChinese: "条新"
        case .traditionalChinese: "條新"
        case .korean: "개 새 항목"
        case .japanese: "件の新着"
        case .arabic: "جديد"
        case .hebrew: "חדשים"
        case .english: "new"
        }
        let spaced = [.simplifiedChinese, .traditionalChinese, .japanese, .korean].contains(language) ? "" : " "
        return "\(count)\(spaced)\(word) ↑"
    }

    /// The background of `row`'s cell: marked while it is new or changed.
    func rowBackground(for item: Item) -> Color {
        guard let until = markedRows[item.id], scene.clock.now < until else { return rowColor }
        return list.theme == .dark ? Color(red: 58, green: 51, blue: 24) : Color(red: 255, green: 244, blue: 204)
    }

    /// When the earliest mark ends, seconds of the clock.
    var nextMarkEnd: Double? { markedRows.values.min() }

    /// At every entry: marks that ended are taken off their rows; the chip goes when the list
    /// is at its top.
    func tickNewRows() {
        let now = scene.clock.now
        if markedRows.values.contains(where: { $0 <= now }) {
            let ended = Set(markedRows.filter { $0.value <= now }.map(\.key))
            for id in ended { markedRows[id] = nil }
            list.reloadRows(list.visibleCells.filter { ended.contains(items.indices.contains($0.key) ? items[$0.key].id : "") }.map(\.key))
        }
        if newAbove > 0, list.placeAnchor() == nil, !list.isAnimatingOffset { hideChip() }
    }
}
