import Glibc

/// An evemu file format version ("# EVEMU 1.3").
public struct EvemuVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The format's major version.
    public var major: Int
    /// The format's minor version.
    public var minor: Int

    /// Version `major`.`minor`.
    public init(major: Int, minor: Int) { (self.major, self.minor) = (major, minor) }

    /// What the reader assumes when a file has no version line.
    public static let v1_0 = EvemuVersion(major: 1, minor: 0)
    /// What the writer produces: evemu's current `EVEMU_FILE_MAJOR/MINOR`.
    public static let v1_3 = EvemuVersion(major: 1, minor: 3)

    /// Ordered by major, then minor.
    public static func < (a: EvemuVersion, b: EvemuVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
    /// "major.minor".
    public var description: String { "\(major).\(minor)" }
}

/// A recording: a device description and the events it sent.
public struct EvemuRecording: Sendable, Hashable {
    /// The format version of the file.
    public var version: EvemuVersion
    /// The recorded device.
    public var device: DeviceDescription
    /// The events, time stamps from the first.
    public var events: [InputEvent]

    /// A recording of `events` from `device`.
    public init(version: EvemuVersion = .v1_3, device: DeviceDescription, events: [InputEvent]) {
        (self.version, self.device, self.events) = (version, device, events)
    }

    /// Reads an evemu file, or the split form: a description file (`.desc`, `.prop`) and an
    /// events file.
    public static func load(path: String, descriptionPath: String? = nil) throws -> EvemuRecording {
        let text = try readText(path)
        guard let descriptionPath else { return try EvemuParser.parse(text, file: path) }
        return try EvemuParser.parse(description: try readText(descriptionPath), descriptionFile: descriptionPath,
                                     events: text, eventsFile: path)
    }

    /// The largest recording read: 256 MiB, hours of a busy multi-touch panel (about 40 bytes
    /// an event, a few thousand events a second); a path to /dev/zero is refused, not read on.
    public static let maxBytes = 256 << 20

    private static func readText(_ path: String) throws -> String {
        let bytes: [UInt8]
        do {
            // A recording may be piped in (`replay /dev/stdin`); it is still bounded in size.
            bytes = try BoundedFile.read(path, limit: maxBytes, accepts: .streams)
        } catch {
            throw EvemuError(file: path, line: 0, reason: error.explanation(limit: maxBytes))
        }
        // Device names may hold any bytes; decode leniently rather than refuse the file.
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A file that is not a valid evemu recording: where and why.
public struct EvemuError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file that could not be read.
    public var file: String
    /// 1-based line number; 0 when the file as a whole is at fault.
    public var line: Int
    /// What is wrong there.
    public var reason: String

    /// An error at `line` of `file`.
    public init(file: String, line: Int, reason: String) { (self.file, self.line, self.reason) = (file, line, reason) }

    /// "FILE:LINE: reason" (without a line when the whole file is meant).
    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}
