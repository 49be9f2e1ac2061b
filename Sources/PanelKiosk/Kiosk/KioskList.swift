import FoundationEssentials
import Glibc
import PanelHost

/// The kiosk's list: a `ListView` with a header that reloads the first page and a footer that
/// loads the next, over an `ItemSource`, tracing what happens; or, horizontal, a row of
/// columns whose trailer loads the next page (MJRefresh has no header across: the first page
/// loads at the start and on `reload()`). The program's `demo`, `replay` and `run` all drive
/// one of these; on a stage it is the configured content (`KioskList+Stage.swift`), built
/// from the configuration by `configured(_:on:source:broker:)`.
@MainActor
public final class KioskList: ListDataSource {
    /// The UI the list is in.
    public let scene: Scene
    /// The list of items.
    public let list: ListView
    /// The header; attached to a vertical list only.
    public let header: StateHeader
    /// The footer; attached to a vertical list only.
    public let footer: RefreshFooter
    /// The trailer of a horizontal list (nil: none, only the first page shows).
    public let trailer: Trailer?
    /// What loads the next page: the footer (vertical) or the trailer (horizontal).
    public var loader: (any LoadMoreComponent)? { list.orientation == .vertical ? footer : trailer }
    /// Where the items come from.
    public let source: any ItemSource
    /// Items asked per page.
    public var pageSize: Int
    /// Seconds a failed refresh shows its failure before the header closes.
    public var failureDisplayDuration: Double = 2
    /// Seconds a successful refresh shows its result ("Up to date") before the header closes.
    public var successDisplayDuration: Double = 0
    /// The items shown, all pages loaded so far.
    public internal(set) var items: [Item] = [] {
        // Asked at every entry (the minute's deadline): kept with the items, not walked each time.
        didSet { hasTimedRows = items.contains { !$0.timed.isEmpty || $0.expires != nil } }
    }
    /// How badges show by their value (`rows.badge-hide`, `rows.badge-colors`).
    public var badgeStyle = BadgeStyle()
    /// Seconds an item stays after its `rows.expires` time (`rows.expires-after`).
    public var expiresAfter = 0.0
    /// The calendar minute the rows' times were last drawn for (Unix minutes); nil: none drawn yet.
    var timesMinute: Double?
    /// The bar over the rows with the board's name and time (`appearance.board-title`,
    /// `board-clock`); nil: the rows fill the screen. Set before ``place()``.
    public var board: BoardBar?
    /// Where the last good list is kept (`state.directory`/last-list.jsonl); nil: not kept.
    public var keptListPath: String?
    /// The row fields the kept list is read with.
    public var keptListFields = ItemParser.Fields()
    /// Whether the list shows the kept list, its source not answered yet.
    public internal(set) var keptListShown = false
    /// Why the list could not be kept, said once.
    var keptListTrouble: String?
    /// Seconds a failing source is let be before the banner says since when the list has had
    /// no answer (`data.stale-after`); 0: each failure is said at once.
    public var staleAfter = 0.0
    /// Since when the refreshes have failed (seconds of the clock), the last one included; nil:
    /// the last one answered.
    public internal(set) var failingSince: Double?
    /// Seconds without a touch before the list goes back to its start (`appearance.home-after`); 0: never.
    public var homeAfter = 120.0
    /// Seconds without a touch between the moves of an untouched board by a screen
    /// (`appearance.page-every`); 0: it never moves by itself.
    public var pageEvery = 0.0
    /// When the list last moved on by itself, or first had rows (seconds of the clock): the
    /// next move is `pageEvery` after it or after the last touch, whichever is later.
    var pagedFrom = -Double.infinity
    /// When it last went back by itself, seconds of the clock.
    var returnedHomeAt = -Double.infinity
    /// Rows new or changed at the last refresh, by id: until when (seconds of the clock) they are marked.
    var markedRows: [String: Double] = [:]
    /// New rows above the reader's place the chip counts (0: no chip).
    public internal(set) var newAbove = 0
    /// Rows the last refresh added.
    public internal(set) var lastNewRows = 0
    /// The chip ("3 new ↑"), made when first needed.
    var newChip: Button?
    /// The `identify` card while it shows, and until when (seconds of the clock).
    var identityCard: Button?, identityUntil: Double?
    /// The rows' background when not marked (the theme's or `appearance.background`).
    public var rowColor = Color.white
    /// Whether any item has a time shown from now, at the local time, or an expiry: the rows are drawn again each minute.
    public private(set) var hasTimedRows = false
    private var loadedPages = 0
    /// Every trace event, in order.
    public private(set) var trace: [TraceEvent] = []
    /// Also hears every trace event (the program prints them).
    public var onTrace: ((TraceEvent) -> Void)?
    /// Hears every change of the items (a refresh that brought new ones, or a page loaded).
    public var onItemsChanged: (() -> Void)?
    /// Hears the start of every refresh of the first page, whatever started it.
    public var onRefreshBegan: (() -> Void)?
    /// Hears the end of every refresh of the first page, whatever its result (the kiosk
    /// tells systemd and the metrics).
    public var onRefreshEnded: (() -> Void)?
    /// Whether the last refresh of the first page failed.
    public private(set) var lastRefreshFailed = false
    /// When the kiosk refreshes by itself (nil: only when asked: a pull, the operator).
    public var schedule: RefreshSchedule?
    /// How an automatic refresh shows.
    public var autoStyle = AutoStyle.silent
    /// What the refreshes did since the start.
    public internal(set) var counters = RefreshCounters()
    /// No request before this time (seconds of the scene's clock): a busy server's
    /// `Retry-After`. A refresh asked for sooner fails at once with what the server said.
    public private(set) var notBefore = -Double.infinity
    /// The busy server's answer that set `notBefore`.
    private var busy: DataSourceError?
    /// The first page's load under way (never two at once), and how it shows.
    private var loading: Loading?
    /// Counts the first page's loads: a next page asked before the last one began belongs to
    /// a list that is gone.
    private var generation = 0
    /// Hears data source failures (the program logs them and sets STATUS).
    public var onError: ((any Error) -> Void)?
    /// Whether the trace's frame lines carry `renderMs` (`--timings`): a measurement of the
    /// machine, so a trace with it differs from run to run.
    public var tracesTimings = false
    /// Seconds of the scene's clock at the first input event; traces count from it.
    public var traceOrigin: Double = 0
    /// Fetches and decodes the rows' pictures off the run loop (nil: rows show no pictures).
    public var pictures: ThumbnailLoader? {
        didSet { pictures?.onChange = { [weak self] in self?.pictureChanged($0) } }
    }
    /// The pictures' side, points.
    public var imageSize: Double = 56
    /// Whether some item has a picture: then every row has the picture column.
    public internal(set) var showsPictures = false
    /// The picture each cell on screen wants.
    private var cellPictures: [ObjectIdentifier: ThumbnailLoader.Request] = [:]
    /// What the list says while it has no rows: loading, empty or failed (inside the list, so a
    /// vertical list's pull still reaches the header).
    public let statusView: ListStatusView
    /// The strip along the screen's bottom after a refresh failed over items already shown.
    public let banner = RefreshBanner()
    /// What the list says now instead of rows (nil: it shows rows).
    public var status: ListStatus? { statusView.status }
    /// When the items on screen arrived (the scene clock's date), for the banner.
    public internal(set) var itemsDate: Date?
    /// The scene clock's time at which the first page arrived, until its first picture shows.
    private var pageArrivedAt: Double?
    /// A picture of the page became ready; it is on screen at the next frame.
    private var firstPictureReady = false
    /// Hears the seconds from the first page's arrival to the first frame with one of its
    /// pictures on screen (once per first page; the program logs it).
    public var onFirstPicture: ((Double) -> Void)?
    /// The stage the list is on, between `attach` and `detach`.
    public internal(set) weak var stage: Stage?
    /// `refresh.quiet-after-touch`: seconds after the last touch before a due automatic refresh runs.
    public var quietAfterTouch = 30.0
    /// Whether refreshes that changed the list are told to the journal (`list-changed`).
    public var announcesChanges = true
    /// The count of changing refreshes, and the item count, when the journal last heard of them.
    var changesAnnounced = (refreshes: 0, items: 0)
    /// The fleet's broker, when there is one: what is wrong with it is said beside the list,
    /// and its silence over it (`offlineSince`).
    public weak var broker: FleetLink?
    /// What is wrong with the broker, as last said in STATUS.
    public internal(set) var brokerTrouble: String?
    /// What seeds the automatic refreshes' phase and waits: the machine's id.
    public var seed = ""

