import PanelHost
import Glibc
import Synchronization

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
    /// The server is busy (HTTP 429 Too Many Requests or 503 Service Unavailable) and asks
    /// for no request for `retryAfter` seconds (its `Retry-After`); the kiosk makes none.
    case busy(source: String, status: Int, retryAfter: Double)

    /// Seconds the source asked to be left alone, when it did (a `busy` answer).
    public var retryAfter: Double? {
        if case let .busy(_, _, seconds) = self { return seconds }
        return nil
    }

    /// What happened, with every URL's password and secret-looking query values masked
    /// (`Redaction`): this text goes to the journal and to STATUS.
    public var description: String { Redaction.redact(plainDescription) }

    /// What the person at the panel reads: the description with a command or file named by its
    /// name, not its path ("fetch-board exited with status 1", where the journal says
    /// "/usr/local/lib/board/fetch-board exited with status 1"). A URL stays whole, redacted.
    public var panelText: String {
        let source: String
        switch self {
        case let .exitStatus(command, _, _): source = command
        case let .timeout(name, _), let .unreachable(name, _), let .malformed(name, _), let .tooLarge(name, _),
             let .stalled(name, _, _), let .cancelled(name), let .busy(name, _, _): source = name
        }
        guard source.hasPrefix("/"), let name = source.split(separator: "/").last, !name.isEmpty else { return description }
        let text = plainDescription
        guard text.hasPrefix(source) else { return description }
        return Redaction.redact(String(name) + text.dropFirst(source.count))
    }

    /// The text the panel shows for `error`: a data source's `panelText`, else its description.
    public static func panelText(_ error: any Error) -> String {
        (error as? DataSourceError)?.panelText ?? String(describing: error)
    }

    private var plainDescription: String {
        switch self {
        case let .exitStatus(command, status, stderr):
            return "\(command) exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr.prefix(200))")
        case let .timeout(source, seconds): return "\(source) gave no answer within \(seconds) s"
        case let .unreachable(source, reason): return "\(source) is unreachable: \(reason)"
        case let .malformed(source, reason): return "\(source) sent something that is not a list of items: \(reason)"
        case let .tooLarge(source, limit): return "\(source) sent an answer too large (more than \(limit) bytes)"
        case let .stalled(source, rate, seconds): return "\(source) sent less than \(rate) bytes/s for \(seconds) s"
        case let .cancelled(source): return "\(source) was no longer wanted"
        case let .busy(source, status, seconds):
            return "\(source) is busy (HTTP \(status)) and asks for no request for \(TextFormat.number(seconds.rounded(.up))) s"
        }
    }
}

/// Items from JSON: an array of objects, or one object per line (JSON lines), each with a
/// string `title` and optional `subtitle` and `id` (string or number; without it, the title is
/// the item's id).
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
        /// The field holding the item's stable id (a string or a number): what keeps the
        /// reader's place across refreshes. An item without it is known by its title.
        public var id = "id"
        /// The field holding the language of the item's texts (a BCP 47 tag).
        public var language = "lang"
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
    public static func parse<Bytes: Collection<UInt8>>(_ data: Bytes, source: String, fields: Fields = Fields()) throws -> [Item] {
        guard data.count <= maxBytes else { throw DataSourceError.tooLarge(source: source, limit: maxBytes) }
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) else {
            throw DataSourceError.malformed(source: source, reason: "the answer is empty (an empty list is [])")
        }
        let objects: [JSONValue]
        let bytes = Array(data)
        if case .array(let array)? = try? JSONValue.parse(bytes) {
            objects = array
        } else {
            var lines: [JSONValue] = []
            for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
                let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }
                if trimmed.isEmpty { continue }
                guard let object = try? JSONValue.parse(Array(trimmed)) else {
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
            // The title stands for a missing id: a list of names or departures is known by
            // them, and the place a refresh keeps follows it (its position would not).
            let id: String
            switch object[names.id] {
            case .string(let s)?: id = bounded(s)
            case .integer(let n)?: id = String(n)
            case .number(let d)?: id = "\(d)"
            default: id = bounded(title)
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
            if let tag = object[names.language]?.string, Item.isLanguageTag(tag) { item.language = tag }
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
    private let pages = Mutex<[Int: (Fingerprint, [Item])]>([:])

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

/// Runs a program for each page: `executable arguments... PAGE`, with PANEL_REFRESH_PAGE and
/// PANEL_REFRESH_PAGE_SIZE in its environment; its stdout is the page's items (the same bytes
/// as last time for that page: unchanged, not parsed again). Killed after `timeout` seconds.
@MainActor
public final class CommandItemSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's work runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The program run for each page.
    public let executable: String
    /// Its arguments; the page number follows them.
    public let arguments: [String]
    /// Seconds a run may take before it is ended.
    public var timeout: Double
    private let memo = AnswerMemo()

    /// A source running `executable` with `arguments` for each page, at most `timeout` seconds,
    /// on `executor`'s workers.
    public init(executable: String, arguments: [String] = [], timeout: Double = 10, executor: any WorkExecutor) {
        (self.executable, self.arguments, self.timeout, self.executor) = (executable, arguments, timeout, executor)
    }

    /// Runs the program for `page` off the main actor and answers with its parsed output.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let executable = executable, arguments = arguments + [String(page)], timeout = timeout, fields = fields, memo = memo
        executor.execute(in: nil, {
            Result {
                let output = try Self.run(executable, arguments, page: page, pageSize: pageSize, timeout: timeout)
                return try memo.answer(page: page, fingerprint: .init(hash: FNV1a.hash(output), stamp: nil, pageSize: pageSize)) {
                    try ItemParser.parse(output, source: executable, fields: fields)
                }
            }
        }, then: completion)
    }

    /// The program's output for `page`, checked: a failure, a timeout and a flood are errors.
    nonisolated static func run(_ executable: String, _ arguments: [String], page: Int, pageSize: Int, timeout: Double) throws -> [UInt8] {
        var environment = ProcessEnvironment.variables()
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
        return outcome.stdout
    }
}

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

