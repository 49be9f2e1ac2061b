import PanelHost

/// `identify`: a card over the list with the panel's name, its host, addresses and version,
/// for the person standing in front of one of many panels with a support ticket in hand (or
/// on the phone with someone at a desk). It goes at its time, a deadline of the host; a touch
/// on it takes it away sooner.
extension KioskList {
    /// Shows the card: `title` large, `lines` under it, until `until` (seconds of the clock).
    func showIdentity(title: String, lines: [String], until: Double) {
        identityCard?.removeFromSuperview()
        let size = scene.screen.size
        let width = min(size.width - 32, 520)
        let card = Button()
        card.backgroundColor = Color(red: 28, green: 28, blue: 30, alpha: 240)
        card.cornerRadius = 16
        let name = Label()
        (name.text, name.font, name.textColor, name.alignment) = (title, .bold(28), .white, .center)
        name.minimumScaleFactor = 0.5
        let rest = Label()
        (rest.text, rest.font, rest.textColor, rest.alignment) = (lines.joined(separator: "\n"), .system(16), .white, .center)
        rest.numberOfLines = lines.count
        let lineHeight = 22.0
        let height = min(size.height - 32, 24 + 40 + 8 + Double(lines.count) * lineHeight + 24)
        card.frame = Rect(x: ((size.width - width) / 2).rounded(), y: ((size.height - height) / 2).rounded(), width: width, height: height)
        name.frame = Rect(x: 16, y: 24, width: width - 32, height: 40)
        rest.frame = Rect(x: 16, y: 72, width: width - 32, height: height - 72 - 24)
        for label in [name, rest] {
            label.isUserInteractionEnabled = false
            card.addSubview(label)
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
