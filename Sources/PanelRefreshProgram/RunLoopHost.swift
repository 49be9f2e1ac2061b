import Foundation
import PanelApp
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// Seconds of CLOCK_MONOTONIC: the base of the kernel's touch timestamps.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The kiosk's Dispatch loop on the main queue: read sources for the touchscreens, udev and
/// the DRM card, one timer re-armed to the runtime's next wake-up (disarmed while nothing
/// moves: idle means no wake-ups), a watchdog timer, and a read source on the signal pipe.
/// Every handler runs on the main queue, hence on the main actor.
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
    let display: any Display
    var configurationPath: String?
    private var inputSources: [String: DispatchSourceRead] = [:]
    private var keep: [any DispatchSourceProtocol] = []
    private let timer: DispatchSourceTimer

    init(runtime: PanelRuntime, clock: ManualClock, display: any Display, touchscreens: TouchscreenSet, monitor: HotplugMonitor?) {
        self.runtime = runtime
        self.clock = clock
        self.display = display
        self.touchscreens = touchscreens
        self.monitor = monitor
        timer = DispatchSource.makeTimerSource(queue: .main)
    }

    private func onMain(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        { MainActor.assumeIsolated { body() } }
    }

    func start() {
        timer.setEventHandler(handler: onMain { [unowned self] in self.tick() })
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        for node in touchscreens.nodes { watch(node) }
        if let monitor {
            let source = monitor.makeReadSource(queue: .main, handler: onMain { [unowned self] in self.hotplug() })
            keep.append(source)
        }
        if let drm = display as? DRMDisplay {
            let source = DispatchSource.makeReadSource(fileDescriptor: drm.fileDescriptor, queue: .main)
            source.setEventHandler(handler: onMain { [unowned self] in
                do { try drm.handleEvents() } catch { Log.error("display events: \(error)") }
                self.clock.advance(to: monotonicNow())
                self.runtime.frameCompleted()
                self.schedule()
            })
            source.resume()
            keep.append(source)
        }
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
            let source = DispatchSource.makeReadSource(fileDescriptor: SignalPipe.readEnd, queue: .main)
            source.setEventHandler(handler: onMain { [unowned self] in
                for number in SignalPipe.receive() { self.signalled(number) }
            })
            source.resume()
            keep.append(source)
        }
        clock.advance(to: monotonicNow())
        runtime.start()
        schedule()
    }

    private func watch(_ node: String) {
        guard inputSources[node] == nil, let device = touchscreens.input(for: node)?.source as? EvdevDevice else { return }
        let source = device.makeReadSource(queue: .main, handler: onMain { [unowned self] in self.read(node) })
        inputSources[node] = source
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
        let paced = display is DRMDisplay ? delay : max(delay, 1.0 / 60)
        timer.schedule(deadline: .now() + paced)
    }

    /// SIGHUP: a new session (data source, rows, appearance, locale) on the same display and
    /// touchscreens. A bad file keeps the configuration in use.
    private func reload() {
        guard let path = configurationPath, let makeRuntime else {
            Log.warning("reload: no configuration file to read")
            return
        }
        do {
            let fresh = try Configuration.load(path: path)
            let next = try makeRuntime(fresh)
            if fresh.devices != configuration.devices || fresh.rotation != configuration.rotation
                || fresh.backend != configuration.backend || fresh.card != configuration.card {
                Log.warning("reload: input and display settings apply at the next start")
            }
            runtime.retire()
            runtime = next
            configuration = fresh
            clock.advance(to: monotonicNow())
            runtime.start()
            schedule()
            Log.info("reloaded \(path)")
            runtime.notifier.notify("STATUS=reloaded the configuration")
        } catch {
            Log.error("reload: \(error); keeping the configuration in use")
        }
    }

    private func signalled(_ number: Int32) {
        if number == SIGHUP {
            reload()
            return
        }
        Log.info("stopping")
        runtime.stop()
        exit(0)
    }
}
