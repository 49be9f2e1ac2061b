import Glibc
import PanelHost

/// A fresh, empty directory under the temporary one, removed with the value: the state
/// directory of a virtual-time command (replay, demo, expected frame), so that what an earlier
/// run saved (the last-updated time) never changes what this one shows.
final class ScratchDirectory {
    /// The directory's path.
    let path: String

    /// Creates `…/panel-refresh-NAME-XXXXXX` with `mkdtemp` (a new name, mode 0700, never one
    /// that is there already).
    init(_ name: String) throws(Folders.Failure) {
        let folder = Folders.temporary
        try Folders.create(folder)
        var template = Array("\(folder)/panel-refresh-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Folders.Failure(path: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), errno: errno)
        }
        path = String(cString: made)
    }

    deinit { Folders.removeTree(path) }
}
