import Dispatch
import FoundationEssentials
import PanelRefresh
import Glibc
import PanelInput

/// Why a data source gave no page.
public enum DataSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A command ended with `status`; its last stderr line says why.
    case exitStatus(command: String, status: Int32, stderr: String)
    /// No answer within `seconds`.
    case timeout(source: String, seconds: Double)
    /// The source could not be reached (no such program, file or host).
    case unreachable(source: String, reason: String)
    /// The answer is not a list of items.
    case malformed(source: String, reason: String)
    /// The answer is larger than `limit` bytes.
    case tooLarge(source: String, limit: Int)
    /// Slower than `bytesPerSecond` for `seconds`: a server that trickles.
    case stalled(source: String, bytesPerSecond: Int, seconds: Int)
    /// Given up because nothing wants the answer any more (a picture's row scrolled away).
    case cancelled(source: String)

    /// What happened, with every URL's password and secret-looking query values masked
    /// (`Redaction`): this text goes to the journal and to STATUS.
    public var description: String { Redaction.redact(plainDescription) }

    private var plainDescription: String {
        switch self {
        case let .exitStatus(command, status, stderr):
            return "\(command) exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr.prefix(200))")
        case let .timeout(source, seconds): return "\(source) gave no answer within \(seconds) s"
        case let .unreachable(source, reason): return "\(source) is unreachable: \(reason)"
        case let .malformed(source, reason): return "\(source) sent something that is not a list of items: \(reason)"
        case let .tooLarge(source, limit): return "\(source) sent more than \(limit) bytes"
        case let .stalled(source, rate, seconds): return "\(source) sent less than \(rate) bytes/s for \(seconds) s"
        case let .cancelled(source): return "\(source) was no longer wanted"
        }
    }
}

/// Items from JSON: an array of objects, or one object per line (JSON lines), each with a
/// string `title` and optional `subtitle` and `id` (string or number).
public enum ItemParser {
    /// Output larger than this is refused (a kiosk list, not a database dump): 4 MiB.
    public static let maxBytes = 4 << 20

    /// Which fields of an item hold what a row shows (`[rows]` in the configuration).
    public struct Fields: Sendable, Equatable {
        /// The item field shown as the title.
        public var title = "title"
        /// The item field shown as the subtitle.
        public var subtitle = "subtitle"
        /// The field holding the picture's path or URL.
        public var image = "image"
        /// The field shown at the row's trailing edge.
        public var detail = "detail"
        /// The field shown in the badge.
        public var badge = "badge"
        /// The field the detail page shows as its text.
        public var body = "body"
        /// Fields named `title` and `subtitle` (and `image`, `detail`, `badge`, `body`).
        public init(title: String = "title", subtitle: String = "subtitle") { (self.title, self.subtitle) = (title, subtitle) }
    }

    /// Characters of an image path or URL kept: 2,048 (longer is no picture; browsers'
    /// practical URL limit is about this).
    public static let maxImageReference = 2048
    /// Characters of a detail page's body kept: 20,000 (a few screens of text).
    public static let maxBodyScalars = 20_000

    /// Characters of a title or subtitle kept: 1,000. A row shows one or two lines of each;
    /// the rest would only cost time on the run loop (every comparison, every layout), so it is
    /// cut here, off the loop, where the answer is parsed.
    public static let maxTextScalars = 1000

