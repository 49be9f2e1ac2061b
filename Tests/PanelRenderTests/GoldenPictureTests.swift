import Foundation
import Testing
import PanelTestSupport
import PanelKiosk
import PanelFuzz
@testable import PanelRender

/// Rows with pictures as the kiosk shows them (the program's own path: a file data source, the
/// session, the loader, the renderer), against Golden/*.png.
@MainActor
@Suite("Golden frames of rows with pictures")
struct GoldenPictureTests {
    /// Pictures written for the test: a PNG, a WebP of another shape (its middle kept), and a
    /// path where there is none (the broken mark).
    static func items(_ directory: String, rightToLeft: Bool) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let png = directory + "/square.png", webp = directory + "/wide.webp"
        try PNG.write(TestPictures.quadrants(width: 80, height: 80), to: png)
        try Data(TestPictures.webp(TestPictures.quadrants(width: 120, height: 60))).write(to: URL(fileURLWithPath: webp))
        let texts = rightToLeft
            ? [("طلب جديد", "الطاولة ٤", "١٢:٤٠", "3"), ("قهوة", "بالحليب", "٤٫٥٠ €", ""), ("صورة مفقودة", "لا تظهر", "", "!"), ("بدون صورة", "مربع فارغ", "أمس", "")]
            : [("New order", "Table 4", "12:40", "3"), ("Coffee", "With milk", "€4.50", ""), ("A missing picture", "Shows the broken mark", "", "!"), ("No picture", "An empty square", "Yesterday", "")]
        let images = [png, webp, directory + "/missing.jpg", ""]
        let objects = zip(texts, images).enumerated().map { i, pair in
            let (t, image) = pair
            var fields = [#""id": \#(i + 1)"#, #""title": "\#(t.0)""#, #""subtitle": "\#(t.1)""#]
            if !t.2.isEmpty { fields.append(#""detail": "\#(t.2)""#) }
            if !t.3.isEmpty { fields.append(#""badge": "\#(t.3)""#) }
            if !image.isEmpty { fields.append(#""image": "\#(image)""#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        let path = directory + "/items.json"
        try ("[" + objects.joined(separator: ",\n") + "]").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("image rows: picture, title over subtitle, detail and badge; the broken mark; an empty square", arguments: [false, true])
    func imageRows(rightToLeft: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("golden-pictures-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var c = KioskConfiguration()
        c.source = .file
        c.file = try Self.items(directory, rightToLeft: rightToLeft)
        if rightToLeft { c.locale = "ar" }
        let frame = try ExpectedFrame.render(width: 400, height: 300, refreshes: 1, configuration: c)
        if let problem = try Golden.check(frame, rightToLeft ? "rows-images-rtl" : "rows-images") { Issue.record("\(problem)") }
        // The first row's picture is the PNG's quadrants, the red one at its leading top.
        let (top, left) = (8 + 2, rightToLeft ? 400 - 16 - 56 + 2 : 16 + 2)
        let corner = frame.pixel(x: rightToLeft ? left + 56 - 5 : left, y: top)
        #expect(corner & 0xff_ffff == (rightToLeft ? 0x00ff00 : 0xff0000), "\(String(corner, radix: 16))")
    }
}