    /// How a refresh the kiosk starts by itself shows (`refresh.auto-style`).
    public enum AutoStyle: String, Sendable, CaseIterable {
        /// The header opens, spins and closes, as a pull would (the list goes to its top).
        case header
        /// The rows change in place, the reader's place kept, with no header; the last-updated
        /// time is set.
        case silent
    }

    /// How the first page's load under way shows.
    private enum Loading {
        /// The header is open for it (a pull, `reload()`, an automatic refresh in header style).
        case header
        /// Nothing shows it (an automatic refresh in silent style, until a pull joins it).
        case silent
        /// The list's place shows it: a horizontal list's reload (it has no header), or a first
        /// load (the Loading view).
        case list
    }

    /// What a tap on a row does (`rows.tap`).
    public enum TapAction {
        /// Nothing but the trace's select line.
        case none
        /// Opens the item's detail page over the list.
        case detail
        /// Runs the command with the item (`rows.tap-command`).
        case command(TapCommand)
        /// Hands the item on (`rows.tap = publish`: to the broker); the result is the trace's.
        case publish((Item) -> String)
    }
    /// What a tap on a row does.
    public var tapAction: TapAction = .none
    /// The detail page open over the list, if any.
    public private(set) var detailPage: DetailPage?
    /// The picture the detail page shows.
    private var detailPicture: ThumbnailLoader.Request?
    /// When the last pan ended (trace time): tells the second floor's push up from a call.
    private var lastPanEnd = -Double.infinity
    /// The detail page's slide and back swipe (and a page still sliding out).
    public let pages: PageStack
    /// Where the topmost page was drawn at the last page line (nil: none was on screen).
    private var lastPageX: Double?

