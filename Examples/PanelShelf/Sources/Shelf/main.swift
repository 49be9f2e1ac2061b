// panel-shelf: an app's own list on a touch panel through the PanelRefresh kiosk host.
//   panel-shelf                 on the panel: DRM, touchscreens, hotplug, blanking, sd_notify
//   panel-shelf --window        in a desktop window (SDL2): resize it, the selection stays
//   panel-shelf --frame FILE    offline: a scripted pull and tap in virtual time, the frame as PNG
import Glibc
import PanelHost

@MainActor
func main() throws -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    var configuration = Configuration()
    configuration.appName = "panel-shelf"
    // The header's last-updated time; the default, /var/lib/panel-refresh, is the service's.
    configuration.stateDirectory = "/tmp"
    switch arguments.first {
    case nil, "--window":
        guard arguments.count <= 1 else { break }
        if arguments.first == "--window" { configuration.backend = .window }
        let host = try KioskHost.panel(configuration: configuration)
        let screen = try host.show { scene in ShelfScreen(scene: scene) }
        // A resized window (a panel back in another mode) keeps the screen: the status line
        // goes back to the bottom, and what it says is said again for whoever watches.
        host.onResize = { size in
            screen.place(in: size)
            Log.info("resized to \(Int(size.width))x\(Int(size.height)); selected row \(screen.list.selectedRow ?? -1); status \"\(screen.status.text)\"")
        }
        RealTimeDriver(host).run()
    case "--frame" where arguments.count == 2:
        return try offline(frame: arguments[1], configuration: configuration)
    default:
        break
    }
    print("usage: panel-shelf [--window | --frame FILE.png]")
    return 2
}

/// The same screen in virtual time: pull the list down past the header's trigger, let go, tap
/// the third row; the frame as PNG.
@MainActor
func offline(frame path: String, configuration: Configuration) throws -> Int32 {
    var configuration = configuration
    configuration.headlessSize = (width: 480, height: 272)
    let host = try KioskHost.virtual(configuration: configuration)
    let screen = try host.show { scene in ShelfScreen(scene: scene) }
    let time = VirtualTimeDriver(host)
    host.start(at: 0)
    var pull = GestureScript(start: 0.5)
    pull.drag(from: Point(x: 240, y: 20), to: Point(x: 240, y: 220), duration: 0.5, hold: 0.2)
    time.play(pull.frames)
    time.settle()
    var tap = GestureScript(start: host.now + 0.1)
    tap.tap(at: Point(x: 240, y: 160))
    time.play(tap.frames)
    time.settle()
    guard screen.rows.items.first?.name == "Item 1 (stock 2)",
          screen.list.selectedRow == 2 else {
        print("panel-shelf: the pull did not refresh the shelf, or the tap selected nothing")
        return 1
    }
    try host.savePNG(to: path)
    print("panel-shelf: \(screen.list.numberOfRows) rows after a refresh, \(screen.status.text); frame in \(path)")
    return 0
}

do {
    exit(try main())
} catch {
    // A missing display or font is a sentence for the operator, not a crash report.
    Log.error("\(error)")
    exit(1)
}
