import PanelHost

/// The list the configuration describes: its appearance, rows, pictures, taps and schedule,
/// and the keys a reload changes in place.
extension KioskList {
    /// The configured list for `configuration` on `stage`'s scene, over the source `source`
    /// makes (for the configuration, on the scene's animator and the stage's executor), not yet shown (the stage's
    /// `show` puts it on). `broker`: the fleet's link, when there is one: a tap that publishes
    /// goes through it, and the list says what is wrong with it and how long it has been
    /// silent. `announces`: whether the journal hears of refreshes that changed the list.
    ///
    /// Throws what the appearance throws (a header image that cannot be read), before
    /// anything on the stage is touched: a refused reload leaves the list in use as it was.
    public static func configured(_ configuration: KioskConfiguration, on stage: Stage,
                                  source: (KioskConfiguration, Animator, any WorkExecutor) -> any ItemSource,
                                  broker: FleetLink? = nil, announces: Bool = true) throws -> KioskList {
        let c = configuration
        let localizer = RefreshLocalizer(language: RefreshLanguage(code: c.locale ?? stage.machine.language))
        let header = try Appearance.header(c, localizer: localizer, screen: (stage.display.width, stage.display.height))
        let footer = try Appearance.footer(c, localizer: localizer)
        let scene = stage.scene
        let list = KioskList(scene: scene, source: source(c, scene.animator, stage.executor), pageSize: c.pageSize, localizer: localizer,
                             header: header, footer: footer, orientation: c.orientation == .vertical ? .vertical : .horizontal,
                             trailer: Appearance.trailer(c, localizer: localizer))
        list.header.lastUpdatedFormatter = stage.machine.lastUpdatedFormatter
        Appearance.styleRows(list.list, c)
        list.imageSize = c.imageSize
        list.badgeStyle = c.badgeStyle
        list.homeAfter = c.homeAfter
        list.pageEvery = c.pageEvery
        list.staleAfter = c.source == .mqtt ? 0 : c.staleAfter
        if c.keepsList {
            list.keptListPath = KioskList.keptListPath(in: c.stateDirectory)
            list.keptListFields = c.rowFields
        }
        list.rowColor = c.theme == .dark ? ListTheme.dark.background : c.background
        if !c.boardTitle.isEmpty || c.boardClock {
            let board = BoardBar(title: c.boardTitle, clock: c.boardClock, background: c.boardColor, text: .white, scale: c.textScale)
            list.board = board
        }
        list.expiresAfter = c.expiresAfter
        var limits = PictureLimits()
        (limits.maxBytes, limits.maxPixels, limits.timeout) = (c.pictureMaxBytes, c.maxImagePixels, max(c.timeout, 15))
        let disk = c.cacheDirectory.flatMap { c.pictureDiskBytes > 0 ? DiskPictureCache(directory: $0, budget: c.pictureDiskBytes) : nil }
        let pictures = ThumbnailLoader(budget: c.pictureCacheBytes, limits: limits, disk: disk, executor: stage.executor)
        pictures.onFailure = { request, error in
            Log.event(.imageFailed, priority: 4, "picture: \(error)", fields: ["PANEL_REFRESH_PICTURE": Redaction.redact(request.source)])
        }
        list.pictures = pictures
        list.onFirstPicture = { seconds in
            Log.info("pictures: the first thumbnail on screen \(TextFormat.number(seconds * 1000)) ms after the page arrived")
        }
        switch c.tapAction {
        case .none: list.tapAction = .none
        case .detail: list.tapAction = .detail
        case .command:
            let command = TapCommand(executable: c.tapCommand.first ?? "/bin/false", arguments: Array(c.tapCommand.dropFirst()),
                                     timeout: c.tapTimeout, executor: stage.executor)
            command.stopwatch = stage.stopwatch
            list.tapAction = .command(command)
        case .publish:
            list.tapAction = .publish { [weak broker] item in broker?.publishTap(item) ?? "not published: no broker" }
        }
        list.broker = broker
        list.announcesChanges = announces
        list.seed = stage.machine.machineID
        list.apply(refreshKeys: c)
        return list
    }

    /// The keys a reload takes in place, the list, its place and an open page kept: every
    /// `[refresh]` key but the broker's trigger (`trigger-topic`, `trigger-jitter`: the link is
    /// made at the start).
    public nonisolated static let keysInPlace: Set<String> = Set(KioskConfiguration.keys.filter { $0.section == "refresh" }.map(\.qualified))
        .subtracting(["refresh.trigger-topic", "refresh.trigger-jitter"])

    /// The `[refresh]` keys, as a start takes them and a reload again: the components' pull
    /// distances and timings, the automatic refreshes' schedule, style and quiet time.
    public func apply(refreshKeys c: KioskConfiguration) {
        Appearance.tune(header, c)
        Appearance.tune(footer, c)
        if let trailer { Appearance.tune(trailer, c) }
        failureDisplayDuration = c.failureSeconds
        successDisplayDuration = c.resultSeconds
        autoStyle = c.autoStyle
        quietAfterTouch = c.quietAfterTouch
        guard c.refreshEvery > 0 else {
            schedule = nil
            return
        }
        let settings = RefreshSchedule.Settings(every: c.refreshEvery, jitter: c.refreshJitter, backoffMax: c.backoffMax)
        if schedule == nil {
            // Seeded by the machine: each panel of a fleet has its own phase and waits, the
            // same on every start (and in virtual time).
            schedule = RefreshSchedule(settings: settings, random: SeededRandom(seeding: seed))
            // Turned on by a reload over a list that has its answer: the first wait runs from now.
            if let answered = counters.lastSuccessTime, !isRefreshing { schedule?.succeeded(at: max(answered, scene.clock.now), freshFor: nil) }
        } else {
            // The wait under way stands; the next is drawn with the new settings.
            schedule?.settings = settings
        }
    }
}
