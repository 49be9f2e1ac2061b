import FoundationEssentials

/// A fresh, empty directory under the temporary one, removed with the value: the state
/// directory of a virtual-time command (replay, demo, expected frame), so that what an earlier
/// run saved (the last-updated time) never changes what this one shows.
final class ScratchDirectory {
    /// The directory's path.
    let path: String

    /// Creates `…/panel-refresh-NAME-UUID`.
    init(_ name: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("panel-refresh-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
