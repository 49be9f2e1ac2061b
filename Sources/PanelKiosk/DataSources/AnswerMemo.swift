import Glibc
import PanelHost

/// What a file or command source answered last for each page, and the fingerprint of what it
/// answered from: the same fingerprint again is an unchanged page (nothing parsed). Shared by
/// the loads that run at once on the worker queue.
final class AnswerMemo: Sendable {
    /// What an answer came from: the bytes' hash, and a file's size and time.
    struct Fingerprint: Sendable, Equatable {
        /// `FNV1a` of the bytes.
        var hash: UInt64
        /// The file's size and modification time (nil for a command's output).
        var stamp: BoundedFile.Stamp?
        /// Items per page asked (a page of another size is another answer).
        var pageSize: Int
    }
    private let pages = Locked<[Int: (Fingerprint, [Item])]>([:])

    /// The page's items as answered from `fingerprint`, unchanged when the last answer for
    /// `page` came from the same; else `parse()`, remembered.
    func answer(page: Int, fingerprint: Fingerprint, parse: () throws -> [Item]) rethrows -> ItemPage {
        if let (last, items) = pages.withLock({ $0[page] }), last == fingerprint {
            return ItemPage(items: items, isUnchanged: true)
        }
        let items = try parse()
        pages.withLock { $0[page] = (fingerprint, items) }
        return ItemPage(items: items)
    }
}
