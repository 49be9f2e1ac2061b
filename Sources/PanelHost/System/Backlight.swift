import PanelRefresh
import Glibc
import PanelInput

/// A panel's backlight under /sys/class/backlight: off with the panel, back to its brightness
/// with it, set to a percent of its maximum by the light's levels (``LightSettings``), and
/// given back as it was found when the program stops. The udev rules give the video group
/// write access to `brightness`.
public final class Backlight {
    /// The entry's folder, e.g. /sys/class/backlight/10-0045.
    public let path: String
    private var saved: String?
    /// The brightness before the first change this program made (given back by `restore()`).
    private var found: String?

    /// The backlight at `path` (a /sys/class/backlight entry).
    public init(path: String) { self.path = path }

    /// The entry `name` asks for ("auto": the first under `root`; "none": nil), when present.
    public static func find(_ name: String, root: String = "/sys/class/backlight") -> Backlight? {
        if name == "none" { return nil }
        if name == "auto" {
            let entries = DirectoryNames.of(root)?.sorted() ?? []
            return entries.first.map { Backlight(path: root + "/" + $0) }
        }
        return Folders.exists(root + "/" + name) ? Backlight(path: root + "/" + name) : nil
    }

    /// The backlight a configuration blanks with: nil when it never blanks
    /// (`display.blank-after` 0) or names none or one that is not there. `current`, the one in
    /// use, is kept when it is the same entry, with the brightness it remembers; a reload that
    /// turns blanking on or names another entry gets it here, as a fresh start would.
    public static func chosen(for c: Configuration, current: Backlight?, root: String = "/sys/class/backlight") -> Backlight? {
        guard c.blankAfter > 0 || c.light.setsLevel, let found = find(c.backlight, root: root) else { return nil }
        return found.path == current?.path ? current : found
    }

    /// Remembers the brightness and writes 0.
    public func off() throws {
        let current = try read("brightness")
        if found == nil { found = current }
        if current != "0" { saved = current }
        try write("brightness", "0")
    }

    /// Sets the brightness to `percent` of `max_brightness` (rounded, at least 1: some
    /// drivers turn the light off at 0).
    public func set(percent: Int) throws {
        if found == nil { found = try read("brightness") }
        guard let maximum = Int(try read("max_brightness")), maximum > 0 else {
            throw BacklightError(path: path + "/max_brightness", errno: EINVAL)
        }
        let value = max(1, Int((Double(maximum) * Double(max(0, min(100, percent))) / 100).rounded()))
        try write("brightness", String(value))
        saved = String(value)
    }

    /// The brightness as it was before this program changed it; nothing when it never did.
    public func restore() throws {
        guard let found else { return }
        try write("brightness", found)
        saved = found
    }

    /// The brightness from before `off()`, else the maximum.
    public func on() throws {
        let value: String
        if let saved { value = saved } else { value = try read("max_brightness") }
        try write("brightness", value)
    }

    private func read(_ file: String) throws -> String {
        do {
            let bytes = try BoundedFile.read(path + "/" + file, limit: 64)
            return TextFormat.trimmed(String(decoding: bytes, as: UTF8.self), newlines: true)
        } catch .tooLarge {
            throw BacklightError(path: path + "/" + file, errno: EFBIG)
        } catch .unreadable(let code) {
            throw BacklightError(path: path + "/" + file, errno: code)
        } catch .notRegular {
            throw BacklightError(path: path + "/" + file, errno: EINVAL)
        }
    }

    private func write(_ file: String, _ value: String) throws {
        let target = path + "/" + file
        let fd = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw BacklightError(path: target, errno: errno) }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw BacklightError(path: target, errno: errno) }
    }
}

/// A backlight file that could not be read or written.
public struct BacklightError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why it failed.
    public var errno: Int32
    /// The file and the C library's reason.
    public var description: String { "backlight \(path): \(String(cString: strerror(errno))) (errno \(errno))" }
}
