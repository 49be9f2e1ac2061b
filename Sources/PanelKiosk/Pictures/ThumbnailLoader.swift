import PanelHost

/// Rows' pictures, fetched and decoded by a bounded number of workers off the run loop, each
/// once at the size it is drawn, kept in memory bounded in bytes (and on disk, for URLs,
/// through a `DiskPictureCache`). The renderer draws them by name (`ImageSupplier`); nothing
/// is decoded on the frame path.
///
/// Two lanes: files and pictures the disk cache holds fresh are read and decoded by the
/// `workers` of their own lane, which never waits on a network; a picture that must be
/// downloaded (or revalidated) moves to the network lane, `fetches` at once. With one lane,
/// two slow downloads (a server answering after 4 s) had held both workers, and every row,
/// local files included, showed the placeholder until they ended.
///
/// A row asks with `want` when it is configured and lets go with `release` when it scrolls
/// away: a picture no row wants is taken off the queue, or its fetch is cancelled. Pictures a
/// row on screen shows are never evicted; the rest go least recently used first.
@MainActor
public final class ThumbnailLoader: ImageSupplier {
    /// One picture at one drawn size.
    public struct Request: Hashable, Sendable {
        /// The picture's absolute path or http(s) URL.
        public var source: String
        /// Pixels across and down, as drawn.
        public var width: Int, height: Int
        /// A request for `source` drawn `width` x `height` pixels.
        public init(source: String, width: Int, height: Int) { (self.source, self.width, self.height) = (source, width, height) }
        /// The name the renderer knows the decoded picture by.
        public var name: String { "\(width)x\(height) \(source)" }
    }

    private struct Kept { var surface: Surface; var bytes: Int; var lastUse: UInt64 }

    /// Bytes the decoded pictures may take together.
    public var budget: Int { didSet { evict() } }
    /// Files and disk-cached pictures read and decoded at once, at most.
    public let workers: Int
    /// Downloads (with their decoding) at once, at most, beside the file lane.
    public let fetches: Int
    /// What one picture may cost.
    public var limits: PictureLimits
    /// Where fetched URLs are kept across scrolls and restarts (nil: memory only).
    public let disk: DiskPictureCache?
    /// Where the jobs run and how their pictures come back (the host's): a lane per slot.
    public let executor: any WorkExecutor
    /// Hears a wanted picture become ready or fail (the session shows it in the rows that
    /// want it).
    public var onChange: ((Request) -> Void)?
    /// Hears each failure (the program logs it once per picture).
    public var onFailure: ((Request, PictureError) -> Void)?
    /// Hears, on the worker's thread, each job's end before its result goes to the run loop,
    /// with its lane (true: the network's): what ran while what, whatever the loop is doing.
    public var onWorkerDone: (@Sendable (Request, Bool) -> Void)?

    /// Whether memory freed by evictions goes back to the system (`FreedMemory.giveBack`):
    /// every `trimStep` bytes evicted while the list moves, and when it stops
    /// (`returnFreedMemory`). Without it, a list scrolled past a thousand pictures kept the
    /// heap's high-water mark (docs/deployment.md, "Memory that comes back").
    public var returnsFreedMemory = true
    /// Bytes evicted between two returns while pictures keep coming: 2 MiB.
    public static let trimStep = 2 << 20
    /// Bytes evicted since memory was last given back.
    private var evictedSinceTrim = 0
    /// How often freed memory was given back.
    public private(set) var memoryReturns = 0

    private var kept: [String: Kept] = [:]
    private var failed: [String: PictureError] = [:]
    private var pins: [Request: Int] = [:]
    /// Wanted, not started: the newest last (taken first: the rows that just came on screen).
    private var queue: [Request] = []
    /// Wanted, found to need the network, not started (the newest last).
    private var networkQueue: [Request] = []
    /// Jobs under way, each with its lane and its slot in it.
    private var running: [Request: (flag: CancelFlag, network: Bool, slot: Int)] = [:]
    private var uses: UInt64 = 0
    /// One executor lane per slot of each lane: in real time a serial queue each, which runs
    /// on libdispatch's overcommit threads, one each however many block; a concurrent queue
    /// runs on the default pool, which on Linux has as many threads as cores: two downloads
    /// blocked in libcurl took both cores' threads, and the file lane's jobs waited behind them
    /// after all.
    private let fileSlots: [WorkLane]
    private let networkSlots: [WorkLane]

    /// Failures remembered (so a broken picture is not fetched at every scroll) until
    /// `forgetFailures()` (a refresh): 4,096 names, some hundreds of KB at most.
    static let maxFailures = 4096

    /// Bytes the decoded pictures take now.
    public private(set) var bytesUsed = 0
    /// Pictures decoded so far.
    public private(set) var decoded = 0
    /// Jobs dropped or cancelled because their rows scrolled away.
    public private(set) var cancelled = 0
    /// Jobs started so far.
    public private(set) var started = 0
    /// Pictures in memory now.
    public var count: Int { kept.count }
    /// Rows that wanted a picture and found it decoded in memory.
    public private(set) var hits = 0
    /// Rows that wanted a picture not in memory (it was queued, or had failed).
    public private(set) var misses = 0
    /// Jobs waiting or running now.
    public var pending: Int { queue.count + networkQueue.count + running.count }
    /// Downloads under way now.
    public var downloading: Int { running(network: true) }

    /// Jobs under way in a lane.
    private func running(network: Bool) -> Int { running.values.filter { $0.network == network }.count }

