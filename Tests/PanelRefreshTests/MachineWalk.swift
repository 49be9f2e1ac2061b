import Foundation
@testable import PanelRefresh

/// Every state a machine can reach from idle under a fixed alphabet of events, and every
/// step taken on the way (breadth first; nodes compared with the refresh counter left out,
/// which only numbers refreshes). The environment is modelled too: until a frame has been
/// presented (`displayed`) there are no touches, so the user's events wait for it.
struct MachineWalk {
    struct Node: Hashable {
        var machine: AnyMachine
        var presented: Bool
        var state: RefreshState { machine.state }
    }

    /// The machines under one Equatable roof, so nodes can be hashed and compared.
    enum AnyMachine: Hashable {
        case pull(PullMachine)
        case auto(AutoFooterMachine)

        var state: RefreshState {
            switch self {
            case .pull(let m): return m.state
            case .auto(let m): return m.state
            }
        }

        mutating func handle(_ event: RefreshEvent, presented: Bool) -> RefreshStep {
            switch self {
            case .pull(var m):
                m.settings.onPresentedScreen = presented
                let step = m.handle(event)
                self = .pull(m)
                return step
            case .auto(var m):
                m.settings.onPresentedScreen = presented
                let step = m.handle(event)
                self = .auto(m)
                return step
            }
        }

        /// The node's identity: without the refresh counter.
        var key: AnyMachine {
            switch self {
            case .pull(var m): m.core.serial = 0; return .pull(m)
            case .auto(var m): m.core.serial = 0; return .auto(m)
            }
        }
    }

    let name: String
    let steps: [(Node, RefreshEvent, RefreshStep, Node)]

    /// The app's calls and the completions: possible before any frame.
    static let calls: [RefreshEvent] = [
        .beginRefreshing, .endRefreshing(.success), .endRefreshing(.failure(nil)), .endRefreshingWithNoMoreData,
        .resetNoMoreData, .openTwoLevel, .closeTwoLevel, .displayed, .openFinished, .closeFinished,
        .timerFired(.minimumRefreshing), .timerFired(.resultDwell), .contentSizeChanged, .headerBeganRefreshing, .headerRefreshSucceeded, .hidden,
    ]

    /// The user's events: only once a frame is on the glass. Revealed distances below the
    /// trigger (54), past it, past the second floor's threshold (135), and pushes on the
    /// open floor (its open reveal is 534: 500 is a short push, 400 a long one).
    static let user: [RefreshEvent] = {
        var events: [RefreshEvent] = [.panBegan, .panEnded, .panCancelled, .tapped,
                                      .reachedEnd(blocked: false), .reachedEnd(blocked: true),
                                      .releasedAtEnd(blocked: false), .releasedAtEnd(blocked: true)]
        for revealed in [-10.0, 30, 80, 200, 400, 500] {
            for dragging in [true, false] {
                for blocked in [false, true] {
                    events.append(.scrolled(PullSample(revealed: revealed, dragging: dragging, blocked: blocked)))
                }
            }
        }
        return events
    }()

    init(name: String, start: AnyMachine) {
        self.name = name
        var seen: Set<Node> = []
        var queue = [Node(machine: start, presented: false)]
        var steps: [(Node, RefreshEvent, RefreshStep, Node)] = []
        seen.insert(Node(machine: start.key, presented: false))
        while !queue.isEmpty {
            let node = queue.removeFirst()
            for event in Self.calls + (node.presented ? Self.user : []) {
                var next = node
                let step = next.machine.handle(event, presented: node.presented)
                if event == .displayed { next.presented = true }
                steps.append((node, event, step, next))
                let key = Node(machine: next.machine.key, presented: next.presented)
                if seen.insert(key).inserted { queue.append(next) }
            }
        }
        self.steps = steps
    }

    /// Header (with and without a second floor), back footer, trailer: each with and without
    /// a result dwell and a minimum time.
    static let pull: [MachineWalk] = {
        var walks: [MachineWalk] = []
        for (dwell, minimum) in [(0.0, 0.0), (1, 0.3)] {
            for role in [PullMachine.Role.header, .backFooter, .trailer] {
                var settings = RefreshSettings(extent: 54, triggerDistance: 54)
                settings.finishedDisplayDuration = dwell
                settings.minimumRefreshingDuration = minimum
                settings.keepsFailure = role == .backFooter
                if role == .header {
                    settings.twoLevelTriggerDistance = 135
                    settings.twoLevelOpenReveal = 534
                }
                walks.append(MachineWalk(name: "\(role) dwell \(dwell) minimum \(minimum)",
                                         start: .pull(PullMachine(role: role, settings: settings))))
            }
        }
        return walks
    }()

    static let auto: [MachineWalk] = [(0.0, 0.0), (1, 0.3)].map { dwell, minimum in
        var settings = RefreshSettings(extent: 44, triggerDistance: 44)
        settings.finishedDisplayDuration = dwell
        settings.minimumRefreshingDuration = minimum
        settings.keepsFailure = true
        return MachineWalk(name: "auto footer dwell \(dwell) minimum \(minimum)",
                           start: .auto(AutoFooterMachine(settings: settings)))
    }

    static var all: [MachineWalk] { pull + auto }
}

extension PullMachine: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(core.state)
        hasher.combine(lastRevealed)
    }
}

extension AutoFooterMachine: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(core.state)
        hasher.combine(triggersLeft)
    }
}

/// The transitions of a mermaid `stateDiagram-v2` block that follows a heading.
enum MermaidDiagram {
    struct Edge: Hashable, Comparable {
        let from: String
        let to: String
        var text: String { "\(from) --> \(to)" }
        static func < (a: Edge, b: Edge) -> Bool { a.text < b.text }
    }

    /// The edges of the first diagram after the heading `### title`; nil if there is none.
    static func transitions(in markdown: String, under title: String) -> Set<Edge>? {
        guard let heading = markdown.range(of: "### \(title)\n") else { return nil }
        let rest = markdown[heading.upperBound...]
        guard let open = rest.range(of: "```mermaid\n"),
              let close = rest[open.upperBound...].range(of: "```") else { return nil }
        var edges = Set<Edge>()
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)[0].components(separatedBy: "-->")
            guard parts.count == 2 else { continue }
            let from = parts[0].trimmingCharacters(in: .whitespaces)
            let to = parts[1].trimmingCharacters(in: .whitespaces)
            guard from != "[*]" else { continue }
            edges.insert(Edge(from: from, to: to))
        }
        return edges
    }
}

enum RepositoryFile {
    static func path(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative).path
    }
}
