/// Decoded images at the size they are drawn, bounded in bytes, least recently used first out.
///
/// Gif frames and pages used to stay resident at their file's size for as long as the
/// renderer lived: 300 frames of 800x400 held 405 MB. An image larger than where it is drawn
/// is kept scaled down to that size, and the whole cache holds at most `budget` bytes.
struct ImageCache {
    /// A path at a drawn size, pixels (the decoded size where it is drawn at that size or larger).
    struct Key: Hashable {
        var path: String
        var width: Int
        var height: Int
    }

    private struct Entry {
        var surface: Surface
        var lastUse: UInt64
    }

    /// Bytes the cached pixels may take.
    var budget: Int {
        didSet { evict(toFit: 0) }
    }
    /// Bytes the cached pixels take now.
    private(set) var bytes = 0
    private var entries: [Key: Entry] = [:]
    private var uses: UInt64 = 0
    /// Images decoded so far (the rest came from the cache), for tests and statistics.
    private(set) var decoded = 0

    init(budget: Int) { self.budget = budget }

    var count: Int { entries.count }

    mutating func surface(_ key: Key) -> Surface? {
        guard var entry = entries[key] else { return nil }
        uses += 1
        entry.lastUse = uses
        entries[key] = entry
        return entry.surface
    }

    /// Keeps `surface` under `key`, evicting the least recently used until it fits; an image
    /// larger than the whole budget is drawn but not kept.
    mutating func insert(_ surface: Surface, for key: Key) {
        decoded += 1
        let size = surface.stride * surface.height
        guard size <= budget else { return }
        if let old = entries[key] { bytes -= old.surface.stride * old.surface.height }
        entries[key] = nil
        evict(toFit: size)
        uses += 1
        entries[key] = Entry(surface: surface, lastUse: uses)
        bytes += size
    }

    /// Drops least recently used entries until `extra` more bytes fit. A linear scan per
    /// eviction: the cache holds tens to hundreds of images, and evictions are rare next to hits.
    private mutating func evict(toFit extra: Int) {
        while bytes + extra > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.surface.stride * oldest.value.surface.height
            entries[oldest.key] = nil
        }
    }
}