    /// A loader keeping `budget` bytes of decoded pictures, reading `workers` files (or disk
    /// copies) and running `fetches` downloads at once, on `executor`'s lanes.
    public init(budget: Int = 16 << 20, workers: Int = 1, fetches: Int = 2, limits: PictureLimits = PictureLimits(),
                disk: DiskPictureCache? = nil, executor: any WorkExecutor) {
        (self.budget, self.workers, self.fetches, self.limits, self.disk) = (max(0, budget), max(1, workers), max(1, fetches), limits, disk)
        self.executor = executor
        fileSlots = (0..<max(1, workers)).map { executor.lane("panel-refresh.pictures.file-\($0)") }
        networkSlots = (0..<max(1, fetches)).map { executor.lane("panel-refresh.pictures.network-\($0)") }
    }

    /// What the row wanting `request` shows now: the picture (`size` points), the placeholder
    /// while it loads, or the broken mark. Starts the job when there is none.
    public func want(_ request: Request, size: Size) -> RowPicture {
        pins[request, default: 0] += 1
        if kept[request.name] != nil { hits += 1 } else { misses += 1 }
        if kept[request.name] == nil, failed[request.name] == nil, running[request] == nil, !queue.contains(request),
           !networkQueue.contains(request) {
            // A URL with no disk cache to look in goes straight to the network lane.
            if disk == nil && PictureFetch.isURL(request.source) { networkQueue.append(request) } else { queue.append(request) }
            pump()
        }
        return picture(request, size: size)
    }

    /// What a row wanting `request` shows now (without wanting it).
    public func picture(_ request: Request, size: Size) -> RowPicture {
        if kept[request.name] != nil { return .shown(ImageReference(supplied: request.name, size: size)) }
        return failed[request.name] == nil ? .loading : .failed
    }

    /// A row no longer shows `request`: when no row does, its job is dropped or cancelled.
    public func release(_ request: Request) {
        guard let count = pins[request] else { return }
        guard count <= 1 else { pins[request] = count - 1; return }
        pins[request] = nil
        if let at = queue.firstIndex(of: request) {
            queue.remove(at: at)
            cancelled += 1
        } else if let at = networkQueue.firstIndex(of: request) {
            networkQueue.remove(at: at)
            cancelled += 1
        } else if let job = running[request] {
            job.flag.set()
        }
    }

    /// Failed pictures are tried again when next wanted (after a refresh: the server may be back).
    public func forgetFailures() { failed.removeAll() }

    /// The decoded picture named `name`, at its drawn size.
    public func surface(named name: String) -> Surface? {
        guard kept[name] != nil else { return nil }
        uses += 1
        kept[name]?.lastUse = uses
        return kept[name]?.surface
    }

    /// Starts waiting jobs while their lane has a free worker: the network lane first (its
    /// jobs wait on a server, not on the CPU), then the file lane.
    private func pump() {
        while running(network: true) < fetches, let request = networkQueue.popLast() {
            start(request, network: true)
        }
        while running(network: false) < workers, let request = queue.popLast() {
            start(request, network: false)
        }
    }

    private func start(_ request: Request, network: Bool) {
        let flag = CancelFlag()
        let taken = Set(running.values.filter { $0.network == network }.map(\.slot))
        let slot = (0...).first { !taken.contains($0) } ?? 0
        running[request] = (flag, network, slot)
        started += 1
        let (limits, disk, told) = (limits, disk, onWorkerDone)
        let job: @Sendable () -> PictureFetch.Outcome = {
            guard !flag.isSet else { return .done(.failure(.cancelled)) }
            let outcome = PictureFetch.thumbnail(request.source, width: request.width, height: request.height,
                                                 limits: limits, disk: disk, cancel: flag, network: network)
            told?(request, network)
            return outcome
        }
        let slots = network ? networkSlots : fileSlots
        executor.execute(in: slots[min(slot, slots.count - 1)], job) { [weak self] outcome in self?.finish(request, outcome) }
    }

    private func finish(_ request: Request, _ outcome: PictureFetch.Outcome) {
        running[request] = nil
        let result: Result<Bitmap, PictureError>
        switch outcome {
        case .needsNetwork:
            // Not on the disk, or stale there: its turn in the network lane, if still wanted.
            if pins[request] != nil { networkQueue.append(request) } else { cancelled += 1 }
            pump()
            return
        case .done(let done):
            result = done
        }
        switch result {
        case .success(let bitmap):
            decoded += 1
            // Kept even when no row wants it now: it was paid for, and the row may come back.
            uses += 1
            kept[request.name] = Kept(surface: bitmap.surface(), bytes: bitmap.bytes, lastUse: uses)
            bytesUsed += bitmap.bytes
            evict()
            if pins[request] != nil { onChange?(request) }
        case .failure(.cancelled):
            cancelled += 1
        case .failure(let error):
            if failed.count >= Self.maxFailures { failed.removeAll() }
            failed[request.name] = error
            onFailure?(request, error)
            if pins[request] != nil { onChange?(request) }
        }
        pump()
    }

    /// Drops the least recently used pictures no row shows until the rest fit the budget.
    private func evict() {
        guard bytesUsed > budget else { return }
        let shown = Set(pins.keys.map(\.name))
        let order = kept.filter { !shown.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (name, entry) in order {
            guard bytesUsed > budget else { break }
            kept[name] = nil
            bytesUsed -= entry.bytes
            evictedSinceTrim += entry.bytes
        }
        if evictedSinceTrim >= Self.trimStep { returnFreedMemory() }
    }

    /// Whether evictions freed memory that has not gone back yet.
    public var holdsFreedMemory: Bool { returnsFreedMemory && evictedSinceTrim > 0 }

    /// Gives the memory evictions freed back to the system, when there is any (the list
    /// asks when nothing moves).
    public func returnFreedMemory() {
        guard holdsFreedMemory else { return }
        evictedSinceTrim = 0
        memoryReturns += 1
        FreedMemory.giveBack()
    }
}
