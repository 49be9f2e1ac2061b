import Foundation
import PanelKiosk

/// Frame costs beside a memcpy of one frame of the same size (the physical limit of touching
/// every pixel once): a scrolling list frame, a full redraw, a header-animation frame, with
/// 100 and 1,000,000 rows; on the headless display and through `DRMDisplay` over a card in
/// memory (`-drm`: drawn in the shadow, copied to the back dumb buffer, flipped), also with
/// the picture turned 90 degrees (`-drm-rot90`); and with Arabic and Devanagari rows
/// (`-arabic`), against the Latin rows' cases.
@MainActor
enum RenderBenchmark {
    final class Rows: ListDataSource, ListDelegate {
        let count: Int
        /// Arabic and Devanagari rows, alternating (the `-arabic` cases), instead of Latin ones.
        let complex: Bool
        /// The `-images` cases' 56-point thumbnails: `pictures.count` files, row i showing
        /// picture i modulo that, through the kiosk's loader.
        let pictures: [String]
        let loader: ThumbnailLoader?
        private var wanted: [ObjectIdentifier: ThumbnailLoader.Request] = [:]
        init(_ count: Int, complex: Bool = false, pictures: [String] = [], loader: ThumbnailLoader? = nil) {
            (self.count, self.complex, self.pictures, self.loader) = (count, complex, pictures, loader)
        }
        func numberOfRows(in list: ListView) -> Int { count }
        func list(_ list: ListView, didSelectRow row: Int) {}
        /// A row that left lets its picture go, as the kiosk's rows do.
        func list(_ list: ListView, didEndDisplaying cell: ListCell, forRow row: Int) {
            if let request = wanted.removeValue(forKey: ObjectIdentifier(cell)) { loader?.release(request) }
        }
        func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
            if let loader, !pictures.isEmpty {
                cell.imageSize = 56
                let side = Int((56 * (list.screen?.scale ?? 1)).rounded(.up))
                let request = ThumbnailLoader.Request(source: pictures[row % pictures.count], width: side, height: side)
                let previous = wanted[ObjectIdentifier(cell)]
                wanted[ObjectIdentifier(cell)] = request
                cell.picture = loader.want(request, size: Size(width: 56, height: 56))
                if let previous { loader.release(previous) }
                cell.detailLabel.text = "12:\(10 + row % 50)"
            }
            if !complex {
                cell.titleLabel.text = "Item \(row + 1): a title of ordinary length"
                cell.subtitleLabel.text = "Subtitle \(row + 1), Строка, 第\(row + 1)行"
            } else if row % 2 == 0 {
                cell.titleLabel.text = "العنصر \(row + 1): عنوان بطول عادي"
                cell.subtitleLabel.text = "العنوان الفرعي \(row + 1)، سطر ثانٍ"
            } else {
                cell.titleLabel.text = "वस्तु \(row + 1): सामान्य लंबाई का शीर्षक"
                cell.subtitleLabel.text = "उपशीर्षक \(row + 1), दूसरी पंक्ति"
            }
        }
    }

    /// The cases to run, from $PANEL_REFRESH_BENCH_CASES (names separated by commas); nil: all.
    static let selected: Set<String>? = ProcessInfo.processInfo.environment["PANEL_REFRESH_BENCH_CASES"]
        .flatMap { $0.isEmpty ? nil : Set($0.split(separator: ",").map(String.init)) }

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
        fflush(nil)
    }

    /// One measured case: a list of `rows` on a display, as the kiosk runs it (an app's views
    /// on a host's stage, stepped by the virtual-time driver), and the frames to time.
    @MainActor
    struct Stage {
        let host: KioskHost
        let list: ListView
        let header: NormalHeader
        let rows: Rows
        var stage: PanelHost.Stage { host.stage }
        var driver: FramePresenter { host.stage.presenter }
        var display: any Display { host.display }

        /// One frame of virtual time: what changed is drawn (a DRM flip completes at the next tick).
        func frame() { tick(after: 1.0 / 60) }

        /// One tick `seconds` on, or on a paced display (DRM) at the start of the frame due
        /// then: frames start their window before the vblank they are for (`FrameScheduler`),
        /// and a tick on the vblank itself would find the frame's start still ahead and draw
        /// nothing (every `-drm` case counted 3,319 instructions of an idle tick).
        func tick(after seconds: Double) {
            guard driver.scheduler != nil else { return VirtualTimeDriver(host).step(by: seconds) }
            // Just short of `seconds` on: a tick at a frame's start goes to the next one's.
            host.tick(at: driver.frameStart(at: host.now + seconds - 1e-9))
        }
    }

    /// `count` picture files (PNG, 160x120, each its own colours) in a scratch folder, for
    /// the `-images` cases.
    static func pictureFiles(_ count: Int) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("panel-refresh-bench-pictures").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try (0..<count).map { i in
            let path = folder + "/picture-\(i).png"
            if FileManager.default.fileExists(atPath: path) { return path }
            let surface = Surface(width: 160, height: 120, format: .argb8888)
            let canvas = Canvas(surface: surface)
            canvas.fill(Rect(x: 0, y: 0, width: 160, height: 120), color: Color(red: UInt8(i * 37 % 256), green: UInt8(i * 91 % 256), blue: 180))
            canvas.fill(Rect(x: 40, y: 30, width: 80, height: 60), color: Color(red: 250, green: UInt8(i * 13 % 256), blue: 40))
            try PNG.write(surface, to: path)
            return path
        }
    }

    static func stage(width: Int, height: Int, rows: Int, fonts: FontLibrary, display: any Display,
                      complex: Bool = false, pictures: [String] = []) throws -> Stage {
        let host = try KioskHost.virtual(configuration: Configuration(), display: display, fonts: fonts)
        // The pictures come back at the next frame's entry, as on the panel when they are quick.
        let loader = pictures.isEmpty ? nil : ThumbnailLoader(executor: host.executor)
        let source = Rows(rows, complex: complex, pictures: pictures, loader: loader)
        let header = NormalHeader()
        var list: ListView?
        try host.show(views: { scene in
            let view = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
            view.rowHeight = .fixed(72)
            view.dataSource = source
            view.delegate = source
            view.reloadData()
            scene.screen.rootView.addSubview(view)
            view.header = header
            list = view
        })
        guard let list else { throw DisplayError.noDisplay("the list was not built") }
        host.stage.presenter.renderer.imageSupplier = loader
        host.start(at: 0)
        let stage = Stage(host: host, list: list, header: header, rows: source)
        stage.frame()
        return stage
    }

    /// The cases of one display, each measured by `measure(name, body)`; `page`: also a page
    /// sliding over the list (the detail page's push: a white page with a title and text, 23
    /// points further each frame, over a list dimmed by a black view at 0.094).
    static func cases(_ stage: Stage, suffix: String, full: Bool, animation: Bool, page: Bool = false,
                      measure: (String, () -> Void) -> Void) {
        // Scrolling: the list moves 7 pt per frame through the middle of the rows.
        var offset = Double(stage.rows.count) * 72 / 2
        measure("list-scroll" + suffix) {
            offset += 7
            stage.list.contentOffset = Point(x: 0, y: offset)
            stage.frame()
        }
        if full {
            measure("full-redraw" + suffix) {
                stage.driver.invalidate()
                stage.frame()
            }
        }
        if animation {
            // The header open and refreshing: each frame turns the spinner.
            stage.header.setAnimationDisabled()
            stage.list.contentOffset = .zero
            stage.header.beginRefreshing()
            stage.frame()
            measure("header-animation" + suffix) {
                stage.tick(after: 1.0 / 12)
            }
            stage.header.endRefreshing()
        }
        if page {
            let size = stage.stage.scene.screen.size
            let root = stage.stage.scene.screen.rootView
            let dim = View(frame: Rect(origin: .zero, size: size))
            dim.backgroundColor = .black
            dim.alpha = 0.094
            let sheet = View(frame: Rect(origin: Point(x: size.width, y: 0), size: size))
            sheet.backgroundColor = .white
            let title = Label(frame: Rect(x: 16, y: 64, width: size.width - 32, height: 32))
            title.text = "Departure 12: platform 4, on time"
            title.font = .bold(22)
            let body = Label(frame: Rect(x: 16, y: 104, width: size.width - 32, height: 200))
            body.text = String(repeating: "The train calls at every station on its way. ", count: 6)
            body.numberOfLines = 0
            sheet.addSubview(title)
            sheet.addSubview(body)
            root.addSubview(dim)
            root.addSubview(sheet)
            stage.frame()
            measure("page-slide" + suffix) {
                var x = sheet.frame.origin.x - 23
                if x < 0 { x += size.width }
                sheet.frame.origin.x = x
                stage.frame()
            }
            sheet.removeFromSuperview()
            dim.removeFromSuperview()
            stage.frame()
            // A view that draws itself (View.draw(in:)) over the list: a gauge whose value moves
            // each frame, so each frame draws its 300x120 points again and nothing else.
            let gauge = BenchGauge(frame: Rect(x: 16, y: 16, width: 300, height: 120))
            root.addSubview(gauge)
            // At rest first: a header still closing from the cases before would move the list
            // under the card in every frame (the figure then depended on which cases ran).
            VirtualTimeDriver(stage.host).settle()
            stage.frame()
            measure("custom-draw" + suffix) {
                gauge.value = gauge.value >= 0.99 ? 0.01 : gauge.value + 0.01
                stage.frame()
            }
            gauge.removeFromSuperview()
            stage.frame()
        }
    }

    /// Every case at 1280x720 and 1920x1080. `only`: the one case to run (for instruction
    /// counts under callgrind, with `runs` small).
    static func run(runs: Int = 31, only: String? = nil, measure custom: ((String, () -> Void) -> Void)? = nil) throws {
        let fonts = try FontLibrary()
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let memcpy = custom == nil ? memcpyMilliseconds(width: width, height: height, runs: runs) : 1
            if only == nil {
                // The copy to the glass alone: a whole frame, straight and turned; for
                // instruction counts also memcpy of the same bytes (the straight copy's goal).
                func copyCase(_ name: String, _ body: () -> Void) {
                    guard selected?.contains(name) ?? true else { return }
                    if let custom {
                        custom("\(name) size=\(width)x\(height) rows=0", body)
                    } else {
                        report(name, width: width, height: height, rows: 0, ms: median(runs, body), memcpy: memcpy)
                    }
                }
                let picture = Surface(width: height, height: width)
                let straight = Surface(width: width, height: height)
                let glass = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 4096)
                defer { glass.deallocate() }
                glass.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
                let target = ScanoutTarget(pixels: glass, width: width, height: height, stride: width * 4, format: .xrgb8888)
                if custom != nil {
                    copyCase("memcpy") { _ = Glibc.memcpy(glass, straight.pixels, width * height * 4) }
                }
                copyCase("copy") {
                    target.store(PixelRect(x: 0, y: 0, width: width, height: height), from: straight, rotation: .none)
                }
                copyCase("copy-rot90") {
                    target.store(PixelRect(x: 0, y: 0, width: height, height: width), from: picture, rotation: .clockwise90)
                }
                let glass2 = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 4096)
                defer { glass2.deallocate() }
                glass2.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
                let target2 = ScanoutTarget(pixels: glass2, width: width, height: height, stride: width * 4, format: .xrgb8888)
                var flip = false
                copyCase("copy-rot90-two") {
                    flip.toggle()
                    (flip ? target : target2).store(PixelRect(x: 0, y: 0, width: height, height: width), from: picture, rotation: .clockwise90)
                }
            }
            for rows in [100, 1_000_000] {
                func measure(_ name: String, _ body: () -> Void) {
                    guard only == nil || only == name, selected?.contains(name) ?? true else { return }
                    // Every case shapes its own texts: with the layouts of the cases before it
                    // (one font library serves all), a scroll counted 17 % fewer instructions
                    // after the same scroll on another display than alone.
                    fonts.removeLayouts()
                    if let custom {
                        custom("\(name) size=\(width)x\(height) rows=\(rows)", body)
                    } else {
                        report(name, width: width, height: height, rows: rows, ms: median(runs, body), memcpy: memcpy)
                    }
                }
                let headless = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                     display: HeadlessDisplay(width: width, height: height))
                cases(headless, suffix: "", full: true, animation: true, page: true, measure: measure)
                let drm = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                display: try DRMDisplay(drm: MemoryDRM(width: width, height: height)))
                cases(drm, suffix: "-drm", full: true, animation: true, page: true, measure: measure)
                drm.display.close()
                let turned = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                   display: try DRMDisplay(rotation: .clockwise90, drm: MemoryDRM(width: width, height: height)))
                cases(turned, suffix: "-drm-rot90", full: false, animation: false, measure: measure)
                turned.display.close()
                let portrait = try stage(width: height, height: width, rows: rows, fonts: fonts,
                                     display: HeadlessDisplay(width: height, height: width))
                cases(portrait, suffix: "-portrait", full: false, animation: false, measure: measure)
                // Arabic and Devanagari rows: shaped once per label text, then drawn from the cache.
                let arabic = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                   display: HeadlessDisplay(width: width, height: height), complex: true)
                cases(arabic, suffix: "-arabic", full: true, animation: false, measure: measure)
                // A 56-point thumbnail in every row (100 pictures, decoded once at the drawn size and
                // cached; rows show cached ones), against the text rows' cases.
                let pictures = try pictureFiles(100)
                let images = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                   display: HeadlessDisplay(width: width, height: height), pictures: pictures)
                cases(images, suffix: "-images", full: true, animation: false, measure: measure)
                let imagesDRM = try stage(width: width, height: height, rows: rows, fonts: fonts,
                                      display: try DRMDisplay(drm: MemoryDRM(width: width, height: height)), pictures: pictures)
                cases(imagesDRM, suffix: "-images-drm", full: true, animation: false, measure: measure)
                imagesDRM.display.close()
            }
        }
    }
}

