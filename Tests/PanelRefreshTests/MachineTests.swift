import Testing
@testable import PanelRefresh

/// The machines alone: no scene, no scroll view, no clock. Events in, actions out.
@Suite("State machines")
struct MachineTests {
    static let trigger = 54.0

    static func header(twoLevel: Bool = false, minimum: Double = 0, dwell: Double = 0,
                       presented: Bool = true) -> PullMachine {
        var settings = RefreshSettings(extent: 54, triggerDistance: trigger)
        settings.minimumRefreshingDuration = minimum
        settings.finishedDisplayDuration = dwell
        settings.onPresentedScreen = presented
        if twoLevel {
            settings.twoLevelTriggerDistance = 135
            settings.twoLevelOpenReveal = 534
            settings.twoLevelCloseDistance = 60
        }
        return PullMachine(role: .header, settings: settings)
    }

    static func backFooter(dwell: Double = 0) -> PullMachine {
        var settings = RefreshSettings(extent: 44, triggerDistance: 44)
        settings.keepsFailure = true
        settings.minimumRefreshingDuration = 0
        settings.finishedDisplayDuration = dwell
        return PullMachine(role: .backFooter, settings: settings)
    }

    static func autoFooter(times: Int = 1, minimum: Double = 0) -> AutoFooterMachine {
        var settings = RefreshSettings(extent: 44, triggerDistance: 44)
        settings.keepsFailure = true
        settings.minimumRefreshingDuration = minimum
        settings.autoTriggerTimes = times
        return AutoFooterMachine(settings: settings)
    }

    static func drag(_ revealed: Double, blocked: Bool = false) -> RefreshEvent {
        .scrolled(PullSample(revealed: revealed, dragging: true, blocked: blocked))
    }

    // MARK: The pull

