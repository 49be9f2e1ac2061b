// panel-shelf: an app's own list on a touch panel through the PanelRefresh kiosk host.
//   panel-shelf                 on the panel: DRM, touchscreens, hotplug, blanking, sd_notify
//   panel-shelf --frame FILE    offline: a scripted pull in virtual time, the frame as PNG
import Glibc
import PanelApp

@MainActor
func main() throws -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let rows = ShelfList()
    var configuration = Configuration()
    configuration.stateDirectory = "/tmp"
    guard arguments.first == "--frame", arguments.count == 2 else {
        guard arguments.isEmpty else {
            print("usage: panel-shelf [--frame FILE.png]")
            return 2
        }
        let host = try KioskHost.panel(configuration: configuration) { scene in _ = addShelf(to: scene, rows: rows) }
        RealTimeDriver(host).run()
    }
    // The same views in virtual time: pull the list down past the header's trigger, let go.
    configuration.headlessSize = (width: 480, height: 272)
    var list: ListView?
    let host = try KioskHost.virtual(configuration: configuration) { scene in list = addShelf(to: scene, rows: rows) }
    let time = VirtualTimeDriver(host)
    host.start(at: 0)
    var pull = GestureScript(start: 0.5)
    pull.drag(from: Point(x: 240, y: 20), to: Point(x: 240, y: 220), duration: 0.5, hold: 0.2)
    time.play(pull.frames)
    time.settle()
    guard let display = host.display as? HeadlessDisplay, let list, rows.items.first == "Item 1 (stock 2)" else {
        print("panel-shelf: the pull did not refresh the shelf")
        return 1
    }
    try display.savePNG(to: arguments[1])
    print("panel-shelf: \(list.numberOfRows) rows after a refresh; frame in \(arguments[1])")
    return 0
}

exit(try main())
