import PanelGestures
import PanelInput

/// What a desktop window reports that the kiosk uses, positions in window pixels (the glass's
/// coordinates: before the picture's turn is undone).
public enum WindowEvent: Sendable, Hashable {
    /// The left button went down.
    case press(x: Double, y: Double, at: Double)
    /// The mouse moved with the left button down.
    case drag(x: Double, y: Double, at: Double)
    /// The left button came up.
    case release(x: Double, y: Double, at: Double)
    /// A finger of the desktop's touchscreen; `x` and `y` are fractions (0...1) of the window.
    case finger(id: Int64, phase: TouchPhase, x: Double, y: Double, at: Double)
    /// The window lost the mouse and keyboard: what is held is cancelled, not lifted.
    case focusLost(at: Double)
}

/// Turns a window's mouse and finger events into the touch frames a touchscreen would give:
/// the mouse is one contact (id 0) while its left button is down, each finger another (ids
/// from 1), positions turned back from the glass to the picture as `TouchMapping` turns a
/// touchscreen's. Every frame lists every contact down, as an evdev frame does.
public struct WindowPointer: Sendable {
    /// The turn of the picture on the glass.
    public var rotation: Rotation
    /// The glass (the window) in pixels.
    public var glassWidth: Double
    /// Pixels down the glass.
    public var glassHeight: Double
    private var down: [Int: Point] = [:]
    private var fingers: [Int64: Int] = [:]
    private var nextFinger = 1

    /// A pointer for a `glassWidth`×`glassHeight` window showing the picture turned by `rotation`.
    public init(rotation: Rotation, glassWidth: Double, glassHeight: Double) {
        (self.rotation, self.glassWidth, self.glassHeight) = (rotation, glassWidth, glassHeight)
    }

    /// Where a glass position is in the picture (the inverse of the display's turn, as
    /// pixman's transform in `ScanoutTarget` maps glass pixels to picture pixels).
    public func picturePoint(x: Double, y: Double) -> Point {
        switch rotation {
        case .none: return Point(x: x, y: y)
        case .clockwise90: return Point(x: y, y: glassWidth - x)
        case .upsideDown: return Point(x: glassWidth - x, y: glassHeight - y)
        case .clockwise270: return Point(x: glassHeight - y, y: x)
        }
    }

    /// Whether a contact is down (the mouse's button or a finger).
    public var isDown: Bool { !down.isEmpty }

    /// The touch frames for `events`, in order, each stamped at its time plus `offset` (a
    /// window that stamps events with their age gives the present); events that change nothing
    /// give none (a release with no press, a finger that was never down).
    public mutating func frames(for events: [WindowEvent], shiftedBy offset: Double = 0) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for event in events {
            switch event {
            case let .press(x, y, time):
                // A second press without a release (a lost button-up): the old contact ends first.
                if down[0] != nil { frames.append(frame(id: 0, at: down[0] ?? .zero, phase: .cancelled, time: time + offset)) }
                frames.append(frame(id: 0, at: picturePoint(x: x, y: y), phase: .began, time: time + offset))
            case let .drag(x, y, time):
                guard down[0] != nil else { continue }
                frames.append(frame(id: 0, at: picturePoint(x: x, y: y), phase: .moved, time: time + offset))
            case let .release(x, y, time):
                guard down[0] != nil else { continue }
                frames.append(frame(id: 0, at: picturePoint(x: x, y: y), phase: .ended, time: time + offset))
            case let .finger(finger, phase, fx, fy, time):
                let position = picturePoint(x: fx * glassWidth, y: fy * glassHeight)
                if phase == .began {
                    if let old = fingers[finger], let at = down[old] { frames.append(frame(id: old, at: at, phase: .cancelled, time: time + offset)) }
                    fingers[finger] = nextFinger
                    nextFinger += 1
                }
                guard let id = fingers[finger] else { continue }
                if phase == .ended || phase == .cancelled { fingers[finger] = nil }
                frames.append(frame(id: id, at: position, phase: phase, time: time + offset))
            case let .focusLost(time):
                guard !down.isEmpty else { continue }
                let touches = down.sorted { $0.key < $1.key }.map { Touch(id: $0.key, position: $0.value, phase: .cancelled, timestamp: time + offset) }
                down = [:]
                fingers = [:]
                frames.append(TouchFrame(timestamp: time + offset, touches: touches))
            }
        }
        return frames
    }

    /// One frame: contact `id` in `phase` at `position`, the others down as they were.
    private mutating func frame(id: Int, at position: Point, phase: TouchPhase, time: Double) -> TouchFrame {
        var touches = down.filter { $0.key != id }.sorted { $0.key < $1.key }
            .map { Touch(id: $0.key, position: $0.value, phase: .moved, timestamp: time) }
        touches.append(Touch(id: id, position: position, phase: phase, timestamp: time))
        touches.sort { $0.id < $1.id }
        if phase == .ended || phase == .cancelled { down[id] = nil } else { down[id] = position }
        return TouchFrame(timestamp: time, touches: touches)
    }
}