    /// A list on `scene`, not on it yet (``place()``, or a stage's `show`).
    /// - Parameters: `header` and `footer` default to MJRefresh's normal header and auto footer;
    ///   `orientation` horizontal lays the items out as columns, loaded further by `trailer`.
    public init(scene: Scene, source: any ItemSource, pageSize: Int = 20, localizer: RefreshLocalizer = .shared,
                header: StateHeader? = nil, footer: RefreshFooter? = nil,
                orientation: Axis = .vertical, trailer: Trailer? = nil) {
        (self.scene, self.source, self.pageSize) = (scene, source, pageSize)
        pages = PageStack(scene: scene)
        list = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
        // A new screen size (a window resized, a panel in another mode) resizes the list in place.
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        list.rowHeight = .fixed(72)
        list.orientation = orientation
        self.header = header ?? NormalHeader(localizer: localizer)
        self.footer = footer ?? AutoNormalFooter(localizer: localizer)
        self.trailer = trailer
        statusView = ListStatusView(localizer: localizer)
        self.header.finishedDisplayDuration = 0
        list.dataSource = self
        list.delegate = self
        if orientation == .vertical {
            list.header = self.header
            list.footer = self.footer
        } else {
            list.trailer = trailer
        }
        self.footer.hidesWhenEmpty = true
        statusView.suggestsPull = orientation == .vertical
        list.addSubview(statusView)
        statusView.retryAction = { [weak self] in
            guard let self else { return }
            self.record(.retry(t: self.now))
            self.reload()
        }
        layoutStatus()
        self.header.refreshingAction = { [weak self] in self?.refresh() }
        self.header.stateDidChangeHandler = { [weak self] in self?.record(.state(t: self?.now ?? 0, component: "header", from: $0, to: $1)) }
        if let loader {
            let name = orientation == .vertical ? "footer" : "trailer"
            loader.refreshingAction = { [weak self] in self?.loadMore() }
            loader.stateDidChangeHandler = { [weak self] in self?.record(.state(t: self?.now ?? 0, component: name, from: $0, to: $1)) }
        }
        self.header.twoLevelHandler = { [weak self] open in
            guard let self else { return }
            // A close that follows the release of a pan is the push up; any other, a call.
            let how = self.now - self.lastPanEnd < 0.05 ? "push" : "call"
            self.record(open ? .open(t: self.now, page: "second-floor", row: nil) : .close(t: self.now, page: "second-floor", how: how))
        }
        pages.onClose = { [weak self] _, how in self?.forgetDetail(how: how) }
    }

