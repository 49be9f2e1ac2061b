import PanelHost

/// The list as an MQTT broker pushes it: each message on `data.mqtt-topic` is a JSON document
/// of items, as `data.file` holds. The ``FleetLink`` hands it every message; a load answers
/// with the newest one, parsed off the loop. Before the first message a load waits for it (the
/// header spins, the panel's first frame shows "loading"), since the broker sends the retained
/// list at connect. A message over ``ItemParser/maxBytes`` or malformed fails that load only:
/// the list on screen stays and the failure shows, as for any source.
@MainActor
public final class MQTTListSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's parse runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The topic, for messages and errors.
    public let topic: String
    /// The newest message's bytes, nil before the first.
    private var latest: [UInt8]?
    /// Messages received; a load remembers which it answered with (``isBehind``).
    private var received = 0, answered = 0
    /// A load that came before the first message, answered when it comes.
    private var waiting: (page: Int, pageSize: Int, completion: @MainActor (Result<ItemPage, Error>) -> Void)?

    /// A source for the messages on `topic`, parsed on `executor`'s workers.
    public init(topic: String, executor: any WorkExecutor) { (self.topic, self.executor) = (topic, executor) }

    /// Whether a message came after the one the last load answered with: the link then asks
    /// for a refresh (one that could not start while another ran is asked again later).
    public var isBehind: Bool { received > answered }

    /// A message on the topic: kept as the newest, and a load waiting for the first is answered.
    public func receive(_ payload: [UInt8]) {
        latest = payload
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
        let source = "mqtt topic \(topic)", fields = fields
        executor.execute(in: nil, {
            Result {
                guard bytes.count <= ItemParser.maxBytes else { throw DataSourceError.tooLarge(source: source, limit: ItemParser.maxBytes) }
                return ItemPage(items: ItemParser.page(try ItemParser.parse(bytes, source: source, fields: fields), page: page, size: pageSize))
            }
        }, then: completion)
    }
}
