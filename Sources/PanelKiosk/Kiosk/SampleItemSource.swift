import Glibc
import PanelHost

/// The built-in sample: `pages` pages of made-up items, each load taking `delay` seconds of the
/// scene's clock (so replays and tests run in virtual time).
@MainActor
public final class SampleItemSource: ItemSource {
    /// Pages there are; the next is empty.
    public let pages: Int
    /// Seconds a load takes (on the animator's clock).
    public var delay: Double
    private let animator: Animator
    private var generation = 0

    /// A source of `pages` pages, each load taking `delay` seconds of `animator`'s clock.
    public init(pages: Int = 3, delay: Double = 1, animator: Animator) {
        (self.pages, self.delay, self.animator) = (pages, delay, animator)
    }

    /// Made-up items for `page` after `delay` seconds of the animator's clock; empty past the last page.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        if page == 0 { generation += 1 }
        let generation = self.generation
        let count = page < pages ? pageSize : 0
        let items = (0..<count).map { i -> Item in
            let n = page * pageSize + i + 1
            return Item(id: "\(generation)-\(n)", title: "Item \(n)", subtitle: "Refresh \(generation), page \(page + 1)")
        }
        animator.schedule(nil, after: delay) { completion(.success(ItemPage(items: items))) }
    }
}