    /// Puts the list and its banner on the scene's root view and routes the scene's touches to
    /// the list (a stage's `show` does it; a bare scene's tests call it).
    public func place() {
        scene.screen.rootView.addSubview(list)
        if let board {
            scene.screen.rootView.addSubview(board)
            let size = scene.screen.size
            board.frame = Rect(x: 0, y: 0, width: size.width, height: board.height)
            list.frame = Rect(x: 0, y: board.height, width: size.width, height: max(0, size.height - board.height))
            board.show(time: scene.clock.date, clock: itemClock)
        }
        scene.dispatcher.scrollView = list
        scene.screen.rootView.addSubview(banner)
        layoutStatus()
        scene.dispatcher.onPress = { [weak self] view, down in
            guard let self, let cell = view as? ListCell, cell.row >= 0 else { return }
            self.record(.press(t: self.now, row: cell.row, down: down))
        }
        scene.dispatcher.onPan = { [weak self] e in
            guard let self else { return }
            self.pages.handle(e)
            if e.state == .ended || e.state == .cancelled { self.lastPanEnd = self.now }
            self.record(.pan(t: self.now, phase: e.state.rawValue, x: e.location.x, y: e.location.y,
                             vx: e.velocity.x, vy: e.velocity.y, touches: e.numberOfTouches))
        }
    }

    var now: Double { scene.clock.now - traceOrigin }

    /// Starts the trace afresh with `t` counted from `origin` (seconds of the scene's clock):
    /// a replay's trace begins with its recording, after the first page is in.
    public func beginTrace(origin: Double) {
        trace.removeAll()
        traceOrigin = origin
    }

    /// The list's offset in the frame drawn last, until it is presented (nil: none waits).
    private var drawnOffset: Point?

    /// A frame was drawn: the offset it shows, for its frame line when it reaches the glass.
    public func frameDrawn() { drawnOffset = list.contentOffset }

    /// A frame reached the display (the frame presenter's completion): the trace's frame line, at
    /// the time it is on the glass with the offset it was drawn with.
    /// - Parameter renderSeconds: how long it took to draw and copy, seconds.
    public func framePresented(renderSeconds: Double) {
        if firstPictureReady, let arrived = pageArrivedAt {
            pageArrivedAt = nil
            onFirstPicture?(scene.clock.now - arrived)
        }
        let offset = drawnOffset ?? list.contentOffset
        drawnOffset = nil
        record(.frame(t: now, offsetX: offset.x, offsetY: offset.y, rows: list.numberOfRows,
                      renderMs: tracesTimings ? renderSeconds * 1000 : nil))
        // Where a sliding page was drawn, when it moved.
        let pageX = pages.shown.last?.page.frame.origin.x
        if let pageX, pageX != lastPageX { record(.page(t: now, x: pageX)) }
        lastPageX = pageX
    }

    func record(_ event: TraceEvent) {
        trace.append(event)
        onTrace?(event)
    }

    /// Loads the first page without a pull (the program's start).
    public func start() {
        // The last good list shows at once, refreshed without the header over it.
        if showKeptList() {
            beginFirstPage(.silent)
        } else {
            reload()
        }
    }

    /// Loads the first page again: through the header on a vertical list with rows (as a pull
    /// does), in the list's place on a horizontal one or an empty one (the Loading view). False while a refresh shows already (a silent one under
    /// way is joined: the header opens and closes with its answer).
    @discardableResult
    public func reload() -> Bool {
        // An empty list says it is loading from the first frame: the header takes its opening
        // animation (0.25 s) before its action starts the load, and until then the glass
        // showed "Updating…" over a blank list.
        if items.isEmpty && statusView.status != .loading { statusView.status = .loading }
        // A first load (or a retry of one) says it in the list's place, without the header over
        // it: "Updating… / Last updated: No record" on a new panel read as an error.
        guard list.orientation == .horizontal || items.isEmpty else { return header.beginRefreshing() }
        guard loading == nil else { return false }
        beginFirstPage(.list)
        return true
    }

