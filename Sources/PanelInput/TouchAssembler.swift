import PanelGestures

/// Turns a device's raw events into touch frames: slot tracking for protocol B, id
/// assignment for protocol A, BTN_TOUCH for single-touch devices; one frame per SYN_REPORT.
///
/// The same code reads live devices (libevdev) and recordings (evemu), so a replay takes
/// exactly the path of a real touchscreen. Contacts get ids of their own, unique for the
/// assembler's life (tracking ids repeat and protocol A has none).
public struct TouchAssembler: Sendable {
    /// How events become touches: which axes give positions, how far a protocol-A contact may jump.
    public struct Configuration: Sendable, Hashable {
        /// ABS codes that carry X and Y; nil: the protocol's own (ABS_MT_POSITION_X/Y, or
        /// ABS_X/Y). Quirky devices report elsewhere (the eGalax of fixture 10: ABS_Z, ABS_RX).
        public var positionAxes: (x: UInt16, y: UInt16)? {
            get { axisX.flatMap { x in axisY.map { (x, $0) } } }
            set { axisX = newValue?.x; axisY = newValue?.y }
        }
        var axisX: UInt16?
        var axisY: UInt16?
        /// Protocol A: a contact farther than this (device units) from every contact of the
        /// previous frame is a new one, not the nearest old one moving.
        public var maxProtocolAJump: Double = .infinity

        /// A configuration; `positionAxes` takes positions from other ABS codes (the eGalax's ABS_Z/ABS_RX).
        public init(positionAxes: (x: UInt16, y: UInt16)? = nil) {
            axisX = positionAxes?.x
            axisY = positionAxes?.y
        }

        /// Equal when the position axes and the protocol-A jump bound are.
        public static func == (a: Configuration, b: Configuration) -> Bool {
            a.axisX == b.axisX && a.axisY == b.axisY && a.maxProtocolAJump == b.maxProtocolAJump
        }

        /// Hashes the position axes and the jump bound.
        public func hash(into h: inout Hasher) {
            h.combine(axisX)
            h.combine(axisY)
        }
    }

    /// Contacts one frame may hold: 64. Real panels report at most a few dozen (the devices
    /// of the recordings in Tests/PanelInputTests/Fixtures declare 10 to 60 slots), and
    /// protocol A's matching costs the square of the count, so a broken or hostile device
    /// sending thousands per frame would stall the loop. Contacts past it, and slots
    /// numbered past it, are dropped and counted in `droppedContacts`.
    public static let maxContacts = 64

    /// Protocol A (anonymous contacts) or B (slots), as the device reports.
    public let touchProtocol: TouchProtocol
    /// Device units to picture pixels.
    public var mapping: ScreenMapping
    /// Contacts (protocol A) and slot selections (protocol B) dropped for being past
    /// `maxContacts`, over the assembler's life: non-zero means the device is broken or
    /// hostile, and its owner says so once.
    public private(set) var droppedContacts = 0
    private let xCode: UInt16
    private let yCode: UInt16
    private let maxJump: Double

