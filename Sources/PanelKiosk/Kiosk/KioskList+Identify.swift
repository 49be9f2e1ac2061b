import PanelHost

/// `identify`: a card over the list with the panel's name, its host, addresses and version,
/// for the person standing in front of one of many panels with a support ticket in hand (or
/// on the phone with someone at a desk). It goes at its time, a deadline of the host; a touch
/// on it takes it away sooner.
extension KioskList {
    /// Shows the card: `title` large, `lines` under it, and beside them a QR code of the same
    /// text (the title, then each line), until `until` (seconds of the clock). The code lets
    /// the person at the panel send exactly what the card says with a phone's camera, where a
    /// misread address would send a support desk to the wrong panel.
    func showIdentity(title: String, lines: [String], until: Double) {
        identityCard?.removeFromSuperview()
        let size = scene.screen.size, scale = scene.screen.scale
        let width = min(size.width - 32, 640)
        let lineHeight = 22.0
        let textHeight = 24 + 40 + 8 + Double(lines.count) * lineHeight + 24
        // The code takes at most 40 % of the card's width and 4 points a module; below 2
        // pixels a module a phone a step away no longer reads it, and the card goes without.
        let code = try? QRCode(text: ([title] + lines).joined(separator: "\n"))
        var codeSide = 0.0
        if let code {
            let room = min(size.height - 64, width * 0.4, 4 * Double(code.size + 2 * QRCodeView.quietZone))
            let module = QRCodeView.moduleSide(for: code, in: room, scale: scale)
            if module * scale >= 2 { codeSide = module * Double(code.size + 2 * QRCodeView.quietZone) }
        }
        let height = min(size.height - 32, max(textHeight, codeSide + 32))
        let card = Button()
        card.backgroundColor = Color(red: 28, green: 28, blue: 30, alpha: 240)
        card.cornerRadius = 16
        card.frame = Rect(x: ((size.width - width) / 2).rounded(), y: ((size.height - height) / 2).rounded(), width: width, height: height)
        let textWidth = width - 32 - (codeSide > 0 ? codeSide + 16 : 0)
        let top = max(0, ((height - textHeight) / 2).rounded())
        let name = Label()
        (name.text, name.font, name.textColor, name.alignment) = (title, .bold(28), .white, .center)
        name.minimumScaleFactor = 0.5
        name.frame = Rect(x: 16, y: top + 24, width: textWidth, height: 40)
        var labels = [name]
        for (i, line) in lines.enumerated() {
            // A line each, so a long address shrinks alone instead of wrapping into the next.
            let label = Label()
            (label.text, label.font, label.textColor, label.alignment) = (line, .system(16), .white, .center)
            label.minimumScaleFactor = 0.6
            label.frame = Rect(x: 16, y: top + 72 + Double(i) * lineHeight, width: textWidth, height: lineHeight)
            labels.append(label)
        }
        for label in labels {
            label.isUserInteractionEnabled = false
            card.addSubview(label)
        }
        if let code, codeSide > 0 {
            let view = QRCodeView(code: code)
            view.frame = Rect(x: width - 16 - codeSide, y: ((height - codeSide) / 2).rounded(), width: codeSide, height: codeSide)
            card.addSubview(view)
        }
        card.action = { [weak self] in self?.hideIdentity() }
        scene.screen.rootView.addSubview(card)
        (identityCard, identityUntil) = (card, until)
    }

    /// When the card goes; nil: none shows.
    var nextIdentityEnd: Double? { identityUntil }

    /// At every entry: the card goes at its time.
    func tickIdentity(at now: Double) {
        guard let until = identityUntil, now >= until else { return }
        hideIdentity()
    }

    /// Takes the card away.
    func hideIdentity() {
        identityCard?.removeFromSuperview()
        (identityCard, identityUntil) = (nil, nil)
    }
}
