import Dispatch
import FoundationEssentials
import Glibc
import PanelApp
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// The kiosk's Dispatch loop on the main queue: read sources for the touchscreens, udev (input
/// and DRM hotplug), the display's events and the signal pipe; one timer re-armed to the
/// runtime's next wake-up (disarmed while nothing moves: idle means no wake-ups); a watchdog
/// timer. Every handler runs on the main queue, hence on the main actor. Devices are reached
/// only through their protocols (`Display`, `EventSource`).
@MainActor
final class RunLoopHost {
    private(set) var runtime: PanelRuntime
    let clock: ManualClock
    /// The configuration in use (SIGHUP compares the new one with it).
    var configuration = Configuration()
    /// Builds a runtime for a configuration on this display (a reload builds a new one).
    var makeRuntime: ((Configuration) throws -> PanelRuntime)?
    let touchscreens: TouchscreenSet
    let monitor: HotplugMonitor?
    let displayMonitor: DisplayHotplugMonitor?
    let display: any Display
    var configurationPath: String?
    private var inputSources: [String: DispatchSourceRead] = [:]
    private var keep: [any DispatchSourceProtocol] = []
    /// The display's events (page flips), and the generation of the descriptor it watches.
    private var displayEvents: DispatchSourceRead?
    private var watchedDisplayGeneration = 0
    private let timer: DispatchSourceTimer

    init(runtime: PanelRuntime, clock: ManualClock, display: any Display, touchscreens: TouchscreenSet,
         monitor: HotplugMonitor?, displayMonitor: DisplayHotplugMonitor?) {
        self.runtime = runtime
        self.clock = clock
        self.display = display
        self.touchscreens = touchscreens
        self.monitor = monitor
        self.displayMonitor = displayMonitor
        timer = DispatchSource.makeTimerSource(queue: .main)
    }

    private func onMain(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        { MainActor.assumeIsolated { body() } }
    }

    private func readSource(_ fd: Int32, _ handler: @escaping @MainActor () -> Void) -> DispatchSourceRead {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler(handler: onMain(handler))
        source.resume()
        return source
    }

    func start() {
        timer.setEventHandler(handler: onMain { [unowned self] in self.tick() })
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        for node in touchscreens.nodes { watch(node) }
        if let monitor {
            keep.append(readSource(monitor.fileDescriptor) { [unowned self] in self.hotplug() })
        }
        if let displayMonitor {
            keep.append(readSource(displayMonitor.fileDescriptor) { [unowned self] in self.displayHotplug() })
        }
        watchDisplayEvents()
        if let interval = runtime.notifier.watchdogInterval {
            let watchdog = DispatchSource.makeTimerSource(queue: .main)
            watchdog.schedule(deadline: .now(), repeating: interval / 2)
            watchdog.setEventHandler(handler: onMain { [unowned self] in self.runtime.watchdog() })
            watchdog.resume()
            keep.append(watchdog)
        }
        // Signals wait in SignalPipe from main's first line; any that came during start-up
        // are read as soon as this source runs.
        if SignalPipe.readEnd >= 0 {
            keep.append(readSource(SignalPipe.readEnd) { [unowned self] in
                for number in SignalPipe.receive() { self.signalled(number) }
            })
        }
        clock.advance(to: monotonicNow())
        runtime.start()
        schedule()
    }

    /// Watches the display's current descriptor. A card that went away and came back has a
    /// new one: the old source is cancelled first, and only once Dispatch has let go of it
    /// (its cancel handler) does the display close the old descriptor.
    private func watchDisplayEvents() {
        if let old = displayEvents {
            old.setCancelHandler(handler: onMain { [unowned self] in self.display.releaseRetiredDescriptors() })
            old.cancel()
        }
        watchedDisplayGeneration = display.eventDescriptorGeneration
        displayEvents = display.eventDescriptor.map { fd in
            readSource(fd) { [unowned self] in
                do { try self.display.handleEvents() } catch { Log.error("display events: \(error)") }
                self.clock.advance(to: monotonicNow())
                self.runtime.frameCompleted()
                self.schedule()
            }
        }
    }

    private func watch(_ node: String) {
        guard inputSources[node] == nil, let fd = touchscreens.input(for: node)?.source.pollDescriptor else { return }
        inputSources[node] = readSource(fd) { [unowned self] in self.read(node) }
    }