    /// The items of a data source's answer. An answer with nothing in it (no bytes, or only
    /// white space: HTTP 204, an empty 200, a command that printed nothing) is malformed, not
    /// an empty list: it used to replace the list on screen with nothing. `[]` is an empty list.
    public static func parse(_ data: Data, source: String, fields: Fields = Fields()) throws -> [Item] {
        guard data.count <= maxBytes else { throw DataSourceError.tooLarge(source: source, limit: maxBytes) }
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) else {
            throw DataSourceError.malformed(source: source, reason: "the answer is empty (an empty list is [])")
        }
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
            guard !lines.isEmpty else {
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
            func text(_ field: String) -> String { bounded(object[field]?.string ?? "") }
            // A number is a detail or badge as well ("price": 12.5, "unread": 3).
            func shown(_ field: String) -> String {
                switch object[field] {
                case .integer(let n)?: return String(n)
                case .number(let d)?: return "\(d)"
                default: return text(field)
                }
            }
            let image = object[names.image]?.string ?? ""
            var item = Item(id: id, title: bounded(title), subtitle: text(names.subtitle),
                            image: image.utf8.count <= maxImageReference ? image : "",
                            detail: shown(names.detail), badge: shown(names.badge),
                            body: bounded(object[names.body]?.string ?? "", limit: maxBodyScalars))
            item.object = value
            return item
        }
    }

    /// `text` cut to `limit` Unicode scalars (whole scalars; a cut inside a long run of
    /// combining marks drops the rest of them).
    public static func bounded(_ text: String, limit: Int = maxTextScalars) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[..<end])
        return String(kept)
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

    /// - Parameter inline: run `work` here and answer before returning (virtual time, where a
    ///   source's answer takes no time: replays).
    @MainActor
    static func run(inline: Bool = false, _ work: @escaping @Sendable () -> Result<[Item], Error>,
                    then completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        guard !inline else { return completion(work()) }
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
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Whether a load does its work on the caller's thread and answers before it returns
    /// (virtual time: a replay, where a source's answer takes no time); off in the kiosk.
    public var runsInline = false
    /// The program run for each page.
    public let executable: String
    /// Its arguments; the page number follows them.
    public let arguments: [String]
    /// Seconds a run may take before it is ended.
    public var timeout: Double

    /// A source running `executable` with `arguments` for each page, at most `timeout` seconds.
    public init(executable: String, arguments: [String] = [], timeout: Double = 10) {
        (self.executable, self.arguments, self.timeout) = (executable, arguments, timeout)
    }

    /// Runs the program for `page` off the main actor and answers with its parsed output.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let executable = executable, arguments = arguments + [String(page)], timeout = timeout, fields = fields
        Background.run(inline: runsInline, { Result { try Self.run(executable, arguments, page: page, pageSize: pageSize, timeout: timeout, fields: fields) } },
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
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Whether a load does its work on the caller's thread and answers before it returns
    /// (virtual time: a replay, where a source's answer takes no time); off in the kiosk.
    public var runsInline = false
    /// The JSON file.
    public let path: String

    /// A source reading `path`.
    public init(path: String) { self.path = path }

    /// Reads the file again off the main actor and answers with the `page`-th slice of its items.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let path = path, fields = fields
        Background.run(inline: runsInline, {
            Result {
                let bytes: [UInt8]
                do throws(BoundedFile.Failure) {
                    bytes = try BoundedFile.read(path, limit: ItemParser.maxBytes)
                } catch .tooLarge {
                    throw DataSourceError.tooLarge(source: path, limit: ItemParser.maxBytes)
                } catch .unreadable(let code) {
                    throw DataSourceError.unreachable(source: path, reason: "cannot read the file: \(String(cString: strerror(code)))")
                } catch .notRegular(let kind) {
                    throw DataSourceError.unreachable(source: path, reason: "cannot read the file: it is \(kind), not a regular file")
                }
                return ItemParser.page(try ItemParser.parse(Data(bytes), source: path, fields: fields), page: page, size: pageSize)
            }
        }, then: completion)
    }
}

