import Foundation
@testable import PanelRefresh

/// Rows a test can grow or empty.
@MainActor
final class Rows: ListDataSource {
    var count: Int
    init(_ count: Int) { self.count = count }
    func numberOfRows(in list: ListView) -> Int { count }
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.titleLabel.text = "Row \(row)" }
}

/// A list of 60-point rows on an 800×480 screen in virtual time, with fingers and a log of
/// what the components did.
@MainActor
final class RefreshStage {
    let scene: Scene
    let list: ListView
    let rows: Rows
    /// "header idle->pulling", "footer refresh", ...
    var events: [String] = []
    /// What a component's refreshing action does besides logging.
    var onRefresh: [String: () -> Void] = [:]

    static let size = Size(width: 800, height: 480)

    init(rows: Int = 30, firstFrame: Bool = true, localizer: RefreshLocalizer? = nil) {
        scene = Scene(size: Self.size)
        list = ListView(frame: Rect(origin: .zero, size: Self.size), animator: scene.animator)
        list.rowHeight = .fixed(60)
        self.rows = Rows(rows)
        list.dataSource = self.rows
        list.reloadData()
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        if firstFrame { scene.frame() }
    }

    var clock: ManualClock { scene.clock }

    /// Logs `component`'s states and refreshes under `name`.
    func watch(_ component: RefreshComponent, as name: String) {
        // The scenarios follow MJRefresh, whose ends take effect at once; the default minimum
        // refreshing time has its own tests (MachineTests, "minimum refreshing time").
        component.minimumRefreshingDuration = 0
        component.stateDidChangeHandler = { [weak self] in self?.events.append("\(name) \($0.rawValue)->\($1.rawValue)") }
        component.refreshingAction = { [weak self] in
            self?.events.append("\(name) refresh")
            self?.onRefresh[name]?()
        }
    }

    @discardableResult
    func attach<H: RefreshHeader>(header: H) -> H {
        watch(header, as: "header")
        list.header = header
        return header
    }

    @discardableResult
    func attach<F: RefreshFooter>(footer: F) -> F {
        watch(footer, as: "footer")
        list.footer = footer
        return footer
    }

    /// A finger from y = `from` to y = `to` at x = 400, starting 0.1 s from now.
    func drag(from: Double, to: Double, duration: Double = 0.4, hold: Double = 0, lift: Bool = true) {
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 400, y: from), to: Point(x: 400, y: to), duration: duration, hold: hold, lift: lift)
        scene.play(script.frames)
    }

    /// Pull down by `distance` finger pixels (a pause before the lift: no fling).
    func pullDown(_ distance: Double, lift: Bool = true) {
        drag(from: 60, to: 60 + distance, duration: 0.4, hold: 0.1, lift: lift)
    }

    /// Push the content up by `distance` finger pixels (a pause before the lift: no fling).
    func pullUp(_ distance: Double, lift: Bool = true) {
        drag(from: 440, to: 440 - distance, duration: 0.4, hold: 0.1, lift: lift)
    }

    /// Lets 2 s pass: long enough for the open snap (0.25 s), the close (0.4 s) and a bounce
    /// back from a long pull (under 1 s); a spinner that keeps turning does not hold it up.
    func settle() { scene.wait(2) }
    func wait(_ seconds: Double) { scene.wait(seconds) }

    /// Offsets of every frame drawn while `body` runs.
    func recordOffsets(_ body: () -> Void) -> [Double] {
        var offsets: [Double] = []
        scene.onFrame = { [weak self] _ in offsets.append(self?.list.contentOffset.y ?? .nan) }
        body()
        scene.onFrame = nil
        return offsets
    }

}
