import FoundationEssentials
import Dispatch
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh

/// Real time: a ``KioskHost`` on the main queue's Dispatch sources (the touchscreens, udev for
/// input and DRM hotplug, the display's events, logind's bus, the signal pipe), one timer re-armed to the
/// host's next wake-up (disarmed while nothing moves: idle means no wake-ups) and the
/// watchdog's timer. Every entry gets CLOCK_MONOTONIC's time, the base of the kernel's touch
/// and flip time stamps; this file is the only code that reads that clock for the kiosk.
/// Every handler runs on the main queue, hence on the main actor.
@MainActor
public final class RealTimeDriver {
    /// What is driven.
    public let host: KioskHost
    private var inputSources: [String: DispatchSourceRead] = [:]
    /// The control socket's connections: a read source while a request comes, a write source
    /// while an answer goes.
    private var controlReaders: [Int32: DispatchSourceRead] = [:]
    private var controlWriters: [Int32: DispatchSourceWrite] = [:]
    /// Cancelled control sources whose cancel handler has not run yet, by descriptor: a retired
    /// connection is closed only when none is left.
    private var controlCancels: [Int32: Int] = [:]
    private var keep: [any DispatchSourceProtocol] = []
    /// The broker's socket: a read source, a write source while something waits to go, and
    /// the socket they watch (its number and the link's generation of it: a socket made again
    /// may get the number of the one closed).
    private var fleetReader: DispatchSourceRead?
    private var fleetWriter: DispatchSourceWrite?
    private var fleetWatched: (fd: Int32, generation: Int)?
    /// The display's events, and the generation of the descriptor it watches.
    private var displayEvents: DispatchSourceRead?
    private var watchedDisplayGeneration: Int?
    private let timer: DispatchSourceTimer
    /// Called instead of running on when a signal stops the kiosk or the script ends
    /// (by default: the process exits with the code).
    public var onExit: (Int32) -> Never = { exit($0) }
    /// Rounds of already-read display events handled after an entry before the loop sleeps
    /// (a bound: a window flooded with events still lets the timer and the other sources run).
    static let pendingRounds = 8
    /// Whether the kiosk ends when its scripted touches are done and nothing moves (the live demo).
    public var endsAfterScript = false

    /// A driver for `host`; nothing runs until `run()`.
    public init(_ host: KioskHost) {
        self.host = host
        timer = DispatchSource.makeTimerSource(queue: .main)
    }

    /// Seconds of CLOCK_MONOTONIC.
    public nonisolated static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Frame timings' clock: CLOCK_MONOTONIC, for ``PanelRuntime``'s `stopwatch`.
    public nonisolated static let stopwatch: @Sendable () -> Double = { now() }

    /// A kiosk clock at CLOCK_MONOTONIC's time, its calendar time the machine's.
    public static func makeClock() -> ManualClock {
        let t = now()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return ManualClock(now: t, epoch: Date(timeIntervalSince1970: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9 - t))
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
        entry(Self.now())
        settleSources()
    }

    /// Starts the kiosk and runs the main queue; never returns (a signal ends the process).
    public func run() -> Never {
        start()
        dispatchMain()
    }

    /// Wires the sources and starts the host (`run()` does it; tests of the wiring call it alone).
    public func start() {
        timer.setEventHandler(handler: onMain { [unowned self] in self.enter(self.host.tick) })
        // A page or picture that arrived from a worker is drawn now, not at the next wake-up
        // (while nothing moves there is none).
        host.onWake = { [unowned self] in self.enter(self.host.tick) }
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
        if let control = host.control {
            keep.append(readSource(control.listenDescriptor) { [unowned self] in self.enter(self.host.controlAcceptable) })
        }
        if let interval = host.watchdogInterval {
            let watchdog = DispatchSource.makeTimerSource(queue: .main)
            watchdog.schedule(deadline: .now(), repeating: interval / 2)
            watchdog.setEventHandler(handler: onMain { [unowned self] in self.host.watchdog() })
            watchdog.resume()
            keep.append(watchdog)
        }
        // Signals wait in SignalPipe from main's first line; any that came during start-up
        // are read as soon as this source runs.
        if SignalPipe.readEnd >= 0 {
            keep.append(readSource(SignalPipe.readEnd) { [unowned self] in
                for number in SignalPipe.receive() {
                    if case .exit(let code) = self.host.signal(number, at: Self.now()) { self.onExit(code) }
                }
                self.settleSources()
            })
        }
        enter { self.host.start(at: $0) }
    }