/// A JSON document over HTTP(S). "{page}" and "{size}" in the URL are replaced; without them
/// the whole document is fetched and paged here. A user and password in the URL
/// (`https://user:password@host/...`) are taken out of it and given to libcurl as options;
/// `passwordFile` (systemd's credentials: `LoadCredential=` and `$CREDENTIALS_DIRECTORY`)
/// gives the password instead of the URL.
@MainActor
public final class HTTPItemSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Whether a load does its work on the caller's thread and answers before it returns
    /// (virtual time: a replay, where a source's answer takes no time); off in the kiosk.
    public var runsInline = false
    /// The document's URL; `{page}` and `{size}` are replaced.
    public let url: String
    /// Seconds a request may take.
    public var timeout: Double
    /// A file whose first line is the password (read at every load: a rotated credential is
    /// used at the next pull); nil: the URL's own, if any.
    public var passwordFile: String?

    /// A source fetching `url` within `timeout` seconds; the password from `passwordFile` when given.
    public init(url: String, timeout: Double = 10, passwordFile: String? = nil) {
        (self.url, self.timeout, self.passwordFile) = (url, timeout, passwordFile)
    }

    /// The most bytes a password file may hold: 4 KiB.
    nonisolated static let maxPasswordBytes = 4096

    /// Fetches the document off the main actor (libcurl, bounded) and answers with the page's items.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<[Item], Error>) -> Void) {
        let timeout = timeout, fields = fields, passwordFile = passwordFile
        let (template, userinfo) = Self.splitUserinfo(url)
        let paged = template.contains("{page}")
        let text = template.replacing("{page}", with: String(page)).replacing("{size}", with: String(pageSize))
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            completion(.failure(DataSourceError.unreachable(source: text, reason: "not an http(s) URL")))
            return
        }
        Background.run(inline: runsInline, {
            Result {
                var credentials = userinfo
                if let passwordFile {
                    credentials = HTTPCredentials(user: userinfo?.user ?? "", password: try Self.readPassword(passwordFile))
                }
                let body = try HTTPFetch.get(text, limits: HTTPLimits(timeout: timeout), credentials: credentials)
                let items = try ItemParser.parse(Data(body), source: text, fields: fields)
                return paged ? items : ItemParser.page(items, page: page, size: pageSize)
            }
        }, then: completion)
    }

    /// The URL without `user[:password]@`, and that user and password (percent-decoded).
    nonisolated static func splitUserinfo(_ url: String) -> (url: String, credentials: HTTPCredentials?) {
        guard let schemeEnd = url.firstRange(of: "://"),
              let userinfo = URLUserinfo.split(afterScheme: url[schemeEnd.upperBound...]) else { return (url, nil) }
        let stripped = String(url[..<schemeEnd.upperBound]) + userinfo.rest
        // %XX escapes, as libcurl decodes them in a URL's userinfo; a broken escape stays as it is.
        func decoded(_ s: Substring) -> String {
            var bytes: [UInt8] = []
            var utf8 = Array(s.utf8)[...]
            while let first = utf8.first {
                if first == UInt8(ascii: "%"), utf8.count >= 3,
                   let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    utf8 = utf8.dropFirst(3)
                } else {
                    bytes.append(first)
                    utf8 = utf8.dropFirst()
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return (stripped, HTTPCredentials(user: decoded(userinfo.user), password: decoded(userinfo.password ?? "")))
    }

    /// The password file's first line. A relative name is one of systemd's credentials, in
    /// `$CREDENTIALS_DIRECTORY`.
    nonisolated static func readPassword(_ name: String) throws -> String {
        var path = name
        if !name.hasPrefix("/") {
            guard let directory = getenv("CREDENTIALS_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty else {
                throw DataSourceError.unreachable(source: name, reason: "data.url-password-file names a credential, but CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit)")
            }
            path = directory + "/" + name
        }
        let bytes: [UInt8]
        do throws(BoundedFile.Failure) {
            bytes = try BoundedFile.read(path, limit: maxPasswordBytes)
        } catch {
            throw DataSourceError.unreachable(source: path, reason: "cannot read the password file: \(error)")
        }
        let firstLine = bytes.prefix { $0 != 0x0a && $0 != 0x0d }
        return String(decoding: firstLine, as: UTF8.self)
    }
}
