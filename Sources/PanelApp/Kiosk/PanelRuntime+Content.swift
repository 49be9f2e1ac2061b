import PanelDisplay
import PanelRefresh
import PanelRender

/// The content a runtime shows, put on its stage at the start and replaced by a reload that
/// changes it: the stage (the screen, the dispatcher, the frame driver, blanking, the
/// statistics and touch-to-glass times) is built once and never again (docs/host.md, "What a
/// reload rebuilds").
extension PanelRuntime {
    /// Puts a new content on the stage for `configuration` (a reload that changed the list's
    /// data source, rows, appearance, locale or limits), as a fresh start would show it: the
    /// old list, its animations and a touch in progress go; frames, statistics, blanking, the
    /// backlight and READY stay. An app's own views are kept as they are: a reload never
    /// builds what an app made again (only the configuration's picture limits, locale and
    /// state directory reach them). Returns whether the content was built anew.
    ///
    /// Throws what the new configuration's appearance throws (a header image that cannot be
    /// read): the content in use then stays, untouched.
    @discardableResult
    public func replaceContent(configuration: Configuration, content: Content) throws -> Bool {
        switch content {
        case .views where session == nil:
            applyContentSettings(configuration)
            return false
        case .views(let build):
            takeDownContent()
            applyContentSettings(configuration)
            app = try build(scene)
        case .list(let source):
            let parts = try ListParts(configuration, host: host, screen: (display.width, display.height))
            takeDownContent()
            applyContentSettings(configuration)
            show(list: source, parts: parts, configuration)
        }
        driver.renderer.imageSupplier = session?.pictures
        (announcedList, changesAnnounced) = (!announcesChanges, (0, 0))
        driver.invalidate()
        return true
    }

    /// The first content, from the initializer.
    func install(_ content: Content, _ configuration: Configuration) throws {
        applyContentSettings(configuration)
        switch content {
        case .list(let source):
            show(list: source, parts: try ListParts(configuration, host: host, screen: (display.width, display.height)), configuration)
        case .views(let build):
            app = try build(scene)
        }
        driver.renderer.imageSupplier = session?.pictures
    }

    /// What the stage takes from a configuration for whatever it shows: the renderer's
    /// picture limits, the language text is shaped in and where the last-updated time is kept.
    private func applyContentSettings(_ configuration: Configuration) {
        driver.renderer.maxImagePixels = configuration.maxImagePixels
        driver.renderer.imageCacheBytes = configuration.imageCacheBytes
        // Text is shaped in the panel's language (its local forms of Han, Cyrillic and others);
        // an item's own `lang` overrides it per row.
        fonts.language = FontLibrary.languageTag(locale: configuration.locale ?? host.language)
        let path = configuration.stateDirectory + "/last-updated.json"
        if path != lastUpdatedStore.path { lastUpdatedStore = FileLastUpdatedStore(path: path) }
    }

    /// Takes the content off the stage: its views, the dispatcher's hold on them, its
    /// animations and timers (a pending refresh, a closing header), a touch in progress.
    private func takeDownContent() {
        scene.dispatcher.cancelAll(at: clock.now)
        (scene.dispatcher.scrollView, scene.dispatcher.onPan, scene.dispatcher.onPress, scene.dispatcher.onTap) = (nil, nil, nil, nil)
        for view in scene.screen.rootView.subviews { view.removeFromSuperview() }
        scene.animator.removeAll()
        if let session {
            // Whatever of the old list is still under way (an answer, a picture) finds nobody.
            (session.onError, session.onRefreshBegan, session.onRefreshEnded, session.onItemsChanged) = (nil, nil, nil, nil)
            session.pictures?.onFinish = nil
        }
        session = nil
        app = nil
        scene.screen.layoutDirection = .leftToRight
    }

    /// What a list's appearance needs that can fail, made before the content in use is taken
    /// down: a reload it refuses leaves that content as it was.
    @MainActor
    private struct ListParts {
        let localizer: RefreshLocalizer
        let header: StateHeader
        let footer: RefreshFooter

        init(_ configuration: Configuration, host: HostEnvironment, screen: (Int, Int)) throws {
            localizer = RefreshLocalizer(language: RefreshLanguage(code: configuration.locale ?? host.language))
            header = try Appearance.header(configuration, localizer: localizer, screen: screen)
            footer = try Appearance.footer(configuration, localizer: localizer)
        }
    }

