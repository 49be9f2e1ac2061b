import Dispatch
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh

/// Real time: a ``KioskHost`` on the main queue's Dispatch sources (the touchscreens, udev for
/// input and DRM hotplug, the display's events, logind's bus, the signal pipe, and every
/// ``LoopSource`` the host watches), one timer re-armed to the host's next wake-up (disarmed
/// while nothing moves: idle means no wake-ups) and the watchdog's timer. Every entry gets
/// CLOCK_MONOTONIC's time (``MonotonicClock``), the base of the kernel's touch and flip time
/// stamps. Every handler runs on the main queue, hence on the main actor, one after another:
/// entries never nest.
///
/// The signals are the driver's, for the program and for every app: it installs the signal
/// pipe (``SignalPipe``) unless the program did first, so SIGTERM and SIGINT stop cleanly
/// (STOPPING=1, the CRTC and the VT restored, exit 0), SIGHUP reloads, SIGUSR1 logs the frame
/// timings, SIGUSR2 switches the VT, and SIGPIPE is ignored.
@MainActor
public final class RealTimeDriver {
    /// What is driven.
    public let host: KioskHost
    private var inputSources: [String: DispatchSourceRead] = [:]
    /// One watch of a loop source's descriptor, in one direction.
    private struct Watch: Hashable {
        var source: ObjectIdentifier
        var descriptor: WatchedDescriptor
        var writes: Bool
    }
    private var watches: [Watch: any DispatchSourceProtocol] = [:]
    /// A loop source's descriptor, whatever its direction and generation.
    private struct Owned: Hashable {
        var source: ObjectIdentifier
        var fd: Int32
    }
    /// Cancelled watches whose cancel handler has not run yet, by source and descriptor: a
    /// retired descriptor is released only when none is left.
    private var cancelling: [Owned: Int] = [:]
    private var keep: [any DispatchSourceProtocol] = []
    /// The display's events, and the generation of the descriptor it watches.
    private var displayEvents: DispatchSourceRead?
    private var watchedDisplayGeneration: Int?
    private let timer: DispatchSourceTimer
    /// Called instead of running on when a signal stops the host or the script ends
    /// (by default: the process exits with the code).
    public var onExit: (Int32) -> Never = { exit($0) }
    /// Rounds of already-read display events handled after an entry before the loop sleeps
    /// (a bound: a window flooded with events still lets the timer and the other sources run).
    static let pendingRounds = 8
    /// Whether the host ends when its scripted touches are done and nothing moves (the live demo).
    public var endsAfterScript = false
    /// Whether the driver takes the signals (``SignalPipe``): true, as a program wants; false
    /// for a program that handles them itself, and for tests that run a driver in-process.
    public var takesSignals = true

