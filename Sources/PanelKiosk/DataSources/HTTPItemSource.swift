import Glibc
import PanelHost

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
    /// Names of the header file's headers that may follow a redirect to another host
    /// (`data.redirect-headers`, any case); the others go to the URL's own origin only.
    /// Default none: a key or a token is for the server it was issued by.
    public var redirectHeaders: [String] = []
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
        let travelling = Set(redirectHeaders.map { $0.lowercased() })
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
                func name(_ line: String) -> String { String(line.prefix { $0 != ":" }).lowercased() }
                let fetched = try Self.fetch(text, limits: HTTPLimits(timeout: timeout), credentials: credentials,
                                             headers: extra.filter { travelling.contains(name($0)) },
                                             privateHeaders: extra.filter { !travelling.contains(name($0)) }, fields: fields, answers: answers)
                var answer = fetched
                if !paged { answer.items = ItemParser.page(fetched.items, page: page, size: pageSize) }
                return answer
            }
        }, then: completion)
    }

    /// The document at `url` as items: asked conditionally when an answer is kept, parsed only
    /// when it changed.
    /// `headers` go wherever a redirect leads; `privateHeaders` to `url`'s origin only.
    nonisolated static func fetch(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials?, headers: [String],
                                  privateHeaders: [String] = [], fields: ItemParser.Fields, answers: HTTPAnswerCache) throws -> ItemPage {
        var kept = answers.entry(for: url)
        var answer = try HTTPFetch.request(url, limits: limits, credentials: credentials,
                                           headers: headers + (kept?.conditionalHeaders ?? []), privateHeaders: privateHeaders)
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
            answer = try HTTPFetch.request(url, limits: limits, credentials: credentials, headers: headers, privateHeaders: privateHeaders)
            bytes += answer.bytesReceived
        }
        let hash = FNV1a.hash(answer.body)
        if let kept, let items = kept.items, kept.bodyHash == hash, !answer.noStore {
            // The same bytes (from a server that sends no validators, or one whose validators
            // changed for the same body): unchanged as well. New validators are kept: the old
            // ETag was sent for ever after, and no 304 came again.
            if answer.etag != kept.etag || answer.lastModified != kept.lastModified {
                var entry = kept
                (entry.etag, entry.lastModified) = (answer.etag, answer.lastModified)
                answers.keep(entry, for: url, body: answer.etag != nil || answer.lastModified != nil ? answer.body : nil)
            }
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
