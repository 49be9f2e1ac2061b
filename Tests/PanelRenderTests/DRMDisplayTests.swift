import Foundation
import Testing
@testable import PanelDisplay
@testable import PanelRender
import PanelUI

/// A DRM card in memory: logs every call and fails the ones it is told to.
@MainActor
final class FakeDRM: DRMCalls {
    var log: [String] = []
    var failures: [String: Int32] = [:]
    var cardList = ["/dev/dri/card0"]
    var connectors: [DRMConnector] = [
        DRMConnector(id: 30, isConnected: false, modes: [], encoder: 0, encoders: [40]),
        DRMConnector(id: 31, isConnected: true,
                     modes: [DRMMode(width: 1920, height: 1080, refresh: 60, isPreferred: false, name: "1920x1080"),
                             DRMMode(width: 1280, height: 720, refresh: 60, isPreferred: true, name: "1280x720")],
                     encoder: 0, encoders: [41]),
    ]
    var pendingFlips = 0
    /// Cards whose connectors all report disconnected.
    var disconnectedCards: Set<String> = []
    private var openCard = ""
    private var nextID: UInt32 = 100
    private var memory: [UnsafeMutableRawPointer] = []

    isolated deinit { for m in memory { m.deallocate() } }

    private func call(_ name: String) throws {
        log.append(name)
        if let e = failures[name.split(separator: " ")[0].description] { throw DisplayError.call(name, errno: e) }
    }

    private func id() -> UInt32 {
        nextID += 1
        return nextID
    }

    func cards() -> [String] { cardList }
    func open(_ path: String) throws -> Int32 {
        try call("open \(path)")
        openCard = path
        return 7
    }
    func close(_ fd: Int32) { log.append("close") }
    func resources(_ fd: Int32) throws -> DRMResources {
        try call("resources")
        return DRMResources(connectors: connectors.map(\.id), crtcs: [50, 51], encoders: [40, 41])
    }
    func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector {
        try call("connector \(id)")
        var connector = connectors.first { $0.id == id } ?? DRMConnector(id: id, isConnected: false, modes: [], encoder: 0, encoders: [])
        if disconnectedCards.contains(openCard) { connector.isConnected = false }
        return connector
    }
    func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder {
        try call("encoder \(id)")
        return DRMEncoder(id: id, crtc: 0, possibleCrtcs: 0b10)
    }
    func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc {
        try call("crtc \(id)")
        return DRMCrtc(id: id, framebuffer: 9, x: 0, y: 0, mode: DRMMode(width: 640, height: 480, refresh: 60, isPreferred: false, name: "console"))
    }
    func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer {
        try call("createDumb \(width)x\(height)x\(bitsPerPixel)")
        return DRMDumbBuffer(handle: id(), pitch: width * 4, size: width * height * 4)
    }
    func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32 {
        try call("addFB \(buffer.handle)")
        return id()
    }
    func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer {
        try call("map \(buffer.handle)")
        let m = UnsafeMutableRawPointer.allocate(byteCount: buffer.size, alignment: 64)
        memory.append(m)
        return m
    }
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { log.append("unmap") }
    func removeFramebuffer(_ fd: Int32, _ id: UInt32) { log.append("rmFB \(id)") }
    func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32) { log.append("destroyDumb \(handle)") }
    func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws {
        try call("setCrtc \(crtc) fb=\(framebuffer) mode=\(mode?.name ?? "none")")
    }
    func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        try call("flip \(crtc) fb=\(framebuffer)")
        pendingFlips += 1
    }
    func handleEvents(_ fd: Int32) throws -> Int {
        try call("events")
        defer { pendingFlips = 0 }
        return pendingFlips
    }
    func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        log.append("wait")
        return pendingFlips > 0
    }
}

@MainActor
@Suite("DRM display")
struct DRMDisplayTests {
    @Test("bring-up: the connected connector, its preferred mode, a CRTC its encoder can use, two buffers, the mode")
    func bringUp() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        #expect(display.connector == 31)
        #expect(display.width == 1280 && display.height == 720)
        #expect(display.crtc == 51, "encoder 41 can drive the second CRTC only")
        #expect(drm.log == [
            "open /dev/dri/card0", "resources", "connector 30", "connector 31", "encoder 41", "crtc 51",
            "createDumb 1280x720x32", "addFB 101", "map 101",
            "createDumb 1280x720x32", "addFB 103", "map 103",
            "setCrtc 51 fb=102 mode=1280x720",
        ])
        #expect(display.backSurface.width == 1280 && display.backSurface.stride == 5120)
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

    @Test("frames flip on vertical blank, never two pending; the completion comes with the flip")
    func flips() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        let first = display.backSurface
        var completed = 0
        try display.present(damage: [Rect(x: 0, y: 0, width: 10, height: 10)]) { completed += 1 }
        #expect(drm.log.last == "flip 51 fb=104")
        #expect(throws: DisplayError.flipPending) { try display.present(damage: []) {} }
        #expect(completed == 0)
        try display.handleEvents()
        #expect(completed == 1)
        #expect(display.frontSurface === first, "the presented buffer is on screen")
        #expect(display.backSurface !== first)
        // The back buffer is two frames old: it needs the last frame's damage too.
        #expect(display.damageToRedraw(for: [Rect(x: 5, y: 5, width: 1, height: 1)]).count == 2)
        try display.present(damage: []) { completed += 1 }
        #expect(drm.log.last == "flip 51 fb=102")
        display.close()
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

    @Test("the frame driver draws into the back buffer and waits for the flip")
    func driver() throws {
        let drm = FakeDRM()
        let display = try DRMDisplay(drm: drm)
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 1280, height: 720))
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        view.backgroundColor = Color(red: 255, green: 0, blue: 0)
        scene.screen.rootView.addSubview(view)
        let driver = FrameDriver(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display)
        #expect(driver.drawFrame())
        #expect(display.isFlipPending)
        view.alpha = 0.5
        #expect(!driver.drawFrame(), "one frame in flight at a time")
        try display.handleEvents()
        #expect(scene.screen.framesPresented == 1)
        #expect(display.frontSurface?.pixel(x: 50, y: 50) == 0xffff_0000)
        #expect(driver.drawFrame())
        display.close()
    }
}
