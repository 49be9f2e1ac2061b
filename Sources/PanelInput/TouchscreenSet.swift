import PanelGestures

/// The touchscreens a panel uses, as devices come and go.
///
/// With explicit paths, exactly those are used (and picked up whenever they appear); without,
/// every touchscreen udev reports. A device that goes away mid-drag has its contacts
/// cancelled (the gesture ends cleanly; refresh components go back to idle); when it returns
/// it is opened again. Contact ids are made unique across devices.
public final class TouchscreenSet {
    /// Opens a device node.
    public typealias Opener = (String) throws -> any EventSource

    /// Exactly these nodes, or every touchscreen udev reports (nil).
    public let explicitPaths: [String]?
    /// The picture's width, pixels.
    public private(set) var width: Double
    /// The picture's height, pixels.
    public private(set) var height: Double
    /// How events become touches, for every device.
    public var configuration: TouchAssembler.Configuration
    /// The operator's mapping for every device; a device's udev calibration wins over its matrix.
    public var mapping: TouchMapping
    /// Hears what could not be opened or read; the set carries on with the others.
    public var onError: ((InputError) -> Void)?
    private let open: Opener

    private struct Entry {
        var input: TouchInput
        /// udev's record, to open the device again after a pause.
        var info: TouchscreenInfo
        /// Added to the device's contact ids so two devices never share one.
        var idBase: Int
    }

    private var entries: [String: Entry] = [:]
    private var serial = 0
    /// Devices closed by `suspend`, opened again by `resume`.
    private var suspended: [String: TouchscreenInfo] = [:]
    /// Whether every device is suspended (another VT is in front): a device that appears
    /// meanwhile waits for `resume` too.
    public private(set) var isSuspended = false

    /// A set of no devices yet (`start(discovered:)` opens them).
    /// - Parameters:
    ///   - explicitPaths: exactly these nodes; nil: every touchscreen udev reports.
    ///   - width: the picture's pixels across.
    ///   - height: the picture's pixels down.
    ///   - configuration: how events become touches.
    ///   - mapping: the operator's mapping for every device.
    ///   - open: opens a node (`EvdevDevice` in the program; a fake in tests).
    public init(explicitPaths: [String]? = nil, width: Double, height: Double,
                configuration: TouchAssembler.Configuration = .init(), mapping: TouchMapping = .identity,
                open: @escaping Opener) {
        self.explicitPaths = explicitPaths
        self.width = width
        self.height = height
        self.configuration = configuration
        self.mapping = mapping
        self.open = open
    }

    /// The picture's new size (the panel came back in another mode): positions map to it.
    public func resize(width: Double, height: Double) {
        (self.width, self.height) = (width, height)
        for entry in entries.values { entry.input.resize(width: width, height: height) }
    }

    /// Nodes in use.
    public var nodes: [String] { entries.keys.sorted() }

    /// The input of a node in use (for its read source).
    public func input(for node: String) -> TouchInput? { entries[node]?.input }

    /// Opens the devices there are now: the explicit paths, or the discovered touchscreens.
    public func start(discovered: [TouchscreenInfo]) {
        if let explicitPaths {
            for path in explicitPaths {
                // udev's entry (name, calibration) when it knows the node.
                add(discovered.first { $0.node == path } ?? TouchscreenInfo(node: path, name: path, calibrationProperty: nil))
            }
        } else {
            for info in discovered { add(info) }
        }
    }

    /// Applies a hotplug change; returns the frames it causes (cancelled contacts).
    public func handle(_ change: HotplugMonitor.Change, now: Double) -> [TouchFrame] {
        switch change {
        case .added(let info):
            add(info)
            return []
        case .removed(let node):
            guard let entry = entries.removeValue(forKey: node) else {
                suspended[node] = nil
                return []
            }
            let frames = (try? entry.input.read(now: now)) ?? []
            var cancel = frames
            if let frame = cancelFrame(entry, now: now) { cancel.append(frame) }
            return cancel.map { renumber($0, entry) }
        }
    }

    /// Closes `nodes` (nil: every device, and those that appear until `resume`): the kiosk
    /// stops reading input while another VT is in front, and a grab no longer keeps the
    /// touches from that VT's programs. Returns the frames that cancel their contacts.
    public func suspend(_ nodes: [String]? = nil, now: Double) -> [TouchFrame] {
        if nodes == nil { isSuspended = true }
        var frames: [TouchFrame] = []
        for node in nodes ?? self.nodes {
            guard let entry = entries[node] else { continue }
            suspended[node] = entry.info
            frames += handle(.removed(node), now: now)
        }
        return frames
    }

    /// Opens again what `suspend` closed: `nodes`, or (nil) everything.
    public func resume(_ nodes: [String]? = nil) {
        if nodes == nil { isSuspended = false }
        for node in nodes ?? suspended.keys.sorted() {
            guard let info = suspended.removeValue(forKey: node) else { continue }
            add(info)
        }
    }

    /// Reads one device (when its descriptor is readable); a device that went away is
    /// dropped, its contacts cancelled.
    public func read(node: String, now: Double) -> [TouchFrame] {
        guard let entry = entries[node] else { return [] }
        do {
            let frames = try entry.input.read(now: now)
            if let warning = entry.input.takeExcessWarning() { onError?(warning) }
            if entry.input.isGone { entries[node] = nil }
            return frames.map { renumber($0, entry) }
        } catch let error as InputError {
            onError?(error)
            return []
        } catch {
            onError?(.failed(path: node, call: "read", errno: 0))
            return []
        }
    }

    private func add(_ info: TouchscreenInfo) {
        if let explicitPaths, !explicitPaths.contains(info.node) { return }
        guard entries[info.node] == nil else { return }
        if isSuspended {
            suspended[info.node] = info
            return
        }
        do {
            let source = try open(info.node)
            var own = mapping
            if let calibration = info.calibration { own.calibration = calibration }
            if let filter = info.filter { own.filter = filter }
            let input = try TouchInput(source: source, width: width, height: height, configuration: configuration, mapping: own)
            serial += 1
            entries[info.node] = Entry(input: input, info: info, idBase: serial * 1_000_000)
        } catch let error as InputError {
            onError?(error)
        } catch {
            onError?(.failed(path: info.node, call: "open", errno: 0))
        }
    }

    /// The cancel frame for a device removed by udev before a read noticed.
    private func cancelFrame(_ entry: Entry, now: Double) -> TouchFrame? {
        var assembler = entry.input.assembler
        return assembler.cancelAll(at: now)
    }

    private func renumber(_ frame: TouchFrame, _ entry: Entry) -> TouchFrame {
        TouchFrame(timestamp: frame.timestamp, touches: frame.touches.map {
            Touch(id: $0.id + entry.idBase, position: $0.position, phase: $0.phase, timestamp: $0.timestamp)
        })
    }
}