    /// The configured list over `source` on the stage, wired to the runtime.
    private func show(list source: (Animator) -> any ItemSource, parts: ListParts, _ configuration: Configuration) {
        // Arabic and Hebrew kiosks read from the right: rows, the header, a horizontal list.
        scene.screen.layoutDirection = parts.localizer.language.layoutDirection
        let session = PanelSession(scene: scene, source: source(scene.animator), pageSize: configuration.pageSize, localizer: parts.localizer,
                                   header: parts.header, footer: parts.footer,
                                   orientation: configuration.orientation == .vertical ? .vertical : .horizontal,
                                   trailer: Appearance.trailer(configuration, localizer: parts.localizer))
        session.failureDisplayDuration = configuration.failureSeconds
        session.successDisplayDuration = configuration.resultSeconds
        session.header.lastUpdatedFormatter = host.lastUpdatedFormatter
        Appearance.styleRows(session.list, configuration)
        session.imageSize = configuration.imageSize
        var limits = PictureLimits()
        (limits.maxBytes, limits.maxPixels, limits.timeout) = (configuration.pictureMaxBytes, configuration.maxImagePixels, max(configuration.timeout, 15))
        let disk = configuration.cacheDirectory.flatMap { configuration.pictureDiskBytes > 0 ? DiskPictureCache(directory: $0, budget: configuration.pictureDiskBytes) : nil }
        let pictures = ThumbnailLoader(budget: configuration.pictureCacheBytes, limits: limits, disk: disk)
        pictures.onFailure = { request, error in
            Log.event(.imageFailed, priority: 4, "picture: \(error)", fields: ["PANEL_REFRESH_PICTURE": Redaction.redact(request.source)])
        }
        session.pictures = pictures
        session.onFirstPicture = { seconds in
            Log.info("pictures: the first thumbnail on screen \(TraceEvent.number(seconds * 1000)) ms after the page arrived")
        }
        switch configuration.tapAction {
        case .none: session.tapAction = .none
        case .detail: session.tapAction = .detail
        case .command:
            let command = TapCommand(executable: configuration.tapCommand.first ?? "/bin/false",
                                     arguments: Array(configuration.tapCommand.dropFirst()), timeout: configuration.tapTimeout)
            command.stopwatch = stopwatch
            session.tapAction = .command(command)
        case .publish:
            // The host wires the broker's link in (KioskHost.wire); without one, said.
            session.tapAction = .publish { _ in "no broker" }
        }
        session.header.lastUpdatedStore = lastUpdatedStore
        session.autoStyle = configuration.autoStyle
        if configuration.refreshEvery > 0 {
            // Seeded by the machine: each panel of a fleet has its own phase and waits, the
            // same on every start (and in virtual time).
            session.schedule = RefreshSchedule(settings: .init(every: configuration.refreshEvery, jitter: configuration.refreshJitter,
                                                               backoffMax: configuration.backoffMax),
                                               random: SeededRandom(seeding: host.machineID))
        }
        self.session = session
        wire(session)
    }

    /// The list's news reaches the runtime: STATUS, the journal, the loop's wake-ups.
    private func wire(_ session: PanelSession) {
        session.pictures?.onFinish = { [weak self] in self?.onWake?() }
        session.onError = { [weak self] error in
            self?.onWake?()
            Log.event(.refreshFailed, priority: 3, "data source: \(error)", fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            if case .failed? = self?.state {} else { self?.tell(.failed(reason: "\(error)")) }
        }
        // The header opens (a pull, the first load) before its action asks for the page.
        session.header.stateDidChangeHandler = chain(session.header.stateDidChangeHandler) { [weak self] _, to in
            if to == .refreshing { self?.tell(.refreshing) }
        }
        session.onRefreshBegan = { [weak self] in self?.tell(.refreshing) }
        session.onRefreshEnded = { [weak self, weak session] in
            guard let self, let session else { return }
            self.onWake?()
            if let error = session.counters.lastError, session.lastRefreshFailed {
                self.tell(.failed(reason: error))
            } else {
                self.announceChange(session)
                self.notifyShowing()
            }
        }
        session.header.errorHandler = { [weak self] error in self?.lastUpdatedNotSaved(error) }
        session.onItemsChanged = { [weak self] in
            guard let self else { return }
            self.activity(wakes: true)
            self.onWake?()
            // A page loaded at the end changes the count STATUS gives.
            if self.state == .showing { self.notifyShowing() }
        }
    }
}
