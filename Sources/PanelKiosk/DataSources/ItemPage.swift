import PanelHost

/// One page as a data source answered it: its items, and what the kiosk's refresh schedule,
/// metrics and list need to know about the answer.
public struct ItemPage: Sendable, Equatable {
    /// The page's items (for a page the source says is unchanged, the same items it answered
    /// last time).
    public var items: [Item]
    /// Whether these are the items this source answered last time for this page: an HTTP 304,
    /// a file whose size, time and contents are as they were, a command that printed the same
    /// bytes. A refresh that gets it keeps the list as it is (nothing parsed, nothing redrawn)
    /// and counts as a success.
    public var isUnchanged: Bool
    /// Seconds the answer is fresh (`Cache-Control: max-age`): the kiosk asks again by itself
    /// no sooner. Nil: the source says nothing.
    public var freshFor: Double?
    /// Whether the server answered 304 Not Modified (the metrics count these).
    public var notModified: Bool
    /// Bytes that came over the wire for this answer (headers and body as sent); 0 for a file
    /// or a command.
    public var bytesFetched: Int

    /// A page of `items`; the rest as a source that says nothing more (changed, no freshness,
    /// nothing fetched).
    public init(items: [Item], isUnchanged: Bool = false, freshFor: Double? = nil, notModified: Bool = false, bytesFetched: Int = 0) {
        (self.items, self.isUnchanged, self.freshFor, self.notModified, self.bytesFetched) = (items, isUnchanged, freshFor, notModified, bytesFetched)
    }
}