    @Test("idle ⇄ pulling across the trigger distance while dragging; a cancelled pan goes back to idle")
    func pullAndBack() {
        var m = Self.header()
        #expect(m.handle(Self.drag(30)).actions == [.setPullingPercent(30.0 / 54)])
        #expect(m.state == .idle)
        #expect(m.handle(Self.drag(60)).actions == [.setPullingPercent(60.0 / 54), .enter(.pulling, from: .idle),
                                                    .notifyState(from: .idle, to: .pulling)])
        #expect(m.handle(Self.drag(50)).actions == [.setPullingPercent(50.0 / 54), .enter(.idle, from: .pulling),
                                                    .notifyState(from: .pulling, to: .idle)])
        _ = m.handle(Self.drag(60))
        #expect(m.handle(.panCancelled).actions == [.enter(.idle, from: .pulling), .notifyState(from: .pulling, to: .idle)])
        #expect(!m.handle(.panCancelled).accepted, "nothing to cancel")
    }

    @Test("pulling → refreshing on release: fade in, open, and the action only when the open arrived")
    func release() {
        var m = Self.header()
        _ = m.handle(Self.drag(60))
        let step = m.handle(.panEnded)
        #expect(step.actions == [.fadeIn, .setPullingPercent(1), .enter(.refreshing, from: .pulling),
                                 .tellFooter(.headerBeganRefreshing), .open, .notifyState(from: .pulling, to: .refreshing)])
        #expect(m.state == .refreshing)
        #expect(m.handle(.openFinished).actions == [.runRefreshingAction(serial: 1)])
        #expect(!m.handle(.openFinished).accepted, "a second completion is stale")
        #expect(m.handle(.scrolled(PullSample(revealed: 20, dragging: false))).actions == [.followOffset],
                "the open header's inset follows the offset (T3)")
    }

    @Test("a fling's tick past the trigger after the finger lifted also starts the refresh")
    func flingTick() {
        var m = Self.header()
        _ = m.handle(Self.drag(60))
        let step = m.handle(.scrolled(PullSample(revealed: 70, dragging: false)))
        #expect(step.actions.contains(.open))
        #expect(m.state == .refreshing)
    }

    @Test("an end closes from refreshing; the close's completion resets the percent and runs the end completion")
    func endCloses() {
        var m = Self.header()
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.openFinished)
        let end = m.handle(.endRefreshing(.success))
        #expect(end.actions == [.stampLastUpdated, .tellFooter(.headerRefreshSucceeded), .enter(.idle, from: .refreshing), .close,
                                .notifyState(from: .refreshing, to: .idle)])
        #expect(m.handle(.closeFinished).actions == [.setPullingPercent(0), .runEndCompletion])
        #expect(!m.handle(.closeFinished).accepted)
        #expect(!m.handle(.endRefreshing(.success)).accepted, "end outside a refresh is ignored")
    }

    @Test("an end while opening wins: the late open completion runs no action (T4)")
    func endWhileOpening() {
        var m = Self.header()
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.endRefreshing(.success))
        #expect(m.state == .idle)
        #expect(!m.handle(.openFinished).accepted)
    }

    @Test("a failed refresh stamps nothing and resets nothing; an end before it opened resets but does not stamp")
    func headerEndEffects() {
        var m = Self.header()
        _ = m.handle(.beginRefreshing)
        let failed = m.handle(.endRefreshing(.failure("timeout")))
        #expect(!failed.actions.contains(.stampLastUpdated))
        #expect(!failed.actions.contains(.tellFooter(.headerRefreshSucceeded)))
        #expect(m.state == .idle, "a header does not keep a failure")
        #expect(m.core.lastResult == .failure("timeout"))

        var w = Self.header(presented: false)
        #expect(w.handle(.beginRefreshing).actions == [.fadeIn, .setPullingPercent(1), .enter(.willRefresh, from: .idle),
                                                       .tellFooter(.headerBeganRefreshing), .notifyState(from: .idle, to: .willRefresh)])
        let early = w.handle(.endRefreshing(.success))
        #expect(early.actions == [.tellFooter(.headerRefreshSucceeded), .enter(.idle, from: .willRefresh), .setPullingPercent(0),
                                  .notifyState(from: .willRefresh, to: .idle), .runEndCompletion])
    }

    @Test("willRefresh waits for the first frame, then opens (T8)")
    func willRefresh() {
        var m = Self.header(presented: false)
        _ = m.handle(.beginRefreshing)
        #expect(m.state == .willRefresh)
        #expect(!m.handle(.beginRefreshing).accepted)
        let step = m.handle(.displayed)
        #expect(step.actions == [.enter(.refreshing, from: .willRefresh), .open,
                                 .notifyState(from: .willRefresh, to: .refreshing)],
                "the footer generation was noted when the refresh was asked for, not again")
        #expect(!m.handle(.displayed).accepted)
    }

    @Test("begin is ignored while refreshing, finished, in noMoreData and on the second floor")
    func beginIgnored() {
        var m = Self.backFooter(dwell: 1)
        _ = m.handle(.beginRefreshing)
        #expect(!m.handle(.beginRefreshing).accepted)
        _ = m.handle(.endRefreshing(.success))
        #expect(m.state == .finished)
        #expect(!m.handle(.beginRefreshing).accepted)
        _ = m.handle(.endRefreshingWithNoMoreData)
        _ = m.handle(.timerFired(.resultDwell))
        #expect(m.state == .noMoreData)
        #expect(!m.handle(.beginRefreshing).accepted)
        #expect(!m.handle(.endRefreshingWithNoMoreData).accepted)
        #expect(m.handle(.resetNoMoreData).accepted)
        #expect(m.state == .idle)
        #expect(!m.handle(.resetNoMoreData).accepted)

        var h = Self.header(twoLevel: true)
        _ = h.handle(.openTwoLevel)
        #expect(!h.handle(.beginRefreshing).accepted)
    }

    // MARK: Results

    @Test("finished shows the result for its dwell, then closes; no more data asked for meanwhile is where it settles")
    func finishedDwell() {
        var m = Self.backFooter(dwell: 1)
        _ = m.handle(.beginRefreshing)
        let end = m.handle(.endRefreshing(.success))
        #expect(end.actions == [.enter(.finished, from: .refreshing), .startTimer(.resultDwell, seconds: 1),
                                .notifyState(from: .refreshing, to: .finished)])
        #expect(m.handle(.endRefreshingWithNoMoreData).accepted)
        #expect(m.state == .finished)
        let settle = m.handle(.timerFired(.resultDwell))
        #expect(settle.actions == [.cancelTimer(.resultDwell), .enter(.noMoreData, from: .finished), .close,
                                   .notifyState(from: .finished, to: .noMoreData)])
        #expect(!m.handle(.timerFired(.resultDwell)).accepted, "a stale dwell")
    }

    @Test("footers keep a failure: refreshing → failed, finished → failed; failed → pulling, refreshing, noMoreData")
    func failedState() {
        var m = Self.backFooter()
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.endRefreshing(.failure(nil)))
        #expect(m.state == .failed)
        #expect(m.handle(Self.drag(50)).actions.contains(.enter(.pulling, from: .failed)))
        _ = m.handle(.panEnded)
        #expect(m.state == .refreshing)

        var d = Self.backFooter(dwell: 0.5)
        _ = d.handle(.beginRefreshing)
        _ = d.handle(.endRefreshing(.failure(nil)))
        #expect(d.state == .finished)
        _ = d.handle(.timerFired(.resultDwell))
        #expect(d.state == .failed)
        #expect(d.handle(.beginRefreshing).accepted)
        _ = d.handle(.endRefreshing(.failure(nil)))
        _ = d.handle(.timerFired(.resultDwell))
        #expect(d.handle(.endRefreshingWithNoMoreData).actions == [.enter(.noMoreData, from: .failed),
                                                                  .notifyState(from: .failed, to: .noMoreData)])
    }

    @Test("a back footer does not arm while the header refreshes, unless it is already pulling")
    func blocked() {
        var m = Self.backFooter()
        #expect(m.handle(Self.drag(80, blocked: true)).actions.isEmpty)
        #expect(m.state == .idle)
        _ = m.handle(Self.drag(80))
        #expect(m.state == .pulling)
        _ = m.handle(Self.drag(80, blocked: true))
        #expect(m.state == .pulling)
    }

    // MARK: Minimum refreshing time

    @Test("an end before the minimum time is accepted at once and takes effect when it is up")
    func minimumTime() {
        var m = Self.header(minimum: 0.3)
        let begin = m.handle(.beginRefreshing)
        #expect(begin.actions.contains(.startTimer(.minimumRefreshing, seconds: 0.3)))
        _ = m.handle(.openFinished)
        let end = m.handle(.endRefreshing(.success))
        #expect(end.accepted)
        #expect(end.actions == [.stampLastUpdated, .tellFooter(.headerRefreshSucceeded)], "no state change yet")
        #expect(m.state == .refreshing && m.core.pendingEnd == .success)
        #expect(!m.handle(.endRefreshing(.failure(nil))).accepted, "a second end is ignored")
        let up = m.handle(.timerFired(.minimumRefreshing))
        #expect(up.actions == [.enter(.idle, from: .refreshing), .close, .notifyState(from: .refreshing, to: .idle)])
        #expect(!m.handle(.timerFired(.minimumRefreshing)).accepted)
    }

    @Test("an end after the minimum time takes effect at once; leaving refreshing early cancels the timer")
    func minimumTimeOver() {
        var m = Self.header(minimum: 0.3)
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.timerFired(.minimumRefreshing))
        #expect(m.handle(.endRefreshing(.success)).actions.contains(.enter(.idle, from: .refreshing)))

        var f = Self.autoFooter(minimum: 0.3)
        _ = f.handle(.beginRefreshing)
        let hidden = f.handle(.hidden)
        #expect(hidden.actions.first == .cancelTimer(.minimumRefreshing))
        #expect(f.state == .idle)
    }

    @Test("during a held end: the open's completion runs no action, a begin wins over the end, no-more-data is kept")
    func heldEnd() {
        var m = Self.header(minimum: 0.3)
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.endRefreshing(.success))
        #expect(m.handle(.openFinished).actions.isEmpty, "the end came while opening: that refresh's action never runs")
        let again = m.handle(.beginRefreshing)
        #expect(again.accepted && again.actions == [.runRefreshingAction(serial: 2)], "later call wins, already open")
        #expect(m.core.pendingEnd == nil)
        #expect(m.handle(.timerFired(.minimumRefreshing)).actions.isEmpty, "the timer ends nothing now")
        #expect(m.state == .refreshing)

        var f = Self.autoFooter(minimum: 0.3)
        _ = f.handle(.beginRefreshing)
        _ = f.handle(.endRefreshing(.success))
        #expect(f.handle(.endRefreshingWithNoMoreData).accepted)
        #expect(!f.handle(.beginRefreshing).accepted, "no-more-data said: the begin cannot win")
        _ = f.handle(.timerFired(.minimumRefreshing))
        #expect(f.state == .noMoreData)
    }

    // MARK: The second floor

    @Test("pulling ⇄ releaseToTwoLevel across the second threshold; release opens; a push up past 60 closes")
    func twoLevel() {
        var m = Self.header(twoLevel: true)
        _ = m.handle(Self.drag(100))
        #expect(m.state == .pulling)
        #expect(m.handle(Self.drag(140)).actions == [.setPullingPercent(140.0 / 54), .enter(.releaseToTwoLevel, from: .pulling),
                                                     .notifyState(from: .pulling, to: .releaseToTwoLevel)])
        _ = m.handle(Self.drag(120))
        #expect(m.state == .pulling)
        _ = m.handle(Self.drag(140))
        #expect(m.handle(.panEnded).actions == [.enter(.twoLevel, from: .releaseToTwoLevel), .openTwoLevel,
                                                .notifyState(from: .releaseToTwoLevel, to: .twoLevel),
                                                .notifyTwoLevel(open: true)])
        #expect(m.handle(.scrolled(PullSample(revealed: 500, dragging: true))).actions.isEmpty)
        #expect(m.handle(.panEnded).actions == [.settleTwoLevel], "pushed 34 < 60: back open")
        _ = m.handle(.scrolled(PullSample(revealed: 460, dragging: true)))
        #expect(m.handle(.panEnded).actions == [.enter(.idle, from: .twoLevel), .close,
                                                .notifyState(from: .twoLevel, to: .idle), .notifyTwoLevel(open: false)])
    }

    @Test("the second floor by calls; a cancelled pan past the floor goes back to idle; without a floor nothing opens")
    func twoLevelCalls() {
        var m = Self.header(twoLevel: true)
        #expect(m.handle(.openTwoLevel).accepted)
        #expect(!m.handle(.openTwoLevel).accepted)
        #expect(m.handle(.closeTwoLevel).accepted)
        #expect(!m.handle(.closeTwoLevel).accepted)
        _ = m.handle(Self.drag(140))
        _ = m.handle(Self.drag(140))
        #expect(m.state == .releaseToTwoLevel)
        _ = m.handle(.panCancelled)
        #expect(m.state == .idle)

        var plain = Self.header()
        #expect(!plain.handle(.openTwoLevel).accepted)
        _ = plain.handle(Self.drag(300))
        #expect(plain.state == .pulling, "no second threshold without a floor")
    }

    // MARK: Auto footer

    @Test("auto footer: automatic loads count per drag, re-armed by a drag or new content; taps do not count")
    func autoTriggers() {
        var m = Self.autoFooter()
        let load = m.handle(.reachedEnd(blocked: false))
        #expect(load.actions == [.fadeIn, .setPullingPercent(1), .enter(.refreshing, from: .idle),
                                 .notifyState(from: .idle, to: .refreshing), .runRefreshingAction(serial: 1)])
        _ = m.handle(.endRefreshing(.success))
        #expect(!m.handle(.reachedEnd(blocked: false)).accepted, "once per drag (T1)")
        #expect(!m.handle(.releasedAtEnd(blocked: false)).accepted)
        #expect(m.handle(.tapped).accepted, "a tap loads whatever the count")
        _ = m.handle(.endRefreshing(.success))
        _ = m.handle(.contentSizeChanged)
        #expect(!m.handle(.reachedEnd(blocked: true)).accepted, "not while the header refreshes (T1)")
        #expect(m.handle(.reachedEnd(blocked: false)).accepted)
        _ = m.handle(.endRefreshing(.success))
        _ = m.handle(.panBegan)
        #expect(m.handle(.releasedAtEnd(blocked: false)).accepted)

        var unlimited = Self.autoFooter(times: -1)
        for _ in 0..<5 {
            #expect(unlimited.handle(.reachedEnd(blocked: false)).accepted)
            _ = unlimited.handle(.endRefreshing(.success))
        }
        var off = Self.autoFooter()
        off.settings.automaticallyRefresh = false
        #expect(!off.handle(.reachedEnd(blocked: false)).accepted)
    }

    @Test("auto footer: failed until a new drag (back to idle) or a tap (loads); hidden ends a load")
    func autoFailed() {
        var m = Self.autoFooter(times: -1)
        _ = m.handle(.beginRefreshing)
        #expect(m.handle(.endRefreshing(.failure(nil))).actions == [.enter(.failed, from: .refreshing), .setPullingPercent(0),
                                                                     .notifyState(from: .refreshing, to: .failed), .runEndCompletion])
        #expect(!m.handle(.reachedEnd(blocked: false)).accepted, "no automatic retry")
        _ = m.handle(.panBegan)
        #expect(m.state == .idle)
        _ = m.handle(.beginRefreshing)
        _ = m.handle(.endRefreshing(.failure(nil)))
        #expect(m.handle(.tapped).actions.contains(.enter(.refreshing, from: .failed)))
        #expect(m.handle(.hidden).actions.contains(.enter(.idle, from: .refreshing)))
        #expect(!m.handle(.hidden).accepted)
    }

    // MARK: Every step, every state

    @Test("the header's refresh reaches the footer's machine as events: a no-more-data said before it began is reset by its success, one said during it (or said again) is not")
    func headerFooterEvents() {
        var footer = Self.autoFooter()
        _ = footer.handle(.endRefreshingWithNoMoreData)
        #expect(footer.handle(.headerRefreshSucceeded).accepted == false, "no header refresh began since")
        #expect(footer.handle(.headerBeganRefreshing).accepted)
        #expect(footer.core.phase == .noMoreData(setBeforeHeaderRefresh: true, closing: false))
        let reset = footer.handle(.headerRefreshSucceeded)
        #expect(reset.accepted && footer.state == .idle && reset.actions.contains(.enter(.idle, from: .noMoreData)))

        var again = Self.autoFooter()
        _ = again.handle(.endRefreshingWithNoMoreData)
        _ = again.handle(.headerBeganRefreshing)
        #expect(again.handle(.endRefreshingWithNoMoreData).accepted == false, "already there")
        #expect(again.handle(.headerRefreshSucceeded).accepted == false && again.state == .noMoreData, "said again during the refresh")

        var header = Self.header()
        #expect(header.handle(.headerBeganRefreshing).accepted == false, "a header has no end of data")
        let begin = header.handle(.beginRefreshing)
        #expect(begin.actions.contains(.tellFooter(.headerBeganRefreshing)))
        #expect(header.core.phase.refreshing?.opening == true, "the open is under way: the refreshing state knows it")
    }

    @Test("settings reach a machine as an event; a new autoTriggerTimes re-arms the auto footer")
    func configure() {
        var footer = Self.autoFooter(times: 1)
        _ = footer.handle(.reachedEnd(blocked: false))
        _ = footer.handle(.endRefreshing(.success))
        #expect(footer.handle(.reachedEnd(blocked: false)).accepted == false, "one automatic load per drag")
        var settings = footer.settings
        settings.autoTriggerTimes = 2
        #expect(footer.handle(.configure(settings)).accepted)
        #expect(footer.settings.autoTriggerTimes == 2)
        #expect(footer.handle(.reachedEnd(blocked: false)).accepted, "re-armed by the new setting")
    }

    @Test("in every reachable state, for every event: callouts come last, enter actions match the change, stale completions do nothing")
    func invariants() {
        for walk in MachineWalk.all {
            for (node, event, step, next) in walk.steps {
                let actions = step.actions
                if let firstCallout = actions.firstIndex(where: \.isCallout) {
                    let calloutsLast = actions[firstCallout...].allSatisfy { $0.isCallout }
                    #expect(calloutsLast, "\(walk.name): \(node.state) + \(event)")
                }
                let enters = actions.compactMap { action -> (RefreshState, RefreshState)? in
                    if case .enter(let to, let from) = action { return (from, to) } else { return nil }
                }
                if node.state != next.state {
                    #expect(enters.first?.0 == node.state && enters.last?.1 == next.state, "\(walk.name): \(node.state) + \(event)")
                } else {
                    #expect(enters.isEmpty, "\(walk.name): \(node.state) + \(event) entered without a change")
                }
                if !step.accepted {
                    #expect(next.state == node.state, "\(walk.name): a refused \(event) changed the state")
                }
            }
        }
    }

    @Test("docs/state-machines.md draws exactly the transitions the machines make")
    func diagramsMatch() throws {
        let text = try String(contentsOfFile: RepositoryFile.path("docs/state-machines.md"), encoding: .utf8)
        for (title, walks) in [("Pull components", MachineWalk.pull), ("Auto footer", MachineWalk.auto)] {
            let drawn = try #require(MermaidDiagram.transitions(in: text, under: title))
            var made = Set<MermaidDiagram.Edge>()
            for walk in walks { for (node, _, _, next) in walk.steps where node.state != next.state {
                made.insert(.init(from: node.state.rawValue, to: next.state.rawValue))
            } }
            #expect(made.subtracting(drawn).sorted().map(\.text) == [], "\(title): made but not drawn")
            #expect(drawn.subtracting(made).sorted().map(\.text) == [], "\(title): drawn but never made")
        }
    }
}
