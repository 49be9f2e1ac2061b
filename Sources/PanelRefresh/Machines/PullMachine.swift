/// Pull past an edge and release (header, back footer, trailer): tracks the pull while the
/// finger is down, opens on release, closes after the end; the header may have a second floor.
///
/// States: idle, pulling, refreshing, willRefresh, finished, noMoreData (back footer,
/// trailer), failed (back footer, trailer), releaseToTwoLevel and twoLevel (header with a second
/// floor). docs/state-machines.md draws them.
public struct PullMachine: RefreshMachine, Equatable {
    /// Which component this machine drives: what it may do differs in small ways.
    public enum Role: Sendable, Equatable {
        /// Follows the offset while open (trap T3), stamps the last-updated time, resets the
        /// footer's no-more-data (trap T6), may have a second floor.
        case header
        /// Waits while the header refreshes (trap T1); may keep a failure.
        case backFooter
        /// Across the end of a horizontal list.
        case trailer
    }

    /// Which edge the machine pulls at.
    public let role: Role
    /// The state and what it waits for.
    public var core = RefreshCore()
    /// The trigger, the maximum drag and the second floor's distance (`.configure` changes them).
    public var settings: RefreshSettings
    /// The last revealed distance, points: the second floor's push is measured from it.
    var lastRevealed = 0.0

    /// A machine for `role` in idle, `extent` points deep and arming at that distance.
    public init(role: Role, extent: Double) {
        self.init(role: role, settings: RefreshSettings(extent: extent, triggerDistance: extent))
    }

    /// A machine for `role` in idle with `settings`.
    public init(role: Role, settings: RefreshSettings) { (self.role, self.settings) = (role, settings) }

    /// The pull's events (scrolls, release, the second floor); the rest as every machine.
    public mutating func handle(_ event: RefreshEvent) -> RefreshStep {
        var step = RefreshStep()
        switch event {
        case .endRefreshingWithNoMoreData, .resetNoMoreData, .headerBeganRefreshing, .headerRefreshSucceeded:
            // A header has no end of data; the back footer and the trailer do.
            guard role != .header else {
                step.accepted = false
                return step
            }
        case .scrolled(let sample):
            scrolled(sample, &step)
            return step
        case .panEnded:
            released(cancelled: false, &step)
            return step
        case .panCancelled:
            released(cancelled: true, &step)
            return step
        case .openTwoLevel:
            openTwoLevel(&step)
            return step
        case .closeTwoLevel:
            closeTwoLevel(&step)
            return step
        case .panBegan, .contentSizeChanged, .hidden, .tapped, .reachedEnd, .releasedAtEnd:
            // The auto footer's events.
            step.accepted = false
            return step
        case .beginRefreshing, .endRefreshing, .displayed, .openFinished, .closeFinished, .timerFired, .configure:
            break
        }
        _ = handleShared(event, &step)
        return step
    }

    // MARK: The pull

    private mutating func scrolled(_ sample: PullSample, _ step: inout RefreshStep) {
        lastRevealed = sample.revealed
        switch core.state {
        case .refreshing, .finished:
            if role == .header { step.add(.followOffset) }
            return
        case .twoLevel:
            return
        case .idle, .pulling, .willRefresh, .noMoreData, .failed, .releaseToTwoLevel:
            break
        }
        if trackTwoLevel(sample, &step) { return }
        if (core.state == .idle || core.state == .failed) && sample.blocked { return }
        let extent = settings.extent
        guard extent > 0 else { return }
        guard sample.revealed > 0 else {
            if !core.isRefreshing { step.add(.setPullingPercent(0)) }
            return
        }
        let percent = sample.revealed / extent
        if core.state == .noMoreData {
            step.add(.setPullingPercent(percent))
            return
        }
        if sample.dragging {
            step.add(.setPullingPercent(percent))
            let armed = sample.revealed > settings.triggerDistance
            if (core.state == .idle || core.state == .failed) && armed {
                enter(.pulling, &step)
            } else if core.state == .pulling && !armed {
                enter(.idle, &step)
            }
        } else if core.state == .pulling {
            // Released by a fling's first tick before the pan's end was heard.
            begin(&step)
        } else if percent < 1 {
            step.add(.setPullingPercent(percent))
        }
    }