    private func read(_ node: String) {
        clock.advance(to: monotonicNow())
        runtime.handle(touchscreens.read(node: node, now: clock.now))
        if touchscreens.input(for: node) == nil {
            inputSources.removeValue(forKey: node)?.cancel()
            Log.warning("\(node) went away; waiting for it to come back")
        }
        schedule()
    }

    private func hotplug() {
        guard let monitor else { return }
        clock.advance(to: monotonicNow())
        for change in monitor.receive() {
            runtime.handle(touchscreens.handle(change, now: clock.now))
            switch change {
            case .added(let info):
                watch(info.node)
                if touchscreens.input(for: info.node) != nil { Log.info("using \(info.node) (\(info.name))") }
            case .removed(let node):
                inputSources.removeValue(forKey: node)?.cancel()
            }
        }
        schedule()
    }

    /// A DRM uevent: the panel went away, came back, or came back in another mode (then the
    /// UI is built again at the new size, as a reload does).
    private func displayHotplug() {
        guard let displayMonitor, displayMonitor.receive() else { return }
        clock.advance(to: monotonicNow())
        let probe = display.reprobe()
        if display.eventDescriptorGeneration != watchedDisplayGeneration {
            Log.info("display: the card came back as a new device (\(display.summary))")
            watchDisplayEvents()
        }
        if case .connected(let width, let height) = probe,
           Double(width) != runtime.scene.screen.size.width || Double(height) != runtime.scene.screen.size.height {
            Log.info("display: the panel is back at \(width)x\(height) (\(display.summary))")
            touchscreens.resize(width: Double(width), height: Double(height))
            replaceRuntime(with: configuration)
        } else {
            runtime.displayProbed(probe)
        }
        schedule()
    }

    private func tick() {
        clock.advance(to: monotonicNow())
        runtime.pump()
        schedule()
    }

    /// Arms the timer for the runtime's next wake-up; disarms it when nothing waits.
    private func schedule() {
        guard let wake = runtime.nextWakeUp else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let delay = max(0, wake - monotonicNow())
        // While something moves and frames are not paced by flips (headless, fbdev): 60 Hz.
        let paced = display.pacesFrames ? delay : max(delay, 1.0 / 60)
        timer.schedule(deadline: .now() + paced)
    }

    @discardableResult
    private func replaceRuntime(with fresh: Configuration) -> Bool {
        guard let makeRuntime else { return false }
        do {
            let next = try makeRuntime(fresh)
            runtime.retire()
            runtime = next
            configuration = fresh
            clock.advance(to: monotonicNow())
            runtime.start()
            schedule()
            return true
        } catch {
            Log.event(.reloadRefused, priority: 3, "reload: \(error); keeping the configuration in use",
                      fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            runtime.notifier.notify("STATUS=reload refused: \(error); keeping the configuration in use")
            return false
        }
    }

    /// SIGHUP: a new session (data source, rows, appearance, locale) on the same display and
    /// touchscreens. A bad file keeps the configuration in use.
    private func reload() {
        guard let path = configurationPath, makeRuntime != nil else {
            Log.warning("reload: no configuration file to read")
            return
        }
        let fresh: Configuration
        do {
            fresh = try Configuration.load(path: path)
        } catch {
            Log.event(.reloadRefused, priority: 3, "reload: \(error); keeping the configuration in use",
                      fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            runtime.notifier.notify("STATUS=reload refused: \(error); keeping the configuration in use")
            return
        }
        if fresh.devices != configuration.devices || fresh.rotation != configuration.rotation
            || fresh.displayRotation != configuration.displayRotation
            || fresh.backend != configuration.backend || fresh.card != configuration.card {
            Log.warning("reload: input and display settings apply at the next start")
        }
        guard replaceRuntime(with: fresh) else { return }
        Log.info("reloaded \(path)")
        runtime.notifier.notify("STATUS=reloaded the configuration")
    }

    private func signalled(_ number: Int32) {
        switch number {
        case SIGHUP: reload()
        case SIGUSR1: runtime.reportStatistics()
        default:
            Log.info("stopping")
            runtime.stop()
            // A data-source command still running, and what escaped its group, end with us.
            ChildSupervisor.endAll()
            exit(0)
        }
    }
}