    /// Watches the touchscreens in use and the display's current descriptor, and arms the
    /// timer for the host's next wake-up.
    private func settleSources() {
        // A window system's library may have read the window's events off its connection
        // during the entry (while presenting): handled now, since the descriptor will not wake.
        for _ in 0..<Self.pendingRounds where host.display.hasPendingEvents {
            host.displayEvents(at: Self.now())
        }
        // The same for logind's signals that came in while the kiosk called logind.
        if host.session?.hasPendingEvents == true { host.sessionEvents(at: Self.now()) }
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
        settleControl()
        settleFleet()
        if endsAfterScript, !host.hasScript, host.runtime.nextWakeUp == nil {
            host.runtime.stop()
            onExit(0)
        }
        schedule()
    }

    /// Follows the broker's socket: a new one (a reconnect) gets new sources, a gone one none;
    /// the write source lives only while the link has something to write (a writable socket
    /// would wake the loop without end).
    private func settleFleet() {
        guard let fleet = host.fleet else { return }
        let current = fleet.descriptor.map { (fd: $0, generation: fleet.socketGeneration) }
        if current?.fd != fleetWatched?.fd || current?.generation != fleetWatched?.generation {
            fleetReader?.cancel()
            fleetWriter?.cancel()
            (fleetReader, fleetWriter, fleetWatched) = (nil, nil, current)
            if let fd = current?.fd {
                fleetReader = readSource(fd) { [unowned self] in self.enter(self.host.fleetReadable) }
            }
        }
        if let fd = current?.fd, fleet.wantsWrite, fleetWriter == nil {
            let writer = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
            writer.setEventHandler(handler: onMain { [unowned self] in self.enter(self.host.fleetWritable) })
            writer.resume()
            fleetWriter = writer
        } else if !fleet.wantsWrite, let writer = fleetWriter {
            writer.cancel()
            fleetWriter = nil
        }
    }

    /// Follows the control connections: a source for each that reads or writes, none for the
    /// rest; a retired one is closed once its sources are cancelled (their cancel handlers ran).
    private func settleControl() {
        guard let control = host.control else { return }
        let reading = Set(control.reading), writing = Set(control.writing)
        func cancelled(_ fd: Int32) -> @Sendable () -> Void {
            controlCancels[fd, default: 0] += 1
            return onMain { [unowned self] in
                self.controlCancels[fd, default: 1] -= 1
                if self.controlCancels[fd] == 0 {
                    self.controlCancels[fd] = nil
                    self.host.control?.release(fd)
                }
            }
        }
        for (fd, source) in controlReaders where !reading.contains(fd) {
            source.setCancelHandler(handler: cancelled(fd))
            source.cancel()
            controlReaders[fd] = nil
        }
        for (fd, source) in controlWriters where !writing.contains(fd) {
            source.setCancelHandler(handler: cancelled(fd))
            source.cancel()
            controlWriters[fd] = nil
        }
        for fd in reading where controlReaders[fd] == nil {
            controlReaders[fd] = readSource(fd) { [unowned self] in self.enter { self.host.controlReadable(fd, at: $0) } }
        }
        for fd in writing where controlWriters[fd] == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
            source.setEventHandler(handler: onMain { [unowned self] in self.enter { self.host.controlWritable(fd, at: $0) } })
            source.resume()
            controlWriters[fd] = source
        }
        // Retired with no source (refused before it had one, or its cancels are done).
        for fd in control.retired where controlCancels[fd] == nil { control.release(fd) }
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
        let delay = max(0, wake - Self.now())
        // While something moves and frames are not paced by flips (headless, fbdev): 60 Hz.
        let paced = host.display.pacesFrames ? delay : max(delay, host.frameInterval)
        timer.schedule(deadline: .now() + paced)
    }
}