/// A JSON document over HTTP(S). "{page}" and "{size}" in the URL are replaced; without them
/// the whole document is fetched and paged here. A user and password in the URL
/// (`https://user:password@host/...`) are taken out of it and given to libcurl as options;
/// `passwordFile` (systemd's credentials: `LoadCredential=` and `$CREDENTIALS_DIRECTORY`)
/// gives the password instead of the URL.
///
/// It asks politely: every request after the first is conditional (`If-None-Match` with the
/// last `ETag`, `If-Modified-Since` with the last `Last-Modified`, kept per URL in
/// `stateDirectory` across restarts), and a 304 is an unchanged page with nothing parsed; it
/// offers compressed answers (the 4 MiB bound holds for the decoded bytes), says it is
/// `panel-refresh/VERSION`, and passes on `Cache-Control: max-age` (``ItemPage/freshFor``) and a
/// busy server's `Retry-After` (``DataSourceError/busy(source:status:retryAfter:)``).
@MainActor
public final class HTTPItemSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's work runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The document's URL; `{page}` and `{size}` are replaced.
    public let url: String
    /// Seconds a request may take.
    public var timeout: Double
    /// A file whose first line is the password (read at every load: a rotated credential is
    /// used at the next pull); nil: the URL's own, if any.
    public var passwordFile: String?
    /// A file of extra request headers, one `Name: value` a line (`data.header-file`: an
    /// `Authorization: Bearer ...` from a credential); read at every load, never logged.
    public var headerFile: String?
    private let answers: HTTPAnswerCache

    /// A source fetching `url` within `timeout` seconds; the password from `passwordFile` when
    /// given; the last answers' validators and bodies kept in `stateDirectory`/http (nil: in
    /// memory only); the fetches on `executor`'s workers.
    public init(url: String, timeout: Double = 10, passwordFile: String? = nil, stateDirectory: String? = nil, executor: any WorkExecutor) {
        (self.url, self.timeout, self.passwordFile, self.executor) = (url, timeout, passwordFile, executor)
        answers = HTTPAnswerCache(directory: stateDirectory.map { $0 + "/http" })
    }

    /// The most bytes a password file may hold: 4 KiB.
    nonisolated static let maxPasswordBytes = 4096
    /// The most bytes a header file may hold: 8 KiB (a few tokens).
    nonisolated static let maxHeaderFileBytes = 8192

    /// Fetches the document off the main actor (libcurl, bounded, conditional) and answers
    /// with the page's items.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let timeout = timeout, fields = fields, passwordFile = passwordFile, headerFile = headerFile, answers = answers
        let (template, userinfo) = Self.splitUserinfo(url)
        let paged = template.contains(text: "{page}")
        let text = template.replacing(text: "{page}", with: String(page)).replacing(text: "{size}", with: String(pageSize))
        // libcurl reads the rest of the URL (CURLOPT_URL) and says what is wrong with it.
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            completion(.failure(DataSourceError.unreachable(source: text, reason: "not an http(s) URL")))
            return
        }
        executor.execute(in: nil, {
            Result {
                var credentials = userinfo
                if let passwordFile {
                    credentials = HTTPCredentials(user: userinfo?.user ?? "", password: try Self.readPassword(passwordFile))
                }
                let extra = try headerFile.map(Self.readHeaders) ?? []
                let fetched = try Self.fetch(text, limits: HTTPLimits(timeout: timeout), credentials: credentials, headers: extra,
                                             fields: fields, answers: answers)
                var answer = fetched
                if !paged { answer.items = ItemParser.page(fetched.items, page: page, size: pageSize) }
                return answer
            }
        }, then: completion)
    }

    /// The document at `url` as items: asked conditionally when an answer is kept, parsed only
    /// when it changed.
    nonisolated static func fetch(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials?, headers: [String],
                                  fields: ItemParser.Fields, answers: HTTPAnswerCache) throws -> ItemPage {
        var kept = answers.entry(for: url)
        var answer = try HTTPFetch.request(url, limits: limits, credentials: credentials,
                                           headers: headers + (kept?.conditionalHeaders ?? []))
        var bytes = answer.bytesReceived
        if answer.notModified {
            if let items = kept?.items {
                return ItemPage(items: items, isUnchanged: true, freshFor: answer.maxAge, notModified: true, bytesFetched: bytes)
            }
            if let kept, let body = kept.body, let items = try? ItemParser.parse(body, source: url, fields: fields) {
                // The kept body of an earlier run: shown again, its items kept in memory now.
                var entry = kept
                entry.items = items
                answers.keep(entry, for: url, body: nil)
                return ItemPage(items: items, freshFor: answer.maxAge, notModified: true, bytesFetched: bytes)
            }
            // A 304 for a body no longer kept (or unreadable): asked again, unconditionally.
            kept = nil
            answers.forget(url)
            answer = try HTTPFetch.request(url, limits: limits, credentials: credentials, headers: headers)
            bytes += answer.bytesReceived
        }
        let hash = FNV1a.hash(answer.body)
        if let kept, let items = kept.items, kept.bodyHash == hash, !answer.noStore {
            // The same bytes from a server that sends no validators: unchanged as well.
            return ItemPage(items: items, isUnchanged: true, freshFor: answer.maxAge, bytesFetched: bytes)
        }
        let items = try ItemParser.parse(answer.body, source: url, fields: fields)
        if answer.noStore {
            answers.forget(url)
        } else {
            let entry = HTTPAnswerCache.Entry(etag: answer.etag, lastModified: answer.lastModified, bodyHash: hash, items: items)
            answers.keep(entry, for: url, body: answer.etag != nil || answer.lastModified != nil ? answer.body : nil)
        }
        return ItemPage(items: items, freshFor: answer.maxAge, bytesFetched: bytes)
    }

    /// The header file's lines, each checked as `Name: value` (a token, a colon, a value with no
    /// control character): a malformed line is an error naming its number, never its text, which
    /// may be a secret. Blank lines and lines starting with `#` are skipped. A relative name is
    /// one of systemd's credentials, as for the password file.
    nonisolated static func readHeaders(_ name: String) throws -> [String] {
        let bytes = try readSecret(name, limit: maxHeaderFileBytes, what: "header file", key: "data.header-file")
        var lines: [String] = []
        for (index, raw) in bytes.split(separator: 0x0a, omittingEmptySubsequences: false).enumerated() {
            let line = TextFormat.trimmed(String(decoding: raw, as: UTF8.self), newlines: true)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let tokenCharacters = "!#$%&'*+-.^_`|~"
            guard let colon = line.firstIndex(of: ":"),
                  !line[..<colon].isEmpty,
                  line[..<colon].unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || tokenCharacters.unicodeScalars.contains($0) }),
                  line.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7f) }) else {
                throw DataSourceError.unreachable(source: name, reason: "data.header-file line \(index + 1) is not \"Name: value\"")
            }
            lines.append(line)
        }
        return lines
    }

    /// The URL without `user[:password]@`, and that user and password (percent-decoded).
    nonisolated static func splitUserinfo(_ url: String) -> (url: String, credentials: HTTPCredentials?) {
        guard let schemeEnd = url.firstRange(ofText: "://"),
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
    nonisolated static func readPassword(_ name: String, key: String = "data.url-password-file") throws -> String {
        let bytes = try readSecret(name, limit: maxPasswordBytes, what: "password file", key: key)
        let firstLine = bytes.prefix { $0 != 0x0a && $0 != 0x0d }
        return String(decoding: firstLine, as: UTF8.self)
    }

    /// A secret's bytes: `name` is an absolute path, or a credential's name in
    /// `$CREDENTIALS_DIRECTORY` (`LoadCredential=` in the unit). `key` names the setting in errors.
    nonisolated static func readSecret(_ name: String, limit: Int, what: String, key: String) throws -> [UInt8] {
        var path = name
        if !name.hasPrefix("/") {
            guard let directory = getenv("CREDENTIALS_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty else {
                throw DataSourceError.unreachable(source: name, reason: "\(key) names a credential, but CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit)")
            }
            path = directory + "/" + name
        }
        do throws(BoundedFile.Failure) {
            return try BoundedFile.read(path, limit: limit)
        } catch {
            throw DataSourceError.unreachable(source: path, reason: "cannot read the \(what): \(error)")
        }
    }
}
