import Glibc
import PanelHost

/// A JSON file, read again on every load (so a pull shows what it holds now). A file whose
/// size, modification time and contents are as at the last load of the page is unchanged
/// (not parsed again).
@MainActor
public final class FileItemSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's work runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The JSON file.
    public let path: String
    private let memo = AnswerMemo()

    /// A source reading `path` on `executor`'s workers.
    public init(path: String, executor: any WorkExecutor) { (self.path, self.executor) = (path, executor) }

    /// Reads the file again off the main actor and answers with the `page`-th slice of its items.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let path = path, fields = fields, memo = memo
        executor.execute(in: nil, {
            Result {
                let read: (bytes: [UInt8], stamp: BoundedFile.Stamp)
                do throws(BoundedFile.Failure) {
                    read = try BoundedFile.readStamped(path, limit: ItemParser.maxBytes)
                } catch .tooLarge {
                    throw DataSourceError.tooLarge(source: path, limit: ItemParser.maxBytes)
                } catch {
                    throw DataSourceError.unreachable(source: path, reason: error.explanation(limit: ItemParser.maxBytes))
                }
                let fingerprint = AnswerMemo.Fingerprint(hash: FNV1a.hash(read.bytes), stamp: read.stamp, pageSize: pageSize)
                return try memo.answer(page: page, fingerprint: fingerprint) {
                    ItemParser.page(try ItemParser.parse(read.bytes, source: path, fields: fields), page: page, size: pageSize)
                }
            }
        }, then: completion)
    }
}
