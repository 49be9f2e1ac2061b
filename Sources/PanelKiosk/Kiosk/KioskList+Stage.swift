import PanelHost

/// The list as a stage's content: put on the stage and wired to it (STATUS, the journal,
/// blanking's activity, the header's last-updated store, the renderer's pictures), its
/// automatic refreshes held while somebody reads it, its part of the status.
extension KioskList: StageContent {
    /// Puts the list on `stage` and wires its news to it.
    public func attach(to stage: Stage) throws {
        self.stage = stage
        place()
        // Arabic and Hebrew kiosks read from the right: rows, the header, a horizontal list.
        stage.scene.screen.layoutDirection = statusView.localizer.language.layoutDirection
        stage.presenter.renderer.imageSupplier = pictures
        header.lastUpdatedStore = stage.lastUpdatedStore
        changesAnnounced = (0, 0)
        onError = { [weak self, weak stage] error in
            Log.event(.refreshFailed, priority: 3, "data source: \(error)", fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            guard let stage, self?.stage === stage else { return }
            if case .failed = stage.state {} else { stage.tell(.failed(reason: "\(error)")) }
        }
        // The header opens (a pull, the first load) before its action asks for the page.
        let traced = header.stateDidChangeHandler
        header.stateDidChangeHandler = { [weak stage] from, to in
            traced?(from, to)
            if to == .refreshing { stage?.tell(.refreshing) }
        }
        onRefreshBegan = { [weak stage] in stage?.tell(.refreshing) }
        onRefreshEnded = { [weak self, weak stage] in
            guard let self, let stage else { return }
            if let error = self.counters.lastError, self.lastRefreshFailed {
                stage.tell(.failed(reason: error))
            } else {
                self.announceChange()
                stage.notifyShowing()
            }
        }
        header.errorHandler = { [weak stage] error in stage?.lastUpdatedNotSaved(error) }
        onItemsChanged = { [weak stage] in
            guard let stage else { return }
            stage.activity(wakes: true)
            // A page loaded at the end changes the count STATUS gives.
            if stage.state == .showing { stage.notifyShowing() }
        }
    }

    /// Lets go of the stage: whatever of the list is still under way (an answer, a picture)
    /// finds nobody when it comes back.
    public func detach(from stage: Stage) {
        (onError, onRefreshBegan, onRefreshEnded, onItemsChanged) = (nil, nil, nil, nil)
        pictures?.onChange = nil
        self.stage = nil
    }

    /// What keeps a due automatic refresh waiting.
    private enum Hold {
        /// Something that ends with an input of its own: a finger lifts, a page closes, the
        /// panel wakes, the refresh under way ends.
        case untilEvent
        /// The quiet after the last touch, until this time.
        case until(Double)
    }

    /// Why a due automatic refresh may not run now; nil: it may. Nobody has the list change
    /// under a finger, a page or the second floor, or on a dark panel (it runs when the panel
    /// wakes).
    private var autoRefreshHold: Hold? {
        guard let stage else { return .untilEvent }
        if stage.display.isBlank || scene.dispatcher.isTouching || detailPage != nil || isRefreshing { return .untilEvent }
        if header.state == .twoLevel || header.state == .releaseToTwoLevel { return .untilEvent }
        if let lastTouch = stage.lastTouch, scene.clock.now < lastTouch + quietAfterTouch { return .until(lastTouch + quietAfterTouch) }
        return nil
    }

    /// When a due automatic refresh may run: its time, or the end of the quiet after a touch;
    /// nil while none is due or something holds it until an event of its own.
    public var nextWakeUp: Double? {
        [nextRefreshWakeUp, nextTimesTick, nextMarkEnd, nextHome, nextPage, nextStale, nextIdentityEnd].compactMap { $0 }.min()
    }

    /// When failures that began at `failingSince` outlast `data.stale-after` and the banner
    /// says so; nil: it says so already, or nothing fails.
    private var nextStale: Double? {
        guard staleAfter > 0, offlineSince == nil, let since = failingSince else { return nil }
        return since + staleAfter
    }

    /// At every entry: a failing source's list says since when once that outlasts
    /// `data.stale-after`, by the calendar time of the first failure.
    private func tickStale(at now: Double) {
        guard staleAfter > 0 else { return }
        offlineSince = failingSince.flatMap { now - $0 >= staleAfter ? scene.clock.date.addingTimeInterval($0 - now) : nil }
    }

    /// When a due automatic refresh may run (``nextWakeUp``'s part for it).
    private var nextRefreshWakeUp: Double? {
        guard let due = nextAutomaticRefresh else { return nil }
        switch autoRefreshHold {
        case nil: return due
        case .until(let quiet)?: return max(due, quiet)
        case .untilEvent?: return nil
        }
    }

    /// At every entry's end: an automatic refresh that is due and not held; what the broker
    /// says beside the list; and, once all is still, what evicted pictures freed goes back to
    /// the system (asked first: whether all is idle costs a walk of the animations).
    public func tick(at now: Double) {
        tickTimes()
        tickNewRows()
        tickHome(at: now)
        tickPaging(at: now)
        tickIdentity(at: now)
        tickStale(at: now)
        if let due = nextAutomaticRefresh, now >= due, autoRefreshHold == nil {
            refreshAutomatically()
        }
        if let broker {
            let trouble = broker.problem
            if trouble != brokerTrouble {
                brokerTrouble = trouble
                stage?.contentStatusChanged()
            }
            if broker.list != nil {
                // The broker's silence said over the list once it outlasts mqtt.stale-after, by the
                // calendar time it was last reached.
                offlineSince = broker.offlineSince(now: now).map { scene.clock.date.addingTimeInterval($0 - now) }
            }
        }
        if let pictures, pictures.holdsFreedMemory, stage?.isIdle == true { pictures.returnFreedMemory() }
    }

    /// A reload's host keys: the list stands when its language is the stage's still (the
    /// header keeps its time in the stage's store, which a new state directory replaced).
    public func reconfigure(_ configuration: Configuration) -> Bool {
        guard let stage else { return false }
        header.lastUpdatedStore = stage.lastUpdatedStore
        return RefreshLanguage(code: stage.language) == statusView.localizer.language
    }

    /// "N items", and the broker's trouble while there is some.
    public var contentStatus: ContentStatus {
        ContentStatus(showing: "\(items.count) items", notes: (brokerTrouble.map { ["broker: \($0)"] } ?? [])
                      + (newAbove > 0 ? ["\(newAbove) new above the reader's place"] : []))
    }

    /// The trace's frame line, with the time the frame took.
    public func framePresented(_ timing: FrameTiming) { framePresented(renderSeconds: timing.renderSeconds) }

    /// The status and the banner follow the new size (the list, an open page and its dim
    /// follow their masks).
    public func resized(to size: Size) { layoutStatus() }

    /// The system clock was set: the last success, the items' time and the header's "Updated"
    /// (when this run stamped it) move to where their moments fall on the new calendar, and the
    /// header's time is saved again (not saved while the clock was not set).
    public func calendarStepped(by seconds: Double) {
        guard let time = counters.lastSuccessTime else { return }
        let clock = scene.clock
        let date = clock.date.addingTimeInterval(time - clock.now)
        counters.lastSuccess = date
        if itemsDate != nil { itemsDate = itemsDate?.addingTimeInterval(seconds) }
        if header.lastUpdatedTime != nil {
            try? header.lastUpdatedStore.setDate(date, forKey: header.lastUpdatedTimeKey)
            header.lastUpdatedTimeDidChange()
        }
    }

    /// One `list-changed` line per refresh that changed the list after the first (a kiosk that
    /// refreshes by itself shows in its journal when its list moved; unchanged answers, 304s
    /// among them, say nothing: every 60 s they would be most of the journal).
    private func announceChange() {
        guard announcesChanges, counters.changed != changesAnnounced.refreshes else { return }
        if changesAnnounced.refreshes > 0 {
            Log.event(.listChanged, priority: 6, "refresh: the list changed: \(items.count) items (\(changesAnnounced.items) before)",
                      fields: ["PANEL_REFRESH_ITEMS": "\(items.count)"])
        }
        changesAnnounced = (counters.changed, items.count)
    }
}