    /// Whether a refresh of the first page is under way or shows (the header open).
    public var isRefreshing: Bool { loading != nil || header.isRefreshing }

    /// When the next automatic refresh is due (seconds of the scene's clock); nil: none is
    /// (no `schedule`, or a refresh is under way).
    public var nextAutomaticRefresh: Double? {
        guard let due = schedule?.due else { return nil }
        return max(due, notBefore)
    }

    /// Starts the automatic refresh that is due, in `autoStyle`; false when a refresh is under
    /// way already (it counts: the schedule waits from its end).
    @discardableResult
    public func refreshAutomatically() -> Bool {
        guard !isRefreshing else { return false }
        if autoStyle == .header || list.orientation == .horizontal { return reload() }
        beginFirstPage(.silent)
        return true
    }


    /// Shows the built-in sample's first page at once, without a refresh (replays and the demo
    /// start from a full list).
    public func showFirstPage() {
        items = (0..<pageSize).map { Item(id: "0-\($0 + 1)", title: "Item \($0 + 1)", subtitle: "Sample data") }
        loadedPages = 1
        statusView.status = nil
        list.reloadData()
    }

    /// The status fills the list's own area at the content's start (it moves with a pull);
    /// the banner runs along the screen's bottom.
    public func layoutStatus() {
        statusView.frame = Rect(origin: .zero, size: list.frame.size)
        let size = scene.screen.size
        banner.frame = Rect(x: 0, y: size.height - RefreshBanner.height, width: size.width, height: RefreshBanner.height)
    }

    /// Since when the list's broker has been out of reach, or its source has failed, once that
    /// is longer than the panel lets pass unsaid (`mqtt.stale-after`, `data.stale-after`); nil:
    /// reached. The banner says so over the items on screen, unless a failed refresh's reason
    /// is shown there.
    public var offlineSince: Date? {
        didSet {
            guard offlineSince != oldValue, failureShown == nil else { return }
            showBanner(nil)
        }
    }
    /// The failed refresh's reason the banner shows, if any.
    private var failureShown: String?

    /// Shows the banner for a failed refresh over the items on screen, or hides it (nil; the
    /// broker's offline note stays while it holds).
    func showBanner(_ reason: String?) {
        failureShown = reason
        let offline = reason == nil && !items.isEmpty ? offlineSince : nil
        // The last good list at the start, until its source answers: its age.
        let kept = reason == nil && offline == nil && keptListShown
        let shown = reason != nil || offline != nil || kept
        if shown != !banner.isHidden {
            // The last rows scroll up from under the banner while it shows.
            list.contentInset.bottom += shown ? RefreshBanner.height : -RefreshBanner.height
        }
        banner.isHidden = !shown
        let formatter = header.lastUpdatedFormatter, today = scene.clock.date
        let time = itemsDate.map { formatter.shortText(for: $0, now: today) }
        if let offline {
            banner.label.text = RefreshBanner.text(offlineSince: formatter.shortText(for: offline, now: today), itemsFrom: time,
                                                   localizer: statusView.localizer)
            return
        }
        if kept, let time {
            banner.label.text = statusView.localizer.text(.itemsFrom).replacing(text: "{time}", with: time)
            return
        }
        guard let reason else { return }
        // When the kiosk refreshes by itself, the next attempt's time (after the back-off).
        let retry = nextAutomaticRefresh.map { formatter.shortText(for: today.addingTimeInterval($0 - scene.clock.now), now: today) }
        banner.label.text = RefreshBanner.text(reason: reason, itemsFrom: time, retryingAt: retry, localizer: statusView.localizer)
    }

    /// The header's refreshing action (and a horizontal list's reload): the first page's load,
    /// unless one is under way already, whose answer then ends the header too.
    private func refresh() {
        guard loading == nil else {
            if list.orientation == .vertical { loading = .header }
            return
        }
        beginFirstPage(list.orientation == .vertical ? .header : .list)
    }

