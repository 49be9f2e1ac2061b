import Dispatch
import FoundationEssentials
import PanelRefresh
import Glibc
import PanelInput

/// Why a data source gave no page.
public enum DataSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    case exitStatus(command: String, status: Int32, stderr: String)
    case timeout(source: String, seconds: Double)
    case unreachable(source: String, reason: String)
    case malformed(source: String, reason: String)
    case tooLarge(source: String, limit: Int)
    /// Slower than `bytesPerSecond` for `seconds`: a server that trickles.
    case stalled(source: String, bytesPerSecond: Int, seconds: Int)

    public var description: String {
        switch self {
        case let .exitStatus(command, status, stderr):
            return "\(command) exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr.prefix(200))")
        case let .timeout(source, seconds): return "\(source) gave no answer within \(seconds) s"
        case let .unreachable(source, reason): return "\(source) is unreachable: \(reason)"
        case let .malformed(source, reason): return "\(source) sent something that is not a list of items: \(reason)"
        case let .tooLarge(source, limit): return "\(source) sent more than \(limit) bytes"
        case let .stalled(source, rate, seconds): return "\(source) sent less than \(rate) bytes/s for \(seconds) s"
        }
    }
}

/// Items from JSON: an array of objects, or one object per line (JSON lines), each with a
/// string `title` and optional `subtitle` and `id` (string or number).
public enum ItemParser {
    /// Output larger than this is refused (a kiosk list, not a database dump): 4 MiB.
    public static let maxBytes = 4 << 20

    /// Which fields of an item hold the title and the subtitle (`[rows]` in the configuration).
    public struct Fields: Sendable, Equatable {
        public var title = "title"
        public var subtitle = "subtitle"
        public init(title: String = "title", subtitle: String = "subtitle") {
            self.title = title
            self.subtitle = subtitle
        }
    }

    public static func parse(_ data: Data, source: String, fields: Fields = Fields()) throws -> [Item] {
        guard data.count <= maxBytes else { throw DataSourceError.tooLarge(source: source, limit: maxBytes) }
        let objects: [JSONValue]
        if case .array(let array)? = try? JSONValue.parse(data) {
            objects = array
        } else {
            var lines: [JSONValue] = []
            for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
                let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }
                if trimmed.isEmpty { continue }
                guard let object = try? JSONValue.parse(Data(trimmed)) else {
                    throw DataSourceError.malformed(source: source, reason: "line \(number + 1) is not JSON")
                }
                lines.append(object)
            }
            guard !lines.isEmpty || data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) else {
                throw DataSourceError.malformed(source: source, reason: "not a JSON array or JSON lines")
            }
            objects = lines
        }
        let names = fields
        return try objects.enumerated().map { index, value in
            guard case .object(let object) = value else {
                throw DataSourceError.malformed(source: source, reason: "item \(index + 1) is not an object")
            }
            guard let title = object[names.title]?.string else {
                throw DataSourceError.malformed(source: source, reason: "item \(index + 1) has no string \"\(names.title)\"")
            }
            let id: String
            switch object["id"] {
            case .string(let s)?: id = s
            case .integer(let n)?: id = String(n)
            case .number(let d)?: id = "\(d)"
            default: id = "\(index + 1)"
            }
            return Item(id: id, title: title, subtitle: object[names.subtitle]?.string ?? "")
        }
    }

    /// The `page`-th slice of a whole document's items.
    static func page(_ items: [Item], page: Int, size: Int) -> [Item] {
        let start = page * size
        guard start < items.count else { return [] }
        return Array(items[start..<min(items.count, start + size)])
    }
}

/// Work done off the main actor, its result handed back to it.
enum Background {
    static let queue = DispatchQueue(label: "panel-refresh.data", attributes: .concurrent)

    static func run(_ work: @escaping @Sendable () -> Result<[Item], Error>,
                    then completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        queue.async {
            let result = work()
            Task { @MainActor in completion(result) }
        }
    }
}