    /// A driver for `host`; nothing runs until `run()`.
    public init(_ host: KioskHost) {
        self.host = host
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

    /// Every handler: the host's entry at the time of now, then the sources and the timer
    /// brought up to date with what the entry changed.
    private func enter(_ entry: (Double) -> Void) {
        guard !stopped else { return }
        entry(MonotonicClock.now())
        settleSources()
    }

    /// Starts the host and runs the main queue; never returns (a signal ends the process).
    public func run() -> Never {
        if takesSignals {
            do { try SignalPipe.install() } catch { Log.warning("signals keep their default actions: \(error)") }
        }
        // The start is the main queue's first block, not a call before dispatchMain: on Linux,
        // dispatchMain ends the main thread and a worker thread serves the main queue from then
        // on, so a start made on the main thread (which may already send work off the loop)
        // and the first results' entries on that worker were ordered by nothing a thread
        // sanitizer can see. As blocks of one serial queue, every entry follows the start.
        DispatchQueue.main.async { MainActor.assumeIsolated { self.start() } }
        dispatchMain()
    }

    /// Takes the signals, wires the sources and starts the host (`run()` does it; tests of
    /// the wiring call it alone).
    public func start() {
        // An app's program has not taken the signals: the driver does, before anything else
        // can take long (the program's main does it at its first line).
        if takesSignals {
            do { try SignalPipe.install() } catch { Log.warning("signals keep their default actions: \(error)") }
        }
        timer.setEventHandler(handler: onMain { [unowned self] in self.enter(self.host.tick) })
        // Work that came back from a worker is applied and drawn now, as an entry of its own,
        // not at the next wake-up (while nothing moves there is none).
        host.executor.onArrival = { [unowned self] in self.enter(self.host.tick) }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        if let monitor = host.monitor {
            keep.append(readSource(monitor.fileDescriptor) { [unowned self] in self.enter(self.host.inputHotplug) })
        }
        if let displayMonitor = host.displayMonitor {
            keep.append(readSource(displayMonitor.fileDescriptor) { [unowned self] in self.enter(self.host.displayHotplug) })
        }
        if let session = host.session {
            keep.append(readSource(session.fileDescriptor) { [unowned self] in self.enter(self.host.sessionEvents) })
        }
        if let interval = host.watchdogInterval {
            let watchdog = DispatchSource.makeTimerSource(queue: .main)
            watchdog.schedule(deadline: .now(), repeating: interval / 2)
            watchdog.setEventHandler(handler: onMain { [unowned self] in self.host.watchdog() })
            watchdog.resume()
            keep.append(watchdog)
        }
        // Signals wait in the pipe from its installation on; any that came during start-up
        // are read as soon as this source runs.
        if takesSignals, SignalPipe.readEnd >= 0 {
            keep.append(readSource(SignalPipe.readEnd) { [unowned self] in
                for number in SignalPipe.receive() {
                    if case .exit(let code) = self.host.signal(number, at: MonotonicClock.now()) { self.onExit(code) }
                }
                self.settleSources()
            })
        }
        enter { self.host.start(at: $0) }
    }

    /// Cancels every source and the timers and lets go of the executor's arrivals: nothing
    /// runs from this driver any more (a test that ran one in-process; the process goes on).
    public func stop() {
        timer.cancel()
        for source in keep { source.cancel() }
        for source in inputSources.values { source.cancel() }
        for source in watches.values { source.cancel() }
        displayEvents?.cancel()
        (keep, inputSources, watches, displayEvents) = ([], [:], [:], nil)
        host.executor.onArrival = nil
        stopped = true
    }
    /// Whether ``stop()`` ran.
    private var stopped = false

    /// Watches the touchscreens in use, the display's current descriptor and the loop
    /// sources' descriptors, and arms the timer for the host's next wake-up.
    private func settleSources() {
        // A window system's library may have read the window's events off its connection
        // during the entry (while presenting): handled now, since the descriptor will not wake.
        for _ in 0..<Self.pendingRounds where host.display.hasPendingEvents {
            host.displayEvents(at: MonotonicClock.now())
        }
        // The same for logind's signals that came in while the host called logind.
        if host.session?.hasPendingEvents == true { host.sessionEvents(at: MonotonicClock.now()) }
        let nodes = Set(host.touchscreens?.nodes ?? [])
        for (node, source) in inputSources where !nodes.contains(node) {
            source.cancel()
            inputSources[node] = nil
        }
        for node in nodes where inputSources[node] == nil {
            guard let fd = host.touchscreens?.input(for: node)?.source.pollDescriptor else { continue }
            inputSources[node] = readSource(fd) { [unowned self] in
                self.enter { self.host.touchscreenReadable(node, at: $0) }
            }
        }
        if host.display.eventDescriptorGeneration != watchedDisplayGeneration { watchDisplayEvents() }
        settleLoopSources()
        if endsAfterScript, !host.hasScript, host.nextWakeUp == nil {
            host.stop()
            onExit(0)
        }
        schedule()
    }

    /// Follows every loop source with one piece of code: a watch for each descriptor it wants
    /// read or written (a new generation is a new watch), none for the rest; a retired
    /// descriptor is released once its watches are cancelled (their cancel handlers ran).
    private func settleLoopSources() {
        var wanted: [Watch: any LoopSource] = [:]
        for source in host.sources {
            let id = ObjectIdentifier(source)
            for descriptor in source.reading { wanted[Watch(source: id, descriptor: descriptor, writes: false)] = source }
            for descriptor in source.writing { wanted[Watch(source: id, descriptor: descriptor, writes: true)] = source }
        }
        for (watch, dispatched) in watches where wanted[watch] == nil {
            let fd = watch.descriptor.fd, key = Owned(source: watch.source, fd: fd)
            cancelling[key, default: 0] += 1
            let owner = host.sources.first { ObjectIdentifier($0) == watch.source }
            dispatched.setCancelHandler(handler: onMain { [weak self, weak owner] in
                guard let self else { return }
                self.cancelling[key, default: 1] -= 1
                if self.cancelling[key] == 0 {
                    self.cancelling[key] = nil
                    owner?.release(fd)
                }
            })
            dispatched.cancel()
            watches[watch] = nil
        }
        for (watch, source) in wanted where watches[watch] == nil {
            let fd = watch.descriptor.fd
            if watch.writes {
                let dispatched = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
                dispatched.setEventHandler(handler: onMain { [unowned self, unowned source] in
                    self.enter { self.host.writable(source, fd, at: $0) }
                })
                dispatched.resume()
                watches[watch] = dispatched
            } else {
                watches[watch] = readSource(fd) { [unowned self, unowned source] in self.enter { self.host.readable(source, fd, at: $0) } }
            }
        }
        // Retired with no watch (refused before it had one, or its cancels are done).
        let watched = Set(watches.keys.map { Owned(source: $0.source, fd: $0.descriptor.fd) })
        for source in host.sources {
            for fd in source.retired {
                let key = Owned(source: ObjectIdentifier(source), fd: fd)
                if cancelling[key] == nil && !watched.contains(key) { source.release(fd) }
            }
        }
    }

    /// Watches the display's current descriptor. A card that went away and came back has a
    /// new one: the old source is cancelled first, and only once Dispatch has let go of it
    /// (its cancel handler) does the display close the old descriptor.
    private func watchDisplayEvents() {
        if let old = displayEvents {
            old.setCancelHandler(handler: onMain { [unowned self] in self.host.display.releaseRetiredDescriptors() })
            old.cancel()
        }
        watchedDisplayGeneration = host.display.eventDescriptorGeneration
        displayEvents = host.display.eventDescriptor.map { fd in
            readSource(fd) { [unowned self] in self.enter(self.host.displayEvents) }
        }
    }

    /// Arms the timer for the host's next wake-up; disarms it when nothing waits.
    private func schedule() {
        guard let wake = host.nextWakeUp else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let delay = max(0, wake - MonotonicClock.now())
        // While something moves and frames are not paced by flips (headless, fbdev): 60 Hz.
        // (Work that came back is due at once: its arrival runs the entry.)
        let paced = host.display.pacesFrames || host.executor.nextArrival != nil ? delay : max(delay, host.frameInterval)
        timer.schedule(deadline: .now() + paced)
    }
}