    /// What the busy server said, with the seconds still to wait, while `notBefore` holds every
    /// request back; nil once it has passed.
    private var heldBack: DataSourceError? {
        guard scene.clock.now < notBefore, case let .busy(source, status, _)? = busy else { return nil }
        return .busy(source: source, status: status, retryAfter: (notBefore - scene.clock.now).rounded(.up))
    }

    /// The one path of every refresh, whatever started it: the trace's line, the schedule, the
    /// load, and its end (`endFirstPage`).
    private func beginFirstPage(_ shows: Loading) {
        record(.refresh(t: now, component: shows == .header ? "header" : "list"))
        loading = shows
        generation += 1
        onRefreshBegan?()
        if items.isEmpty { statusView.status = .loading }
        if let held = heldBack {
            // The server asked for no request until then: none is made, and the schedule,
            // which waits for that time already, is not told of an attempt.
            return endFirstPage(.failure(held), asked: false)
        }
        schedule?.began()
        source.load(page: 0, pageSize: pageSize) { [weak self] result in self?.endFirstPage(result) }
    }

    /// A first page arrived (or did not): the list, the header, the banner and the schedule
    /// (`asked` false: no request was made, the schedule is left as it is).
    private func endFirstPage(_ result: Result<ItemPage, Error>, asked: Bool = true) {
        loading = nil
        let at = scene.clock.now
        lastRefreshFailed = (try? result.get()) == nil
        switch result {
        case .success(let page):
            counters.bytesFetched += page.bytesFetched
            if page.notModified { counters.notModified += 1 }
            counters.lastSuccess = scene.clock.date
            counters.lastSuccessTime = at
            failingSince = nil
            if staleAfter > 0 { offlineSince = nil }
            schedule?.succeeded(at: at, freshFor: page.freshFor)
            // The server may be back: pictures that failed are tried again.
            pictures?.forgetFailures()
            itemsDate = scene.clock.date
            keptListShown = false
            var keptLaterPages = false
            if page.isUnchanged {
                counters.unchanged += 1
            } else {
                counters.changed += 1
                keptLaterPages = show(page.items)
                keepList()
            }
            statusView.status = items.isEmpty ? .empty : nil
            showBanner(nil)
            if header.isRefreshing {
                header.finishedDisplayDuration = successDisplayDuration
                header.endRefreshing()
            } else if list.orientation == .vertical {
                // A silent refresh: the header shows its time when it next opens.
                header.stampLastUpdated()
            }
            // With the later pages kept, the footer stands as they left it.
            if !page.isUnchanged && !keptLaterPages {
                if page.items.count < pageSize { loader?.endRefreshingWithNoMoreData(completion: nil) } else { loader?.resetNoMoreData() }
            }
        case .failure(let error):
            counters.failed += 1
            counters.lastError = String(describing: error)
            let retryAfter = (error as? DataSourceError)?.retryAfter
            if asked {
                if let retryAfter {
                    notBefore = max(notBefore, at + retryAfter)
                    busy = error as? DataSourceError
                }
                schedule?.failed(at: at, retryAfter: retryAfter)
            }
            // The list on screen stays; the header shows the failure, then the list says it:
            // in its place when it has no rows, in the banner over the rows it has.
            // The journal, the trace and ctl status say the whole of it; the glass says what
            // happened in words for a passer-by (no address, path, topic or status code).
            record(.error(t: now, message: String(describing: error)))
            onError?(error)
            let reason = DataSourceError.passerByText(error, language: statusView.localizer.language)
            if failingSince == nil { failingSince = at }
            // With data.stale-after, one failure among answers is the journal's alone: the
            // banner says since when once the failures outlast it (tickStale).
            if items.isEmpty { statusView.status = .failed(reason: reason) } else if staleAfter == 0 { showBanner(reason) }
            if header.isRefreshing {
                header.finishedDisplayDuration = failureDisplayDuration
                header.endRefreshing(result: .failure(reason))
            }
        }
        onRefreshEnded?()
    }