/// Runs a program for each page: `executable arguments... PAGE`, with PANEL_REFRESH_PAGE and
/// PANEL_REFRESH_PAGE_SIZE in its environment; its stdout is the page's items. Killed after
/// `timeout` seconds.
@MainActor
public final class CommandItemSource: ItemSource {
    public var fields = ItemParser.Fields()
    public let executable: String
    public let arguments: [String]
    public var timeout: Double

    public init(executable: String, arguments: [String] = [], timeout: Double = 10) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
    }

    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let executable = executable, arguments = arguments + [String(page)], timeout = timeout, fields = fields
        Background.run({ Result { try Self.run(executable, arguments, page: page, pageSize: pageSize, timeout: timeout, fields: fields) } },
                       then: completion)
    }

    nonisolated static func run(_ executable: String, _ arguments: [String], page: Int, pageSize: Int, timeout: Double,
                                fields: ItemParser.Fields) throws -> [Item] {
        var environment = ProcessInfo.processInfo.environment
        environment["PANEL_REFRESH_PAGE"] = String(page)
        environment["PANEL_REFRESH_PAGE_SIZE"] = String(pageSize)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments, environment: environment,
                                           limits: ChildProcess.Limits(timeout: timeout, stdoutBytes: ItemParser.maxBytes))
        } catch .spawn(let code) {
            throw DataSourceError.unreachable(source: executable, reason: String(cString: strerror(code)))
        } catch .timedOut(let overflowed) {
            if overflowed { throw DataSourceError.tooLarge(source: executable, limit: ItemParser.maxBytes) }
            throw DataSourceError.timeout(source: executable, seconds: timeout)
        }
        if outcome.stdoutOverflowed { throw DataSourceError.tooLarge(source: executable, limit: ItemParser.maxBytes) }
        guard outcome.exitCode == 0 else {
            let stderr = TextFormat.trimmed(String(decoding: outcome.stderrTail, as: UTF8.self), newlines: true)
            // A signal shows as the shell shows it: 128 + its number.
            throw DataSourceError.exitStatus(command: executable, status: outcome.exitCode ?? 128 + outcome.signal, stderr: stderr)
        }
        return try ItemParser.parse(Data(outcome.stdout), source: executable, fields: fields)
    }
}

/// A JSON file, read again on every load (so a pull shows what it holds now).
@MainActor
public final class FileItemSource: ItemSource {
    public var fields = ItemParser.Fields()
    public let path: String

    public init(path: String) { self.path = path }

    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let path = path, fields = fields
        Background.run({
            Result {
                let bytes: [UInt8]
                do throws(BoundedFile.Failure) {
                    bytes = try BoundedFile.read(path, limit: ItemParser.maxBytes)
                } catch .tooLarge {
                    throw DataSourceError.tooLarge(source: path, limit: ItemParser.maxBytes)
                } catch .unreadable(let code) {
                    throw DataSourceError.unreachable(source: path, reason: "cannot read the file: \(String(cString: strerror(code)))")
                }
                return ItemParser.page(try ItemParser.parse(Data(bytes), source: path, fields: fields), page: page, size: pageSize)
            }
        }, then: completion)
    }
}

/// A JSON document over HTTP(S). "{page}" and "{size}" in the URL are replaced; without them
/// the whole document is fetched and paged here.
@MainActor
public final class HTTPItemSource: ItemSource {
    public var fields = ItemParser.Fields()
    public let url: String
    public var timeout: Double

    public init(url: String, timeout: Double = 10) {
        self.url = url
        self.timeout = timeout
    }

    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let template = url, timeout = timeout, fields = fields
        let paged = template.contains("{page}")
        let text = template.replacing("{page}", with: String(page)).replacing("{size}", with: String(pageSize))
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            completion(.failure(DataSourceError.unreachable(source: text, reason: "not an http(s) URL")))
            return
        }
        Background.run({
            Result {
                let body = try HTTPFetch.get(text, limits: HTTPLimits(timeout: timeout))
                let items = try ItemParser.parse(Data(body), source: text, fields: fields)
                return paged ? items : ItemParser.page(items, page: page, size: pageSize)
            }
        }, then: completion)
    }
}