/// Instruction counts under callgrind on x86-64 and a counting TCG plugin under qemu-user on
/// aarch64 (perf counters are not available on these machines): each case runs `warmUp` times
/// (a whole spinner turn: every phase's mask is cached, as in a running kiosk), then
/// `iterations` times inside `instructionWindow`, the only function callgrind collects in and
/// dumps after; the plugin counts from its entry to the entry of `windowClosed`, less the
/// caller's block that calls it, so both end at the return (`scripts/bench-instructions`,
/// `scripts/lib/count-plugin.c`).
@MainActor
enum InstructionCount {
    static let iterations = 5
    static let warmUp = 12

    @inline(never)
    static func instructionWindow(_ body: () -> Void) {
        for _ in 0..<iterations { body() }
    }

    static func run() throws {
        try RenderBenchmark.run(runs: 1) { name, body in
            for _ in 0..<warmUp { body() }
            print("window case=\(name) iterations=\(iterations)")
            fflush(nil)
            instructionWindow(body)
            windowClosed()
        }
    }

    /// Marks the end of a window for the plugin, which sees function entries, not returns: a
    /// call with an effect of its own (the flush), so the optimiser cannot drop it.
    @inline(never)
    static func windowClosed() {
        fflush(nil)
    }
}

/// The `custom-draw` case's gauge: a rounded track, its filled part, a needle, a mark and the
/// value as text, drawn by the view itself over a white card with rounded corners.
@MainActor
final class BenchGauge: View {
    var value = 0.5 { didSet { setNeedsDisplay() } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
        cornerRadius = 12
    }

    override func draw(in context: any DrawingContext) {
        let width = context.size.width - 32
        context.fill(Rect(x: 16, y: 20, width: width, height: 16), color: Color(red: 229, green: 229, blue: 234), cornerRadius: 8)
        context.fill(Rect(x: 16, y: 20, width: width * value, height: 16), color: Color(red: 0, green: 122, blue: 255), cornerRadius: 8)
        let x = 16 + width * value
        context.line(from: Point(x: x, y: 44), to: Point(x: x, y: 64), width: 2, color: .black)
        context.fill(polygon: [Point(x: x - 6, y: 72), Point(x: x + 6, y: 72), Point(x: x, y: 64)], color: Color(red: 255, green: 59, blue: 48))
        context.draw(text: "Platform load \(Int((value * 100).rounded())) %", in: Rect(x: 16, y: 80, width: width, height: 30),
                     font: .system(17), color: .black)
    }
}