    /// Protocol B state of one slot.
    private struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32?
        var y: Int32?
        /// Our id of the contact in the slot, once it has been reported.
        var contact: Int?
        /// A contact that ended in this frame and must be reported as ended.
        var ending: (id: Int, x: Int32, y: Int32)?
        /// Begin again as a new contact at the next report (after SYN_DROPPED).
        var restart = false
    }

    private var slots: [Int: Slot] = [:]
    private var slot = 0
    // Protocol A.
    private var building: (x: Int32?, y: Int32?) = (nil, nil)
    private var reported: [(x: Int32, y: Int32)] = []
    private var sawMTReport = false
    private var activeA: [(id: Int, x: Int32, y: Int32)] = []
    // Single touch (and protocol A's release).
    private var touchDown = false
    private var touchReleased = false
    private var stX: Int32?
    private var stY: Int32?
    private var stContact: Int?
    /// Each contact's 1-euro filter while it is down, by id (`mapping.filter`).
    private var filters: [Int: OneEuroFilter] = [:]
    private var nextID = 1

    /// - Throws: `InputError.missingAxis` when the axes that carry positions have no range.
    public init(device: DeviceDescription, width: Double, height: Double,
                configuration: Configuration = Configuration()) throws {
        touchProtocol = device.touchProtocol
        let mt = touchProtocol != .singleTouch
        xCode = configuration.axisX ?? (mt ? AbsCode.mtPositionX : AbsCode.x)
        yCode = configuration.axisY ?? (mt ? AbsCode.mtPositionY : AbsCode.y)
        guard let xr = device.absInfo[xCode] else { throw InputError.missingAxis(device: device.name, code: xCode) }
        guard let yr = device.absInfo[yCode] else { throw InputError.missingAxis(device: device.name, code: yCode) }
        mapping = ScreenMapping(xAxis: xr, yAxis: yr, width: width, height: height)
        maxJump = configuration.maxProtocolAJump
    }

    /// Contacts down now.
    public var activeContacts: Int {
        switch touchProtocol {
        case .multitouchB: return slots.values.filter { $0.contact != nil }.count
        case .multitouchA: return activeA.count
        case .singleTouch: return stContact == nil ? 0 : 1
        }
    }

    /// Feeds one event; returns the frame a SYN_REPORT completes (nil if it has no contacts),
    /// or, for SYN_DROPPED, the frame that cancels every contact.
    public mutating func feed(_ e: InputEvent) -> TouchFrame? {
        switch e.type {
        case EventType.syn:
            switch e.code {
            case SynCode.report: return report(at: e.seconds)
            case SynCode.mtReport:
                sawMTReport = true
                if let x = building.x, let y = building.y {
                    if reported.count < Self.maxContacts { reported.append((x, y)) } else { droppedContacts += 1 }
                }
                building = (nil, nil)
            case SynCode.dropped: return cancelAll(at: e.seconds)
            default: break
            }
        case EventType.key:
            if e.code == KeyCode.btnTouch {
                touchDown = e.value != 0
                if !touchDown { touchReleased = true }
            }
        case EventType.abs:
            absolute(e.code, e.value)
        default:
            break
        }
        return nil
    }

    private mutating func absolute(_ code: UInt16, _ value: Int32) {
        switch touchProtocol {
        case .multitouchB:
            if code == AbsCode.mtSlot {
                // A slot past the limit is ignored, with the axes that follow it.
                slot = (0..<Self.maxContacts).contains(Int(value)) ? Int(value) : -1
                if slot < 0 { droppedContacts += 1 }
            } else if slot < 0 {
                return
            } else if code == AbsCode.mtTrackingID {
                var s = slots[slot] ?? Slot()
                if let id = s.contact, let x = s.x, let y = s.y { s.ending = (id, x, y) }
                s.contact = nil
                s.restart = false
                s.trackingID = value
                slots[slot] = s
            } else if code == xCode {
                slots[slot, default: Slot()].x = value
            } else if code == yCode {
                slots[slot, default: Slot()].y = value
            }
        case .multitouchA:
            if code == xCode { building.x = value } else if code == yCode { building.y = value }
        case .singleTouch:
            if code == xCode { stX = value } else if code == yCode { stY = value }
        }
    }

    private func touch(_ id: Int, _ x: Int32, _ y: Int32, _ phase: TouchPhase, _ t: Double) -> Touch {
        Touch(id: id, position: mapping.map(x: x, y: y), phase: phase, timestamp: t)
    }

    /// Every slot of `slots` in slot order, changed in place (the caller passes a copy and
    /// stores it back, so the body may use the assembler).
    private static func forEachSlot(_ slots: inout [Int: Slot], _ body: (inout Slot) -> Void) {
        for index in slots.keys.sorted() {
            guard var slot = slots[index] else { continue }
            body(&slot)
            slots[index] = slot
        }
    }

    /// The slot's lifted contact not reported yet, as a touch in `phase` (ended, or cancelled).
    private func takeEnding(_ slot: inout Slot, _ phase: TouchPhase, _ t: Double) -> Touch? {
        guard let ending = slot.ending else { return nil }
        slot.ending = nil
        return touch(ending.id, ending.x, ending.y, phase, t)
    }

    private mutating func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func report(at t: Double) -> TouchFrame? {
        var touches: [Touch] = []
        switch touchProtocol {
        case .multitouchB:
            var all = slots
            Self.forEachSlot(&all) { s in
                if let ended = takeEnding(&s, .ended, t) { touches.append(ended) }
                if s.trackingID >= 0, let x = s.x, let y = s.y {
                    if let id = s.contact, !s.restart {
                        touches.append(touch(id, x, y, .moved, t))
                    } else {
                        let id = newID()
                        s.contact = id
                        s.restart = false
                        touches.append(touch(id, x, y, .began, t))
                    }
                }
            }
            slots = all
        case .multitouchA:
            var next: [(x: Int32, y: Int32)]? = nil
            if sawMTReport {
                next = reported
            } else if touchReleased {
                next = []
            }
            if let next {
                touches = matchProtocolA(next, at: t)
            } else {
                // A frame with no contact data while the finger is down: nothing moved.
                touches = activeA.map { touch($0.id, $0.x, $0.y, .moved, t) }
            }
            reported.removeAll(keepingCapacity: true)
            building = (nil, nil)
            sawMTReport = false
        case .singleTouch:
            if touchDown, let x = stX, let y = stY {
                if let id = stContact {
                    touches.append(touch(id, x, y, .moved, t))
                } else {
                    let id = newID()
                    stContact = id
                    touches.append(touch(id, x, y, .began, t))
                }
            } else if !touchDown, let id = stContact, let x = stX, let y = stY {
                touches.append(touch(id, x, y, .ended, t))
                stContact = nil
            }
        }
        touchReleased = false
        return touches.isEmpty ? nil : TouchFrame(timestamp: t, touches: smoothed(touches))
    }

    /// Protocol A has no ids: each new contact takes the id of the nearest contact of the
    /// previous frame (closest pairs first); the rest begin or end.
    private mutating func matchProtocolA(_ next: [(x: Int32, y: Int32)], at t: Double) -> [Touch] {
        var pairs: [(distance: Double, old: Int, new: Int)] = []
        for (i, old) in activeA.enumerated() {
            for (j, new) in next.enumerated() {
                let dx = Double(old.x) - Double(new.x), dy = Double(old.y) - Double(new.y)
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance <= maxJump { pairs.append((distance, i, j)) }
            }
        }
        pairs.sort { $0.distance < $1.distance }
        var oldTaken = Set<Int>(), newTaken = [Int: Int]()
        for pair in pairs where !oldTaken.contains(pair.old) && newTaken[pair.new] == nil {
            oldTaken.insert(pair.old)
            newTaken[pair.new] = activeA[pair.old].id
        }
        var touches: [Touch] = []
        for (i, old) in activeA.enumerated() where !oldTaken.contains(i) {
            touches.append(touch(old.id, old.x, old.y, .ended, t))
        }
        var active: [(id: Int, x: Int32, y: Int32)] = []
        for (j, new) in next.enumerated() {
            if let id = newTaken[j] {
                touches.append(touch(id, new.x, new.y, .moved, t))
                active.append((id, new.x, new.y))
            } else {
                let id = newID()
                touches.append(touch(id, new.x, new.y, .began, t))
                active.append((id, new.x, new.y))
            }
        }
        activeA = active
        return touches
    }

    /// Cancels every contact (events were dropped, or the device went away): returns the
    /// frame that says so, nil if nothing was down. Fingers still down when events resume
    /// begin again as new contacts.
    public mutating func cancelAll(at t: Double) -> TouchFrame? {
        var touches: [Touch] = []
        switch touchProtocol {
        case .multitouchB:
            var all = slots
            Self.forEachSlot(&all) { s in
                if let cancelled = takeEnding(&s, .cancelled, t) { touches.append(cancelled) }
                if let id = s.contact, let x = s.x, let y = s.y {
                    touches.append(touch(id, x, y, .cancelled, t))
                    s.restart = true
                }
                s.contact = nil
            }
            slots = all
        case .multitouchA:
            touches = activeA.map { touch($0.id, $0.x, $0.y, .cancelled, t) }
            activeA = []
            reported.removeAll()
            building = (nil, nil)
            sawMTReport = false
        case .singleTouch:
            if let id = stContact, let x = stX, let y = stY { touches.append(touch(id, x, y, .cancelled, t)) }
            stContact = nil
        }
        return touches.isEmpty ? nil : TouchFrame(timestamp: t, touches: smoothed(touches))
    }

    /// The touches with their positions through each contact's filter (`mapping.filter`): a
    /// contact's filter starts at its first position and goes when it lifts or is cancelled.
    private mutating func smoothed(_ touches: [Touch]) -> [Touch] {
        guard case .oneEuro(let parameters) = mapping.filter else {
            filters.removeAll()
            return touches
        }
        return touches.map { touch in
            var filter = touch.phase == .began ? OneEuroFilter(parameters) : filters[touch.id] ?? OneEuroFilter(parameters)
            let position = filter.filter(touch.position, at: touch.timestamp)
            filters[touch.id] = touch.phase == .ended || touch.phase == .cancelled ? nil : filter
            return Touch(id: touch.id, position: position, phase: touch.phase, timestamp: touch.timestamp)
        }
    }
}