    /// New items for the list, the reader's place kept: the row at the top of the screen stays
    /// where it is when its item is still there (`ListView.reloadData(keeping:)`).
    /// Returns whether the pages loaded after the first were kept: a reader away from the top
    /// (a timer's refresh, SIGHUP, `ctl refresh`) keeps them, the first page's items replaced and those
    /// now in it left out of the rest, so the place holds (a refresh of page 1 alone had taken
    /// them away, and the reader found the list's end of page 1).
    @discardableResult
    private func show(_ page: [Item]) -> Bool {
        let anchor = list.placeAnchor()
        let before = items
        let fresh = unexpired(page)
        let ids = Set(fresh.map(\.id))
        let later = loadedPages > 1 && anchor != nil ? before.dropFirst(pageSize).filter { !ids.contains($0.id) } : []
        items = fresh + later
        loadedPages = later.isEmpty ? 1 : loadedPages
        showsPictures = page.contains { !$0.image.isEmpty }
        if pictures != nil, showsPictures {
            (pageArrivedAt, firstPictureReady) = (scene.clock.now, false)
        }
        list.reloadData(keeping: anchor)
        noteNewRows(before: before, anchored: anchor != nil)
        onItemsChanged?()
        return !later.isEmpty
    }

    private func loadMore() {
        guard let loader else { return }
        record(.refresh(t: now, component: list.orientation == .vertical ? "footer" : "trailer"))
        let asked = generation
        if let held = heldBack {
            loader.finishedDisplayDuration = failureDisplayDuration
            loader.endRefreshing(result: .failure(DataSourceError.passerByText(held, language: statusView.localizer.language)))
            return
        }
        source.load(page: loadedPages, pageSize: pageSize) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let answer):
                let page = answer.items
                self.counters.bytesFetched += answer.bytesFetched
                if answer.notModified { self.counters.notModified += 1 }
                guard asked == self.generation else {
                    // A refresh replaced the list while this page was on its way: it belongs to
                    // the list that is gone.
                    loader.finishedDisplayDuration = 0
                    loader.endRefreshing()
                    return
                }
                self.items += self.unexpired(page)
                self.loadedPages += 1
                if !self.showsPictures, page.contains(where: { !$0.image.isEmpty }) { self.showsPictures = true }
                self.list.reloadData()
                self.onItemsChanged?()
                loader.finishedDisplayDuration = 0
                if page.count < self.pageSize { loader.endRefreshingWithNoMoreData(completion: nil) } else { loader.endRefreshing() }
            case .failure(let error):
                self.record(.error(t: self.now, message: String(describing: error)))
                self.onError?(error)
                loader.finishedDisplayDuration = self.failureDisplayDuration
                loader.endRefreshing(result: .failure(DataSourceError.passerByText(error, language: self.statusView.localizer.language)))
            }
        }
    }

    // MARK: ListDataSource

    /// The items loaded so far.
    public func numberOfRows(in list: ListView) -> Int { items.count }

    /// The item's id (`rows.id`, else its title): what keeps the reader's place across refreshes.
    public func list(_ list: ListView, identifierForRow row: Int) -> String? { row < items.count ? items[row].id : nil }

    /// The item's title, subtitle, detail, badge and picture on the cell.
    public func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        guard row < items.count else { return }
        let item = items[row]
        let now = scene.clock.date, clock = itemClock
        cell.backgroundColor = rowBackground(for: item)
        cell.titleLabel.text = item.title
        cell.subtitleLabel.text = item.text(.subtitle, now: now, clock: clock)
        cell.detailLabel.text = item.text(.detail, now: now, clock: clock)
        let badge = badgeStyle.styled(item.text(.badge, now: now, clock: clock))
        cell.badgeLabel.text = badge.text
        cell.badgeLabel.backgroundColor = badge.color ?? ListCell.badgeColor
        for label in [cell.titleLabel, cell.subtitleLabel, cell.detailLabel] { label.font.language = item.fontLanguage }
        cell.imageSize = showsPictures && pictures != nil ? imageSize : 0
        let previous = cellPictures[ObjectIdentifier(cell)]
        if let pictures, showsPictures, !item.image.isEmpty {
            let pixels = Int((imageSize * scene.screen.scale).rounded(.up))
            let request = ThumbnailLoader.Request(source: item.image, width: pixels, height: pixels)
            cellPictures[ObjectIdentifier(cell)] = request
            // Wanted before the old one is let go: the same picture again keeps its job.
            cell.picture = pictures.want(request, size: Size(width: imageSize, height: imageSize))
        } else {
            cellPictures[ObjectIdentifier(cell)] = nil
            cell.picture = nil
        }
        if let previous { pictures?.release(previous) }
    }

    /// Opens the detail page of `row` over the list.
    public func openDetail(row: Int) {
        guard row >= 0, row < items.count else { return }
        if detailPage != nil { closeDetail(how: "call", animated: false) }
        let page = DetailPage(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator, localizer: statusView.localizer)
        let item = items[row]
        var picture: RowPicture?
        if let pictures, !item.image.isEmpty {
            let size = page.pictureSize(width: scene.screen.size.width, height: scene.screen.size.height)
            let request = ThumbnailLoader.Request(source: item.image, width: Int((size.width * scene.screen.scale).rounded(.up)),
                                                  height: Int((size.height * scene.screen.scale).rounded(.up)))
            detailPicture = request
            picture = pictures.want(request, size: size)
        }
        page.show(item, row: row, picture: picture)
        page.showFacts(now: scene.clock.date, clock: itemClock, badge: badgeStyle)
        page.backButton.action = { [weak self] in self?.closeDetail(how: "back") }
        // It slides in from the trailing side over the dimming list. Pans that start on the
        // page but outside its scroll view (the back control) move the page's text, never the
        // list underneath.
        pages.push(page, over: list, scrollView: page.scrollView)
        detailPage = page
        record(.open(t: now, page: "detail", row: row))
    }

    /// Closes the detail page (`how`: "back", "swipe", or "call" for the program's own): it
    /// slides out over `PageTransition.duration` (`animated` false: at once). The close line is
    /// the decision's; touches go to the list from then on.
    public func closeDetail(how: String, animated: Bool = true) {
        guard detailPage != nil else { return }
        pages.pop(how: how, animated: animated)
    }

    /// The page is no longer the open one (``pages`` closed it): its picture let go, the close
    /// line.
    private func forgetDetail(how: String) {
        if let request = detailPicture { pictures?.release(request) }
        detailPicture = nil
        detailPage = nil
        record(.close(t: now, page: "detail", how: how))
    }

    /// A picture became ready (or failed): the cells on screen that want it show it.
    private func pictureChanged(_ request: ThumbnailLoader.Request) {
        guard let pictures else { return }
        if pageArrivedAt != nil, case .shown = pictures.picture(request, size: Size(width: 1, height: 1)) { firstPictureReady = true }
        if request == detailPicture, let page = detailPage {
            page.setPicture(pictures.picture(request, size: page.imageView.frame.size))
        }
        for cell in list.visibleCells.values where cellPictures[ObjectIdentifier(cell)] == request {
            cell.picture = pictures.picture(request, size: Size(width: imageSize, height: imageSize))
        }
    }
}

extension KioskList: ListDelegate {
    /// A tap reached a row: a trace line, then what `tapAction` says.
    public func list(_ list: ListView, didSelectRow row: Int) {
        record(.select(t: now, row: row))
        guard row < items.count else { return }
        switch tapAction {
        case .none: break
        case .detail: openDetail(row: row)
        case .command(let command):
            // The line's time is the run's end: the tap's and the seconds it took (the kiosk's
            // clock has not moved yet when the worker's answer comes).
            let tapped = now
            command.run(item: items[row]) { [weak self] result, seconds in
                guard let self else { return }
                self.record(.command(t: max(self.now, tapped + seconds), row: row, result: result))
            }
        case .publish(let send):
            record(.command(t: now, row: row, result: send(items[row])))
        }
    }

    /// A row left the screen: its picture is no longer wanted by it.
    public func list(_ list: ListView, didEndDisplaying cell: ListCell, forRow row: Int) {
        guard let request = cellPictures.removeValue(forKey: ObjectIdentifier(cell)) else { return }
        pictures?.release(request)
    }
}
