import PanelHost

/// The list as an MQTT broker pushes it: each message on `data.mqtt-topic` is a JSON document
/// of items, as `data.file` holds. The ``FleetLink`` hands it every message; a load answers
/// with the newest one, parsed off the loop. Before the first message a load waits for it (the
/// header spins, the panel's first frame shows "loading"), since the broker sends the retained
/// list at connect. A message over ``ItemParser/maxBytes`` or malformed fails that load only:
/// the list on screen stays and the failure shows, as for any source; later loads answer with
/// the last good message (every refresh and pull after one malformed message failed, though
/// the broker still held the good retained list).
@MainActor
public final class MQTTListSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's parse runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The topic, for messages and errors.
    public let topic: String
    /// The newest message's bytes, nil before the first; after a load found it malformed, the
    /// last good one again.
    private var latest: [UInt8]?
    /// The last message a load parsed whole, nil before one.
    private var lastGood: [UInt8]?
    /// Counts the messages kept as `latest`: a load's outcome is about the one it read.
    private var generation = 0
    /// Messages received; a load remembers which it answered with (``isBehind``).
    private var received = 0, answered = 0
    /// The last answer for each page and the message's hash: the same list again (the retained
    /// message at a reconnect, a publisher that resends it) is an unchanged refresh, counted
    /// and logged as a 304 is, not "the list changed".
    private let memo = AnswerMemo()
    /// A load that came before the first message, answered when it comes.
    private var waiting: (page: Int, pageSize: Int, completion: @MainActor (Result<ItemPage, Error>) -> Void)?

    /// A source for the messages on `topic`, parsed on `executor`'s workers.
    public init(topic: String, executor: any WorkExecutor) { (self.topic, self.executor) = (topic, executor) }

    /// Whether a message came after the one the last load answered with: the link then asks
    /// for a refresh (one that could not start while another ran is asked again later).
    public var isBehind: Bool { received > answered }

    /// The source as errors and the journal name it.
    private var sourceName: String { "mqtt topic \(topic)" }

    /// Whether a load waits for the first message.
    public var isWaiting: Bool { waiting != nil }

    /// No message came within `seconds` of the connection: the load that waits for the first
    /// fails with why (the list's place says it, `ctl status` has the detail); the first message
    /// that comes later is asked for as any new one is (``isBehind``).
    public func stopWaiting(seconds: Double) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.completion(.failure(DataSourceError.nothingPublished(source: sourceName, seconds: seconds)))
    }

    /// A message on the topic: kept as the newest, and a load waiting for the first is answered.
    public func receive(_ payload: [UInt8]) {
        latest = payload
        generation += 1
        received += 1
        if let waiting {
            self.waiting = nil
            load(page: waiting.page, pageSize: waiting.pageSize, completion: waiting.completion)
        }
    }

    /// The newest message's `page`-th slice of items; before the first message, when it comes.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        guard let bytes = latest else {
            waiting = (page, pageSize, completion)
            return
        }
        answered = received
        let source = sourceName, fields = fields, read = generation, memo = memo
        executor.execute(in: nil, {
            Result {
                guard bytes.count <= ItemParser.maxBytes else { throw DataSourceError.tooLarge(source: source, limit: ItemParser.maxBytes) }
                let fingerprint = AnswerMemo.Fingerprint(hash: FNV1a.hash(bytes), stamp: nil, pageSize: pageSize)
                return try memo.answer(page: page, fingerprint: fingerprint) {
                    ItemParser.page(try ItemParser.parse(bytes, source: source, fields: fields), page: page, size: pageSize)
                }
            }
        }, then: { [weak self] result in
            self?.loaded(bytes, generation: read, ok: (try? result.get()) != nil)
            completion(result)
        })
    }

    /// A load of `bytes` ended: a good message is the one to fall back on; a bad one that is
    /// still the newest gives way to the last good one (its failure was shown once).
    private func loaded(_ bytes: [UInt8], generation read: Int, ok: Bool) {
        if ok {
            lastGood = bytes
        } else if read == generation, let lastGood {
            latest = lastGood
        }
    }
}
