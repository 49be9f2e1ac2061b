import PanelDisplay
import PanelUI

/// What a ``Stage`` shows and retains: an app's views (``AppViews``) or the kiosk program's
/// configured list. The stage puts it on (`attach`) and takes it off (`detach`), asks it at
/// every entry what is due (`tick`, `nextWakeUp`) and what it adds to the status, tells it of
/// frames and new sizes, and hands it a reload's host keys (`reconfigure`). The stage names no
/// kind of content: whatever an app or the program puts on it is one of these.
@MainActor
public protocol StageContent: AnyObject {
    /// Puts the content's views on the stage's scene and takes what it needs from the stage
    /// (its executor, its last-updated store, the renderer's image supplier).
    func attach(to stage: Stage) throws
    /// Takes the content off: what it holds of the stage is let go, and work still under way
    /// (an answer, a picture) finds nobody when it comes back. The stage then removes the
    /// root view's subviews, the animations and the dispatcher's hold.
    func detach(from stage: Stage)
    /// The host started (the first page's load).
    func start()
    /// When the content needs the loop next for its own timers (an automatic refresh),
    /// seconds of the clock; nil: none (its animations are the animator's).
    var nextWakeUp: Double? { get }
    /// At the end of every entry, before a frame is drawn: what is due now runs.
    func tick(at now: Double)
    /// A reload's host keys, after the stage took them (the renderer's limits, the language,
    /// the state directory): true when the content stands as it is, false when its owner must
    /// build it anew (a list laid out in another language).
    func reconfigure(_ configuration: Configuration) -> Bool
    /// Its part of the status: what shows, and what STATUS says after it.
    var contentStatus: ContentStatus { get }
    /// A frame was drawn (what it shows is what the content holds now).
    func frameDrawn()
    /// A frame reached the glass.
    func framePresented(_ timing: FrameTiming)
    /// The screen took a new size, points; the views followed their masks already.
    func resized(to size: Size)
    /// The system clock was set: the calendar moved `seconds` (the clock's epoch already
    /// follows). Times taken on the old calendar in this run move with it.
    func calendarStepped(by seconds: Double)
}

extension StageContent {
    /// Nothing to load.
    public func start() {}
    /// No timers of its own.
    public var nextWakeUp: Double? { nil }
    /// Nothing due.
    public func tick(at now: Double) {}
    /// Stands as it is.
    public func reconfigure(_ configuration: Configuration) -> Bool { true }
    /// Nothing drawn is recorded.
    public func frameDrawn() {}
    /// Nothing presented is recorded.
    public func framePresented(_ timing: FrameTiming) {}
    /// The masks did it all.
    public func resized(to size: Size) {}
    /// No times of its own.
    public func calendarStepped(by seconds: Double) {}
}

/// A content's part of the status (``Stage/status(display:touchscreens:started:uptime:)``).
public struct ContentStatus: Sendable, Equatable {
    /// What shows, as STATUS says it after "showing": "20 items", "the panel".
    public var showing: String
    /// Said after it while the panel shows, each after "; " ("broker: connection lost").
    public var notes: [String]

    /// A status part showing `showing`, with `notes`.
    public init(showing: String, notes: [String] = []) { (self.showing, self.notes) = (showing, notes) }
}

extension Stage {
    /// The system clock was set (``KioskHost``'s entry saw the calendar move `seconds`): the
    /// content moves the times it took in this run.
    public func calendarStepped(by seconds: Double) { content?.calendarStepped(by: seconds) }
}