    private mutating func released(cancelled: Bool, _ step: inout RefreshStep) {
        switch core.state {
        case .pulling:
            if cancelled { enter(.idle, &step) } else { begin(&step) }
        case .releaseToTwoLevel:
            if cancelled { enter(.idle, &step) } else { openTwoLevel(&step) }
        case .twoLevel:
            let pushed = settings.twoLevelOpenReveal - lastRevealed
            if pushed > settings.twoLevelCloseDistance {
                closeTwoLevel(&step)
            } else {
                step.add(.settleTwoLevel)
            }
        case .idle, .refreshing, .willRefresh, .noMoreData, .finished, .failed:
            step.accepted = false
        }
    }

    // MARK: The second floor

    /// While dragging with a second floor: pulling ⇄ releaseToTwoLevel across its threshold.
    /// Returns whether it handled the sample.
    private mutating func trackTwoLevel(_ sample: PullSample, _ step: inout RefreshStep) -> Bool {
        guard role == .header, let threshold = settings.twoLevelTriggerDistance, sample.dragging,
              core.state == .pulling || core.state == .releaseToTwoLevel else { return false }
        if sample.revealed > threshold {
            if settings.extent > 0 { step.add(.setPullingPercent(sample.revealed / settings.extent)) }
            enter(.releaseToTwoLevel, &step)
            return true
        }
        enter(.pulling, &step)
        return false
    }

    private mutating func openTwoLevel(_ step: inout RefreshStep) {
        guard role == .header, settings.twoLevelTriggerDistance != nil, !core.isRefreshing,
              core.state != .twoLevel else {
            step.accepted = false
            return
        }
        enter(.twoLevel, &step)
    }

    private mutating func closeTwoLevel(_ step: inout RefreshStep) {
        guard core.state == .twoLevel else {
            step.accepted = false
            return
        }
        enter(.idle, &step)
        step.add(.notifyTwoLevel(open: false))
    }

    // MARK: Reactions

    /// Refreshing opens (the header tells the footer); settling closes, or ends at once when it never opened.
    public mutating func didEnter(_ new: RefreshState, from old: RefreshState, _ step: inout RefreshStep) {
        let wasOn = old == .refreshing || old == .willRefresh
        switch new {
        case .refreshing:
            if role == .header && !wasOn { step.add(.tellFooter(.headerBeganRefreshing)) }
            // Opening; an open takes over from a close still running (refreshing has no
            // close in flight): that close never completes.
            core.updateRefreshing { $0.opening = true }
            step.add(.open)
        case .willRefresh:
            if role == .header { step.add(.tellFooter(.headerBeganRefreshing)) }
        case .idle, .noMoreData, .failed:
            if old == .refreshing || old == .finished || old == .twoLevel {
                core.setClosing(true)
                step.add(.close)
            } else if old == .willRefresh {
                // Ended before it ever opened: nothing to animate.
                step.add(.setPullingPercent(0))
                step.add(.runEndCompletion)
            }
        case .twoLevel:
            step.add(.openTwoLevel)
            step.add(.notifyTwoLevel(open: true))
        case .pulling, .finished, .releaseToTwoLevel:
            break
        }
    }

    /// A header's successful end stamps the time (if it opened) and tells the footer.
    public mutating func endAccepted(_ result: RefreshResult, opened: Bool, _ step: inout RefreshStep) {
        guard role == .header, result.isSuccess else { return }
        if opened { step.add(.stampLastUpdated) }
        step.add(.tellFooter(.headerRefreshSucceeded))
    }
}
