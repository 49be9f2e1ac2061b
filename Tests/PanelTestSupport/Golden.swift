import Foundation
import Testing
@testable import PanelRender
import PanelRefresh

/// Compares rendered frames with the PNGs in Golden/. `scripts/update-golden` writes them
/// instead (PANEL_REFRESH_UPDATE_GOLDEN=1), after a change to the look made on purpose.
public enum Golden {
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PanelRenderTests/Golden").path
    public static var updating: Bool { ProcessInfo.processInfo.environment["PANEL_REFRESH_UPDATE_GOLDEN"] == "1" }
    /// A channel may differ by this much (rounding in a library's next patch release)...
    public static let channelTolerance = 8
    /// ...on at most this share of the pixels: 0.02 %, 19 pixels of a 400x240 frame. The frames
    /// are drawn by the same libraries on every machine the suite runs on (bookworm's), so they
    /// match to the bit; 24 levels on 0.3 % of the pixels had let 13 of 48 frames drift from
    /// what the renderer drew (a scroll indicator's end, a thumbnail's filtering: 21 to 166
    /// pixels) without a word. Redrawn and looked at once, the frames now show such a change.
    public static let pixelTolerance = 0.0002

    /// Nil when `surface` matches the golden `name`; else what differs. Failing frames are
    /// written to $TMPDIR/panel-refresh-golden/ for a look.
    public static func check(_ surface: Surface, _ name: String) throws -> String? {
        let path = directory + "/" + name + ".png"
        if updating {
            try PNG.write(surface, to: path)
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return "no golden frame \(name).png: run scripts/update-golden"
        }
        let golden = try PNG.read(path: path)
        guard golden.width == surface.width, golden.height == surface.height else {
            return "\(name): size \(surface.width)x\(surface.height), golden \(golden.width)x\(golden.height)"
        }
        var different = 0
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let a = surface.pixel(x: x, y: y), b = golden.pixel(x: x, y: y)
                for shift in [0, 8, 16] as [UInt32] where abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)) > channelTolerance {
                    different += 1
                    break
                }
            }
        }
        let share = Double(different) / Double(surface.width * surface.height)
        guard share > pixelTolerance else { return nil }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("panel-refresh-golden")
        try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try? PNG.write(surface, to: out.appendingPathComponent(name + ".png").path)
        return "\(name): \(different) pixels differ (\(String(format: "%.2f", share * 100)) %), actual in \(out.path)"
    }
}

@MainActor
public final class Rows: ListDataSource {
    public var count: Int
    public init(_ count: Int) { self.count = count }
    public func numberOfRows(in list: ListView) -> Int { count }
    public func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        cell.titleLabel.text = "Item \(row + 1)"
        cell.subtitleLabel.text = "Row \(row + 1) of \(count)"
    }
}

/// A 400×240 list in virtual time, rendered in full for each snapshot.
@MainActor
public final class GoldenStage {
    public static let size = Size(width: 400, height: 240)
    public let fonts: FontLibrary
    public let scene: Scene
    public let list: ListView
    public let rows: Rows
    public let renderer: Renderer
    public let surface: Surface
    public let localizer = RefreshLocalizer()

    public init(rows count: Int = 20, size: Size = GoldenStage.size) throws {
        fonts = try FontLibrary()
        scene = Scene(size: size)
        surface = Surface(width: Int(size.width), height: Int(size.height))
        scene.screen.textMeasurer = fonts
        list = ListView(frame: Rect(origin: .zero, size: size), animator: scene.animator)
        list.rowHeight = .fixed(60)
        rows = Rows(count)
        list.dataSource = rows
        list.reloadData()
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        renderer = Renderer(fonts: fonts)
        scene.frame()
    }

    public func header<H: StateHeader>(_ header: H) -> H {
        header.lastUpdatedFormatter = LastUpdatedFormatter()
        list.header = header
        scene.frame()
        return header
    }

    /// A finger pulling down by `distance` and staying down.
    public func pullDown(_ distance: Double) {
        var s = GestureScript(start: scene.clock.now + 0.1)
        s.drag(from: Point(x: 200, y: 30), to: Point(x: 200, y: 30 + distance), duration: 0.3, hold: 0.3, lift: false)
        scene.play(s.frames)
    }

    public func snapshot(_ name: String) throws {
        scene.frame()
        renderer.render(scene.screen, into: surface)
        if let problem = try Golden.check(surface, name) { Issue.record("\(problem)") }
    }
}

/// Tiny gif frames drawn at test time: a dot that grows, one PNG per frame.
@MainActor
public func gifFrames(count: Int, directory: String) throws -> [ImageReference] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return try (0..<count).map { i in
        let surface = Surface(width: 40, height: 40, format: .argb8888)
        let canvas = Canvas(surface: surface)
        let r = 4 + Double(i) * 16 / Double(max(count - 1, 1))
        canvas.fillRoundedRect(Rect(x: 20 - r, y: 20 - r, width: 2 * r, height: 2 * r), radius: r,
                               color: Color(red: 40, green: 120, blue: 220))
        let path = directory + "/dot-\(i).png"
        try PNG.write(surface, to: path)
        return ImageReference(name: path, size: Size(width: 40, height: 40))
    }
}
