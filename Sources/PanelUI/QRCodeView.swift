/// Draws a ``QRCode``: dark modules on light, with the quiet zone of 4 light modules a reader
/// needs around it (ISO/IEC 18004:2015, 6.3.8), as large as fits its bounds in whole pixels
/// per module, centred. Whole pixels keep every module's edge sharp, which a phone's reader
/// needs more than size; a screen dark around it does not disturb it, as the light zone is
/// drawn with the code.
@MainActor
public final class QRCodeView: View {
    /// The code drawn; nil draws nothing.
    public var code: QRCode? { didSet { if code != oldValue { setNeedsDisplay() } } }
    /// The dark modules' colour: black, as readers expect (a light code on dark is read by
    /// fewer of them).
    public var darkColor = Color(red: 0, green: 0, blue: 0) { didSet { setNeedsDisplay() } }
    /// The light modules' and the quiet zone's colour.
    public var lightColor = Color(red: 255, green: 255, blue: 255) { didSet { setNeedsDisplay() } }

    /// Light modules around the code on each side: the standard's 4.
    public static let quietZone = 4

    /// A view showing `code`.
    public init(code: QRCode?, frame: Rect = .zero) {
        self.code = code
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// Points per module in `side` points at `scale` pixels a point: the whole pixels that fit,
    /// 0 when not even one pixel a module fits.
    public static func moduleSide(for code: QRCode, in side: Double, scale: Double) -> Double {
        let modules = Double(code.size + 2 * quietZone)
        return (side * scale / modules).rounded(.down) / scale
    }

    /// Draws the light square and the dark modules, a row's run of dark modules as one fill.
    public override func draw(in context: any DrawingContext) {
        guard let code else { return }
        let scale = screen?.scale ?? 1
        let module = Self.moduleSide(for: code, in: min(context.size.width, context.size.height), scale: scale)
        guard module > 0 else { return }
        let side = module * Double(code.size + 2 * Self.quietZone)
        // Centred on whole pixels, so each module's edges fall on pixel edges.
        let left = ((context.size.width - side) / 2 * scale).rounded(.down) / scale
        let top = ((context.size.height - side) / 2 * scale).rounded(.down) / scale
        context.fill(Rect(x: left, y: top, width: side, height: side), color: lightColor)
        let originX = left + module * Double(Self.quietZone), originY = top + module * Double(Self.quietZone)
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code.isDark(x: x, y: y) else { x += 1; continue }
                let start = x
                while x < code.size, code.isDark(x: x, y: y) { x += 1 }
                context.fill(Rect(x: originX + Double(start) * module, y: originY + Double(y) * module,
                                  width: Double(x - start) * module, height: module), color: darkColor)
            }
        }
    }
}
