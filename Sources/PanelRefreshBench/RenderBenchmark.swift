import Foundation
import PanelDisplay
import PanelRefresh
import PanelRender

/// Frame costs beside a memcpy of one frame of the same size (the physical limit of touching
/// every pixel once): a scrolling list frame, a full redraw, a header-animation frame, with
/// 100 and 1,000,000 rows.
@MainActor
enum RenderBenchmark {
    final class Rows: ListDataSource {
        let count: Int
        init(_ count: Int) { self.count = count }
        func numberOfRows(in list: ListView) -> Int { count }
        func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
            cell.titleLabel.text = "Item \(row + 1): a title of ordinary length"
            cell.subtitleLabel.text = "Subtitle \(row + 1), Строка, 第\(row + 1)行"
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Median milliseconds of `runs` runs of `body` (after one warm-up run).
    static func median(_ runs: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        body()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            body()
            times.append(seconds(start.duration(to: clock.now)) * 1000)
        }
        return times.sorted()[times.count / 2]
    }

    static func memcpyMilliseconds(width: Int, height: Int, runs: Int) -> Double {
        let bytes = width * height * 4
        let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { a.deallocate(); b.deallocate() }
        a.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        b.initializeMemory(as: UInt8.self, repeating: 2, count: bytes)
        return median(runs) { memcpy(b, a, bytes) }
    }

    static func report(_ name: String, width: Int, height: Int, rows: Int, ms: Double, memcpy: Double) {
        print(String(format: "case=%@ size=%dx%d rows=%d ms=%.3f memcpy_ms=%.3f ratio=%.2f",
                     name, width, height, rows, ms, memcpy, ms / memcpy))
    }

    static func run(runs: Int = 31) throws {
        let fonts = try FontLibrary()
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let memcpy = memcpyMilliseconds(width: width, height: height, runs: runs)
            for rows in [100, 1_000_000] {
                let scene = Scene(size: Size(width: Double(width), height: Double(height)))
                scene.screen.textMeasurer = fonts
                let list = ListView(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), animator: scene.animator)
                list.rowHeight = .fixed(72)
                let source = Rows(rows)
                list.dataSource = source
                list.reloadData()
                scene.screen.rootView.addSubview(list)
                let header = NormalHeader()
                list.header = header
                let display = HeadlessDisplay(width: width, height: height)
                let renderer = Renderer(fonts: fonts)
                let driver = FrameDriver(screen: scene.screen, renderer: renderer, display: display, now: { scene.clock.now })
                driver.drawFrame()
                // Scrolling: the list moves 7 pt per frame through the middle of the rows.
                var offset = Double(rows) * 72 / 2
                let scroll = median(runs) {
                    offset += 7
                    list.contentOffset = Point(x: 0, y: offset)
                    driver.drawFrame()
                }
                report("list-scroll", width: width, height: height, rows: rows, ms: scroll, memcpy: memcpy)
                let full = median(runs) { renderer.render(scene.screen, into: display.backSurface) }
                report("full-redraw", width: width, height: height, rows: rows, ms: full, memcpy: memcpy)
                // The header open and refreshing: each frame turns the spinner.
                header.setAnimationDisabled()
                list.contentOffset = .zero
                header.beginRefreshing()
                driver.drawFrame()
                let spin = median(runs) {
                    scene.clock.advance(by: 1.0 / 12)
                    driver.drawFrame()
                }
                report("header-animation", width: width, height: height, rows: rows, ms: spin, memcpy: memcpy)
                header.endRefreshing()
            }
        }
    }
}
