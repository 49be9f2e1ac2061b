import Glibc
import PanelHost

/// The `replay --trace` lines: one JSON object per line, with exactly the fields the program
/// documents, in that order. `t` is seconds from the first input event.
public enum TraceEvent: Sendable {
    /// A pan event of `phase` at (`x`, `y`) with velocity (`vx`, `vy`) and `touches` fingers.
    case pan(t: Double, phase: String, x: Double, y: Double, vx: Double, vy: Double, touches: Int)
    /// A component went from one state to another.
    case state(t: Double, component: String, from: RefreshState, to: RefreshState)
    /// A component's refreshing action ran (a load began).
    case refresh(t: Double, component: String)
    /// A frame on the display. `renderMs`: how long it took to draw and copy, milliseconds of
    /// the machine's clock, only with `--timings` (a measurement, not behaviour: without it two
    /// traces of one recording are the same bytes).
    case frame(t: Double, offsetX: Double, offsetY: Double, rows: Int, renderMs: Double? = nil)
    /// A data source failed with `message`.
    case error(t: Double, message: String)
    /// A tap reached the row at `row` (0 is the first item).
    case select(t: Double, row: Int)
    /// A row shows pressed (`down`) or no longer does.
    case press(t: Double, row: Int, down: Bool)
    /// A page opened over the list (`page`: "detail" or "second-floor"; `row` for a detail page).
    case open(t: Double, page: String, row: Int?)
    /// The page over the list closed; `how`: "back" (its control), "swipe" (an edge swipe),
    /// "push" (the second floor pushed up) or "call" (closed by the program).
    case close(t: Double, page: String, how: String)
    /// A row's tap command ran for `row` and ended: `status` (or the reason it was ended).
    case command(t: Double, row: Int, result: String)
    /// The retry button of a list that could not load (or is empty) was tapped.
    case retry(t: Double)
    /// A page over the list (the detail page) is drawn `x` points from where it rests open:
    /// written with a frame while it slides in or out or follows a back swipe.
    case page(t: Double, x: Double)

    /// A JSON string literal.
    static func string(_ s: String) -> String { "\"" + TextFormat.escaped(s, json: true) + "\"" }

    /// The trace line: one JSON object with the fields of its kind, in order.
    public var json: String {
        let n = TextFormat.number, q = Self.string
        switch self {
        case let .pan(t, phase, x, y, vx, vy, touches):
            return "{\"t\":\(n(t)),\"kind\":\"pan\",\"phase\":\(q(phase)),\"x\":\(n(x)),\"y\":\(n(y)),\"vx\":\(n(vx)),\"vy\":\(n(vy)),\"touches\":\(touches)}"
        case let .state(t, component, from, to):
            return "{\"t\":\(n(t)),\"kind\":\"state\",\"component\":\(q(component)),\"from\":\(q(from.rawValue)),\"to\":\(q(to.rawValue))}"
        case let .refresh(t, component):
            return "{\"t\":\(n(t)),\"kind\":\"refresh\",\"component\":\(q(component))}"
        case let .frame(t, x, y, rows, render):
            let timing = render.map { ",\"renderMs\":\(n($0))" } ?? ""
            return "{\"t\":\(n(t)),\"kind\":\"frame\",\"offsetX\":\(n(x)),\"offsetY\":\(n(y)),\"rows\":\(rows)\(timing)}"
        case let .error(t, message):
            return "{\"t\":\(n(t)),\"kind\":\"error\",\"message\":\(q(message))}"
        case let .press(t, row, down):
            return "{\"t\":\(n(t)),\"kind\":\"press\",\"row\":\(row),\"down\":\(down)}"
        case let .open(t, page, row):
            let which = row.map { ",\"row\":\($0)" } ?? ""
            return "{\"t\":\(n(t)),\"kind\":\"open\",\"page\":\(q(page))\(which)}"
        case let .close(t, page, how):
            return "{\"t\":\(n(t)),\"kind\":\"close\",\"page\":\(q(page)),\"how\":\(q(how))}"
        case let .command(t, row, result):
            return "{\"t\":\(n(t)),\"kind\":\"command\",\"row\":\(row),\"result\":\(q(result))}"
        case let .retry(t):
            return "{\"t\":\(n(t)),\"kind\":\"retry\"}"
        case let .select(t, row):
            return "{\"t\":\(n(t)),\"kind\":\"select\",\"row\":\(row)}"
        case let .page(t, x):
            return "{\"t\":\(n(t)),\"kind\":\"page\",\"x\":\(n(x))}"
        }
    }

    /// Seconds from the trace's origin.
    public var time: Double {
        switch self {
        case let .pan(t, _, _, _, _, _, _), let .state(t, _, _, _), let .refresh(t, _), let .frame(t, _, _, _, _),
             let .error(t, _), let .select(t, _), let .press(t, _, _), let .open(t, _, _), let .close(t, _, _),
             let .command(t, _, _), let .retry(t), let .page(t, _):
            return t
        }
    }

    /// The line's `kind`: pan, state, refresh, frame, error, select, press, open, close,
    /// command, retry or page.
    public var kind: String {
        switch self {
        case .pan: return "pan"
        case .state: return "state"
        case .refresh: return "refresh"
        case .frame: return "frame"
        case .error: return "error"
        case .select: return "select"
        case .press: return "press"
        case .open: return "open"
        case .close: return "close"
        case .command: return "command"
        case .retry: return "retry"
        case .page: return "page"
        }
    }
}

extension TraceEvent: Equatable {
    /// Behaviour only: a frame's render time is left out.
    public static func == (a: TraceEvent, b: TraceEvent) -> Bool {
        switch (a, b) {
        case let (.pan(t1, p1, x1, y1, vx1, vy1, n1), .pan(t2, p2, x2, y2, vx2, vy2, n2)):
            return t1 == t2 && p1 == p2 && x1 == x2 && y1 == y2 && vx1 == vx2 && vy1 == vy2 && n1 == n2
        case let (.state(t1, c1, f1, to1), .state(t2, c2, f2, to2)): return t1 == t2 && c1 == c2 && f1 == f2 && to1 == to2
        case let (.refresh(t1, c1), .refresh(t2, c2)): return t1 == t2 && c1 == c2
        case let (.frame(t1, x1, y1, r1, _), .frame(t2, x2, y2, r2, _)): return t1 == t2 && x1 == x2 && y1 == y2 && r1 == r2
        case let (.error(t1, m1), .error(t2, m2)): return t1 == t2 && m1 == m2
        case let (.select(t1, r1), .select(t2, r2)): return t1 == t2 && r1 == r2
        case let (.press(t1, r1, d1), .press(t2, r2, d2)): return t1 == t2 && r1 == r2 && d1 == d2
        case let (.open(t1, p1, r1), .open(t2, p2, r2)): return t1 == t2 && p1 == p2 && r1 == r2
        case let (.close(t1, p1, h1), .close(t2, p2, h2)): return t1 == t2 && p1 == p2 && h1 == h2
        case let (.command(t1, r1, s1), .command(t2, r2, s2)): return t1 == t2 && r1 == r2 && s1 == s2
        case let (.retry(t1), .retry(t2)): return t1 == t2
        case let (.page(t1, x1), .page(t2, x2)): return t1 == t2 && x1 == x2
        default: return false
        }
    }
}
