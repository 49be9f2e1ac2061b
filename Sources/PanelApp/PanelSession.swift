import Foundation
import PanelRefresh

/// The panel's list: a `ListView` with a header that reloads the first page and a footer that
/// loads the next, over an `ItemSource`, tracing what happens. The program's `demo`,
/// `replay` and `run` all drive one of these.
@MainActor
public final class PanelSession: ListDataSource {
    public let scene: Scene
    public let list: ListView
    public let header: StateHeader
    public let footer: RefreshFooter
    public let source: any ItemSource
    public var pageSize: Int
    /// Seconds a failed refresh shows its failure before the header closes.
    public var failureDisplayDuration: Double = 2
    /// Seconds a successful refresh shows its result ("Up to date") before the header closes.
    public var successDisplayDuration: Double = 0
    public private(set) var items: [Item] = []
    private var loadedPages = 0
    /// Every trace event, in order.
    public private(set) var trace: [TraceEvent] = []
    /// Also hears every trace event (the program prints them).
    public var onTrace: ((TraceEvent) -> Void)?
    /// Hears every change of the items (a refresh or a page loaded).
    public var onItemsChanged: (() -> Void)?
    /// Hears data source failures (the program logs them and sets STATUS).
    public var onError: ((any Error) -> Void)?
    /// How long the last frame took to draw, seconds (the frame driver's timing), for the
    /// trace's frame lines.
    public var renderSeconds: (() -> Double?)?
    /// Seconds of the scene's clock at the first input event; traces count from it.
    public var traceOrigin: Double = 0

    /// - Parameters: `header` and `footer` default to MJRefresh's normal header and auto footer.
    public init(scene: Scene, source: any ItemSource, pageSize: Int = 20, localizer: RefreshLocalizer = .shared,
                header: StateHeader? = nil, footer: RefreshFooter? = nil) {
        self.scene = scene
        self.source = source
        self.pageSize = pageSize
        list = ListView(frame: Rect(origin: .zero, size: scene.screen.size), animator: scene.animator)
        list.rowHeight = .fixed(72)
        self.header = header ?? NormalHeader(localizer: localizer)
        self.footer = footer ?? AutoNormalFooter(localizer: localizer)
        self.header.finishedDisplayDuration = 0
        list.dataSource = self
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        list.header = self.header
        list.footer = self.footer
        self.footer.hidesWhenEmpty = true
        self.header.refreshingAction = { [weak self] in self?.refresh() }
        self.footer.refreshingAction = { [weak self] in self?.loadMore() }
        self.header.stateDidChangeHandler = { [weak self] in self?.record(.state(t: self?.now ?? 0, component: "header", from: $0, to: $1)) }
        self.footer.stateDidChangeHandler = { [weak self] in self?.record(.state(t: self?.now ?? 0, component: "footer", from: $0, to: $1)) }
        scene.dispatcher.onPan = { [weak self] e in
            guard let self else { return }
            self.record(.pan(t: self.now, phase: e.state.rawValue, x: e.location.x, y: e.location.y,
                             vx: e.velocity.x, vy: e.velocity.y, touches: e.numberOfTouches))
        }
        let previous = scene.onFrame
        scene.onFrame = { [weak self] damage in
            previous?(damage)
            guard let self else { return }
            self.record(.frame(t: self.now, offsetX: self.list.contentOffset.x, offsetY: self.list.contentOffset.y,
                               rows: self.list.numberOfRows, renderMs: (self.renderSeconds?() ?? 0) * 1000))
        }
    }

    private var now: Double { scene.clock.now - traceOrigin }

    private func record(_ event: TraceEvent) {
        trace.append(event)
        onTrace?(event)
    }

    /// Loads the first page without a pull (the program's start).
    public func start() {
        header.beginRefreshing()
    }

    /// Shows the built-in sample's first page at once, without a refresh (replays and the demo
    /// start from a full list).
    public func showFirstPage() {
        items = (0..<pageSize).map { Item(id: "0-\($0 + 1)", title: "Item \($0 + 1)", subtitle: "Sample data") }
        loadedPages = 1
        list.reloadData()
    }

    private func refresh() {
        record(.refresh(t: now, component: "header"))
        source.load(page: 0, pageSize: pageSize) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let page):
                self.items = page
                self.loadedPages = 1
                self.list.reloadData()
                self.onItemsChanged?()
                self.header.finishedDisplayDuration = self.successDisplayDuration
                self.header.endRefreshing()
                if page.count < self.pageSize { self.footer.endRefreshingWithNoMoreData() } else { self.footer.resetNoMoreData() }
            case .failure(let error):
                // The list on screen stays; the header shows the failure.
                self.record(.error(t: self.now, message: String(describing: error)))
                self.onError?(error)
                self.header.finishedDisplayDuration = self.failureDisplayDuration
                self.header.endRefreshing(result: .failure(String(describing: error)))
            }
        }
    }

    private func loadMore() {
        record(.refresh(t: now, component: "footer"))
        source.load(page: loadedPages, pageSize: pageSize) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let page):
                self.items += page
                self.loadedPages += 1
                self.list.reloadData()
                self.onItemsChanged?()
                self.footer.finishedDisplayDuration = 0
                if page.count < self.pageSize { self.footer.endRefreshingWithNoMoreData() } else { self.footer.endRefreshing() }
            case .failure(let error):
                self.record(.error(t: self.now, message: String(describing: error)))
                self.onError?(error)
                self.footer.finishedDisplayDuration = self.failureDisplayDuration
                self.footer.endRefreshing(result: .failure(String(describing: error)))
            }
        }
    }

    // MARK: ListDataSource

    public func numberOfRows(in list: ListView) -> Int { items.count }

    public func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        guard row < items.count else { return }
        cell.titleLabel.text = items[row].title
        cell.subtitleLabel.text = items[row].subtitle
    }
}
