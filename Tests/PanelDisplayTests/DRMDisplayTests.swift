import Foundation
import Testing
import PanelTestSupport
@testable import PanelDisplay
@testable import PanelRender
import PanelUI

@MainActor
@Suite("DRM display")
struct DRMDisplayTests {
    static let bringUpLog = [
        "open /dev/dri/card0", "resources", "connector 30", "connector 31", "encoder 41", "crtc 51", "cap 4", "atomic",
        "createDumb 1280x720x32", "addFB 101", "map 101",
        "createDumb 1280x720x32", "addFB 103", "map 103",
        "setCrtc 51 fb=102 mode=1280x720",
    ]

    @Test("bring-up: the connected connector, its preferred mode, a CRTC its encoder can use, two buffers, the mode")
    func bringUp() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        #expect(display.connector == 31)
        #expect(display.width == 1280 && display.height == 720)
        #expect(display.crtc == 51, "encoder 41 can drive the second CRTC only")
        #expect(drm.log == Self.bringUpLog)
        #expect(display.backSurface.width == 1280 && display.backSurface.height == 720)
        #expect(display.presentPath == .legacy)
        #expect(display.driverPrefersShadow == true)
        #expect(display.summary.contains("driver prefers a shadow: yes"))
        display.close()
    }

    @Test("a configured mode replaces the preferred one; one the panel lacks is a clear error")
    func configuredMode() throws {
        let display = try DRMDisplay(size: (1920, 1080), drm: FakeDRM())
        #expect(display.width == 1920)
        display.close()
        #expect(throws: DisplayError.noSuchMode(card: "/dev/dri/card0", width: 800, height: 480)) {
            try DRMDisplay(size: (800, 480), drm: FakeDRM())
        }
    }

    @Test("frames flip, never two pending; the completion comes with the flip and its time stamp")
    func flips() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        var completed = 0
        try display.present(damage: [Rect(x: 0, y: 0, width: 10, height: 10)]) { completed += 1 }
        #expect(drm.log.last == "flip 51 fb=104")
        #expect(drm.log.contains("dirty fb=104 0,0-1280,720"), "the first frame brings the whole picture to the second buffer")
        #expect(display.isFrameInFlight)
        #expect(throws: DisplayError.flipPending) { try display.present(damage: []) {} }
        #expect(completed == 0)
        drm.flipTime = 123.5
        try display.handleEvents()
        #expect(completed == 1)
        #expect(display.lastPresentationTime == 123.5)
        // The first buffer lacks the whole picture still (it was on screen, black): it gets it all.
        try display.present(damage: [Rect(x: 5, y: 5, width: 1, height: 1)]) { completed += 1 }
        #expect(drm.log.suffix(2) == ["dirty fb=102 0,0-1280,720", "flip 51 fb=102"])
        try display.handleEvents()
        // From now on a buffer gets this frame's damage and what the other buffer's last frame changed.
        try display.present(damage: [Rect(x: 20, y: 20, width: 4, height: 4)]) { completed += 1 }
        #expect(drm.log.suffix(2) == ["dirty fb=104 5,5-6,6 20,20-24,24", "flip 51 fb=104"])
        display.close()
    }

    @Test("nothing is drawn into scanout memory and nothing reads it: frames are drawn in a shadow and copied to the glass")
    func shadow() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 1280, height: 720))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 1280, height: 720), animator: scene.animator)
        final class Rows: ListDataSource {
            func numberOfRows(in list: ListView) -> Int { 200 }
            func list(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.titleLabel.text = "Row \(row)" }
        }
        let rows = Rows()
        list.dataSource = rows
        list.reloadData()
        scene.screen.rootView.addSubview(list)
        let driver = FramePresenter(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display, now: { scene.clock.now })
        var frames = 0
        for step in 0..<12 {
            list.contentOffset = Point(x: 0, y: Double(step) * 37)
            #expect(driver.drawFrame())
            // The renderer's target and the source of every moved pixel is the shadow.
            #expect(!drm.isScanout(display.backSurface.pixels))
            try display.handleEvents()
            frames += 1
            // What the glass shows is the shadow, pixel for pixel (sampled).
            let front = frames % 2
            for (x, y) in [(0, 0), (640, 360), (1279, 719), (100, 600), (900, 30)] {
                #expect(drm.glassPixel(buffer: front, x: x, y: y, width: 1280) == display.backSurface.pixel(x: x, y: y))
            }
        }
        #expect(display.backSurface.pixel(x: 640, y: 360) != 0xff00_0000, "the list was drawn")
        display.close()
    }

    @Test("atomic KMS: one non-blocking commit per frame on the primary plane, damage clips as a blob, then released")
    func atomicCommits() throws {
        let drm = FakeDRM()
        drm.atomic = true
        drm.damageClips = true
        let display = try DRMDisplay(drm: drm)
        guard case .atomic(let plane) = display.presentPath else {
            Issue.record("expected the atomic path")
            return
        }
        #expect(plane.plane == 61, "the primary plane of CRTC 51, not the overlay or another CRTC's")
        #expect(plane.rotations == [0, 180])
        try display.present(damage: [Rect(x: 0, y: 0, width: 1280, height: 720)]) {}
        try display.handleEvents()
        drm.log.removeAll()
        try display.present(damage: [Rect(x: 10, y: 20, width: 30, height: 40)]) {}
        #expect(drm.log.count == 3)
        #expect(drm.log[0] == "blob 16")
        let blob = try #require(drm.blobs.keys.max())
        #expect(drm.log[1] == "commit 61.71=102,61.72=\(blob) flags=513", "FB_ID and FB_DAMAGE_CLIPS; NONBLOCK | PAGE_FLIP_EVENT")
        #expect(drm.log[2] == "destroyBlob \(blob)")
        // The clip holds the first frame's whole picture (this buffer lacked it) — a
        // struct drm_mode_rect of four little-endian Int32.
        let bytes = try #require(drm.blobs[blob])
        let values = (0..<4).map { i in bytes[(i * 4)..<(i * 4 + 4)].enumerated().reduce(Int32(0)) { $0 | Int32($1.element) << (8 * $1.offset) } }
        #expect(values == [0, 0, 1280, 720])
        try display.handleEvents()
        try display.present(damage: [Rect(x: 10, y: 20, width: 30, height: 40)]) {}
        let second = try #require(drm.blobs.keys.max())
        #expect(drm.blobs[second]?.count == 16, "the other buffer lacks only the last frame's rectangle (the same one)")
        display.close()
    }

    @Test("atomic without damage clips: just the framebuffer; legacy DirtyFB answering ENOSYS is not asked again")
    func noClips() throws {
        let atomic = FakeDRM()
        atomic.atomic = true
        let display = try DRMDisplay(drm: atomic)
        try display.present(damage: [Rect(x: 0, y: 0, width: 8, height: 8)]) {}
        #expect(atomic.log.last == "commit 61.71=104 flags=513")
        display.close()
        let legacy = FakeDRM()
        legacy.dirtyErrno = ENOSYS
        let other = try DRMDisplay(drm: legacy)
        try other.present(damage: [Rect(x: 0, y: 0, width: 8, height: 8)]) {}
        try other.handleEvents()
        try other.present(damage: [Rect(x: 0, y: 0, width: 8, height: 8)]) {}
        #expect(legacy.log.filter { $0.hasPrefix("dirty") }.count == 1)
        #expect(!other.summary.contains("DirtyFB"))
        other.close()
    }

    @Test("a picture turned 90 degrees: a portrait picture on landscape glass, copied turned")
    func rotation() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(rotation: .clockwise90, drm: drm)
        #expect(display.width == 720 && display.height == 1280)
        // A red pixel at the picture's top-left lands at the glass's top-right.
        let canvas = Canvas(surface: display.backSurface)
        canvas.fill(Rect(x: 0, y: 0, width: 720, height: 1280), color: .white)
        canvas.fill(Rect(x: 0, y: 0, width: 2, height: 3), color: Color(red: 255, green: 0, blue: 0))
        try display.present(damage: [Rect(x: 0, y: 0, width: 720, height: 1280)]) {}
        try display.handleEvents()
        #expect(drm.glassPixel(buffer: 1, x: 1279, y: 0, width: 1280) == 0xffff_0000)
        #expect(drm.glassPixel(buffer: 1, x: 1277, y: 1, width: 1280) == 0xffff_0000)
        #expect(drm.glassPixel(buffer: 1, x: 1276, y: 0, width: 1280) == 0xffff_ffff)
        #expect(drm.glassPixel(buffer: 1, x: 0, y: 0, width: 1280) == 0xffff_ffff)
        // Damage clips name glass rectangles.
        try display.present(damage: [Rect(x: 0, y: 0, width: 10, height: 20)]) {}
        #expect(drm.log.last(where: { $0.hasPrefix("dirty") })?.hasSuffix("0,0-1280,720") == true)
        try display.handleEvents()
        try display.present(damage: [Rect(x: 0, y: 0, width: 10, height: 20)]) {}
        #expect(drm.log.last(where: { $0.hasPrefix("dirty") }) == "dirty fb=104 1260,0-1280,10")
        display.close()
    }

    @Test("blanking: the CRTC inactive (atomic) or DPMS off (legacy); no frames while off; on again, a full frame")
    func blanking() throws {
        let drm = FakeDRM()
        drm.atomic = true
        let display = try DRMDisplay(drm: drm)
        try display.present(damage: [Rect(x: 0, y: 0, width: 8, height: 8)]) {}
        try display.setBlank(true)
        #expect(drm.log.suffix(3) == ["wait", "events", "commit 51.70=0 flags=1024"], "the pending flip drained first")
        #expect(display.isBlank)
        #expect(throws: DisplayError.blank) { try display.present(damage: []) {} }
        try display.setBlank(false)
        #expect(drm.log.last == "commit 51.70=1 flags=1024")
        display.close()
        let legacy = FakeDRM()
        let other = try DRMDisplay(drm: legacy)
        try other.setBlank(true)
        #expect(legacy.log.suffix(2) == ["properties 31", "setProperty 31.73=3"])
        try other.setBlank(false)
        #expect(legacy.log.last == "setProperty 31.73=0")
        other.close()
    }

    @Test("hotplug: a panel that goes away stops drawing; back in another mode, new buffers at its size")
    func reprobe() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        #expect(display.reprobe() == .unchanged)
        let plugged = drm.connectors
        drm.connectors = [DRMConnector(id: 31, isConnected: false, modes: [], encoder: 0, encoders: [41])]
        #expect(display.reprobe() == .disconnected)
        #expect(throws: DisplayError.disconnected(card: "/dev/dri/card0")) { try display.present(damage: []) {} }
        #expect(display.reprobe() == .unchanged, "still gone")
        drm.connectors = plugged
        drm.connectors[1].modes = [DRMMode(width: 800, height: 480, refresh: 60, isPreferred: true, name: "800x480")]
        drm.log.removeAll()
        #expect(display.reprobe() == .connected(width: 800, height: 480))
        #expect(drm.log.contains("createDumb 800x480x32"))
        #expect(drm.log.last == "setCrtc 51 fb=106 mode=800x480")
        #expect(display.backSurface.width == 800)
        try display.present(damage: []) {}
        display.close()
    }

    @Test("hotplug: a card that goes away (ENODEV) and comes back as a new device is opened anew; its old descriptor is closed only when the loop lets go of it")
    func cardComesBack() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        try display.present(damage: []) {}
        drm.failures["connector"] = ENODEV
        drm.failures["open"] = ENOENT
        #expect(display.reprobe() == .disconnected)
        #expect(throws: DisplayError.disconnected(card: "/dev/dri/card0")) { try display.present(damage: []) {} }
        #expect(display.reprobe() == .unchanged, "still gone: no card to open")
        #expect(display.eventDescriptorGeneration == 0)
        drm.failures = [:]
        drm.log.removeAll()
        #expect(display.reprobe() == .connected(width: 1280, height: 720))
        #expect(display.eventDescriptorGeneration == 1)
        #expect(drm.log.first == "open /dev/dri/card0")
        #expect(drm.log.last == "setCrtc 51 fb=106 mode=1280x720", "\(drm.log)")
        #expect(!drm.log.contains("close"), "the old descriptor stays open while the loop still watches it")
        #expect(!drm.log.contains { $0.hasPrefix("destroyDumb") || $0.hasPrefix("rmFB") }, "nothing is destroyed on a device that is gone")
        display.releaseRetiredDescriptors()
        #expect(drm.log.filter { $0 == "close" }.count == 1)
        try display.present(damage: [Rect(x: 0, y: 0, width: 4, height: 4)]) {}
        display.close()
        #expect(drm.log.filter { $0 == "close" }.count == 2)
    }

    @Test("close drains a pending flip, restores the saved CRTC, releases in reverse order, once")
    func teardown() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        try display.present(damage: []) {}
        drm.log.removeAll()
        display.close()
        #expect(drm.log == [
            "wait", "events", "setCrtc 51 fb=9 mode=console",
            "unmap", "rmFB 104", "destroyDumb 103", "unmap", "rmFB 102", "destroyDumb 101", "close",
        ])
        display.close()
        #expect(drm.log.count == 10, "a second close does nothing")
        #expect(throws: DisplayError.self) { try display.present(damage: []) {} }
    }

    @Test("EBUSY or EACCES on the mode set: a clear 'busy' error, and everything acquired is released")
    func busy() {
        for errno in [EBUSY, EACCES] {
            let drm = FakeDRM()
            drm.failures["setCrtc"] = errno
            #expect(throws: DisplayError.busy(card: "/dev/dri/card0", errno: errno)) { try DRMDisplay(drm: drm) }
            #expect(Array(drm.log.suffix(7)) == ["unmap", "rmFB 104", "destroyDumb 103", "unmap", "rmFB 102", "destroyDumb 101", "close"])
        }
        #expect(DisplayError.busy(card: "/dev/dri/card0", errno: EBUSY).description.contains("another program"))
    }

    @Test("a failure half way through the buffers undoes what was made")
    func halfWay() {
        let drm = FakeDRM()
        drm.failures["map"] = ENOMEM
        #expect(throws: DisplayError.self) { try DRMDisplay(drm: drm) }
        #expect(Array(drm.log.suffix(3)) == ["rmFB 102", "destroyDumb 101", "close"])
        #expect(!drm.log.contains("setCrtc 51 fb=102 mode=1280x720"))
    }

    @Test("no card, no connected panel, a card that went away: clear errors")
    func missing() {
        let none = FakeDRM()
        none.cardList = []
        #expect(throws: DisplayError.noCard) { try DRMDisplay(drm: none) }
        let unplugged = FakeDRM()
        unplugged.connectors = [DRMConnector(id: 30, isConnected: false, modes: [], encoder: 0, encoders: [])]
        #expect(throws: DisplayError.noConnectedConnector(card: "/dev/dri/card0")) { try DRMDisplay(drm: unplugged) }
        #expect(unplugged.log.last == "close")
        let gone = FakeDRM()
        gone.failures["resources"] = ENODEV
        #expect(throws: DisplayError.call("resources", errno: ENODEV)) { try DRMDisplay(drm: gone) }
        #expect(DisplayError.noCard.description.contains("/dev/dri"))
    }

    @Test("with two cards, the first with a connected panel is used; the other is closed")
    func secondCard() throws {
        let drm = FakeDRM()
        drm.cardList = ["/dev/dri/card0", "/dev/dri/card1"]
        drm.disconnectedCards = ["/dev/dri/card0"]
        let display = try DRMDisplay(drm: drm)
        #expect(display.card == "/dev/dri/card1")
        #expect(drm.log.prefix(5) == ["open /dev/dri/card0", "resources", "connector 30", "connector 31", "close"])
        display.close()
    }

    @Test("the frame driver draws and waits for the flip; its frames carry the flip's time stamp and the touch's")
    func driver() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 1280, height: 720))
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        view.backgroundColor = Color(red: 255, green: 0, blue: 0)
        scene.screen.rootView.addSubview(view)
        let driver = FramePresenter(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display, now: { scene.clock.now })
        var timings: [FrameTiming] = []
        driver.onFramePresented = { timings.append($0) }
        #expect(driver.drawFrame())
        #expect(display.isFrameInFlight)
        view.alpha = 0.5
        driver.noteInput(at: 99.99)
        driver.noteInput(at: 99.98)
        #expect(!driver.drawFrame(), "one frame in flight at a time")
        try display.handleEvents()
        #expect(scene.screen.framesPresented == 1)
        #expect(drm.glassPixel(buffer: 1, x: 50, y: 50, width: 1280) == 0xffff_0000)
        #expect(driver.drawFrame())
        try display.handleEvents()
        #expect(timings.count == 2)
        #expect(timings[0].inputTime == nil)
        #expect(timings[1].inputTime == 99.98, "the oldest touch the frame answers")
        #expect(abs((timings[1].latency ?? 0) - 0.02) < 1e-9, "flip at 100.0")
        display.close()
    }

    @Test("a failing flip: one error, retries after a growing delay (no busy loop), then the mode set again and a full frame")
    func failures() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        let fonts = try FontLibrary()
        let clock = ManualClock()
        let scene = Scene(size: Size(width: 1280, height: 720), clock: clock)
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        view.backgroundColor = Color(red: 0, green: 0, blue: 255)
        scene.screen.rootView.addSubview(view)
        let driver = FramePresenter(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display, now: { clock.now })
        var errors: [any Error] = []
        var recovered = 0
        driver.onError = { errors.append($0) }
        driver.onRecovery = { recovered += 1 }
        drm.failures["flip"] = EBUSY
        #expect(!driver.drawFrame())
        #expect(errors.count == 1)
        #expect(driver.retryAt == 0.1)
        #expect(!driver.drawFrame(), "before the retry time: no attempt")
        #expect(drm.log.filter { $0.hasPrefix("flip") }.count == 1)
        drm.failures["setCrtc"] = EACCES
        clock.advance(to: 0.1)
        #expect(!driver.drawFrame())
        #expect(abs((driver.retryAt ?? 0) - 0.3) < 1e-9, "twice the delay")
        #expect(errors.count == 1, "one log line for a run of failures")
        drm.failures = [:]
        clock.advance(to: driver.retryAt ?? 0)
        drm.log.removeAll()
        #expect(driver.drawFrame())
        #expect(drm.log == ["master", "setCrtc 51 fb=104 mode=1280x720"], "after a failure: the whole picture and the mode set again")
        #expect(recovered == 1)
        #expect(drm.glassPixel(buffer: 1, x: 10, y: 10, width: 1280) == 0xff00_00ff)
        view.alpha = 0.5
        #expect(driver.drawFrame())
        #expect(drm.log.last == "flip 51 fb=102", "then flips again")
        display.close()
    }
}
