import CCurl
import Glibc
import PanelHost

/// A user and password for an HTTP data source, given to libcurl as options (never in the URL).
public struct HTTPCredentials: Sendable, Equatable {
    /// The user (`CURLOPT_USERNAME`), percent-decoded.
    public var user: String
    /// The password (`CURLOPT_PASSWORD`), percent-decoded.
    public var password: String

    /// Credentials for a server.
    public init(user: String, password: String) { (self.user, self.password) = (user, password) }
}

/// What one HTTP(S) request may cost, every bound enforced by libcurl while it receives, so a
/// hostile or broken server can neither fill the panel's memory nor hold a load forever.
public struct HTTPLimits: Sendable, Equatable {
    /// Largest body kept, bytes: a longer one stops the transfer at this size (the
    /// `Content-Length` check of `CURLOPT_MAXFILESIZE_LARGE`, and the write callback for bodies
    /// of unknown length).
    public var maxBytes: Int
    /// The whole request, connection and redirects included, seconds (`CURLOPT_TIMEOUT_MS`).
    public var timeout: Double
    /// A transfer slower than `stallBytesPerSecond` for `stallSeconds` is abandoned
    /// (`CURLOPT_LOW_SPEED_LIMIT` / `_TIME`): a server trickling one byte a second. 1 KiB/s
    /// over 5 s: a page of items is a few KiB, so a live server sends it in well under 5 s.
    public var stallBytesPerSecond = 1024
    /// Seconds below `stallBytesPerSecond` before a transfer is abandoned.
    public var stallSeconds = 5
    /// Redirects followed (`CURLOPT_MAXREDIRS`); a loop ends here. 5, as a browser's
    /// "too many redirects" is about 20 and a data endpoint needs one or two.
    public var maxRedirects = 5
    /// Schemes allowed for the URL and for every redirect (`CURLOPT_PROTOCOLS_STR`,
    /// `CURLOPT_REDIR_PROTOCOLS_STR`): a redirect to file:// or ftp:// is refused.
    public static let protocols = "http,https"

    /// Limits of `maxBytes` and `timeout` seconds, the rest their defaults.
    public init(maxBytes: Int = ItemParser.maxBytes, timeout: Double) { (self.maxBytes, self.timeout) = (maxBytes, timeout) }
}

/// What an HTTP answer said beside its body: the validators a conditional request sends back,
/// how long it is fresh, and what it cost on the wire.
struct HTTPAnswer: Sendable, Equatable {
    /// 2xx, or 304 (only to a conditional request).
    var status: Int
    /// The body as the write callback got it: decoded (gzip, deflate, br), never more than the limit.
    var body: [UInt8]
    /// `ETag`, verbatim (sent back as `If-None-Match`).
    var etag: String?
    /// `Last-Modified`, verbatim (sent back as `If-Modified-Since`).
    var lastModified: String?
    /// `Cache-Control: max-age`, seconds: the shortest wait before the next automatic request.
    var maxAge: Double?
    /// `Cache-Control: no-store`: nothing of this answer is kept.
    var noStore = false
    /// Bytes that came over the wire: the headers and the body as sent (compressed, when it was).
    var bytesReceived = 0

    /// Whether the server said the kept copy is still good (304 Not Modified).
    var notModified: Bool { status == 304 }
}

/// One GET through libcurl's easy interface. Blocking: call it off the main actor.
enum HTTPFetch {
    /// Why libcurl cannot be used (it is loaded, and set up, at the first transfer), or nil.
    private static var unavailable: String? { panel_curl_load().map { String(cString: $0) } }

    /// What every request says it is: `panel-refresh/VERSION` (a server's logs tell kiosks and
    /// their versions apart).
    static let userAgent = "panel-refresh/\(ProgramVersion.current)"

    /// The longest `Retry-After` or `max-age` taken as said, seconds: a day. A server that asks
    /// for more (or a hostile one) is waited on for a day, then asked again.
    static let maxWait: Double = 86_400

    /// The body collected by the write callback, never more than `limit` bytes.
    private final class Sink {
        let limit: Int
        let cancel: CancelFlag?
        var bytes: [UInt8] = []
        var overflowed = false
        init(limit: Int, cancel: CancelFlag?) { (self.limit, self.cancel) = (limit, cancel) }
    }

    /// libcurl hands each piece of the (decoded) body here; returning less than it got ends the
    /// transfer with CURLE_WRITE_ERROR, which is how the limit holds for bodies of unknown
    /// length and for compressed ones, whatever they expand to.
    private static let write: panel_curl_write_callback = { data, size, count, user in
        guard let data, let user else { return 0 }
        let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
        // A picture whose row scrolled away: the transfer ends at its next piece.
        if sink.cancel?.isSet == true { return 0 }
        let (n, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, n <= sink.limit - sink.bytes.count else {
            sink.overflowed = true
            return 0
        }
        sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: n))
        return n
    }

    /// The body of a 2xx answer to GET `url` (the pictures' plain fetch).
    static func get(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials? = nil, cancel: CancelFlag? = nil) throws -> [UInt8] {
        try request(url, limits: limits, credentials: credentials, cancel: cancel).body
    }

    /// GET `url` with `headers` (whole lines, `Name: value`: the conditional ones, an operator's
    /// own), offering every encoding libcurl decodes.
    /// - Returns: a 2xx answer, or a 304 when `headers` made the request conditional.
    /// - Throws: `DataSourceError`: `.tooLarge` past `limits.maxBytes` (decoded), `.timeout` past
    ///   `limits.timeout`, `.stalled`, `.busy` for a 429 or 503 with `Retry-After`,
    ///   `.unreachable` for everything else (refused, DNS, TLS, another status, too many
    ///   redirects, a scheme other than http/https).
    /// - Parameter credentials: user and password for the server, set as libcurl options
    ///   (`CURLOPT_USERNAME`, `CURLOPT_PASSWORD`) rather than in the URL, so they appear in no
    ///   message.
    /// - Parameter cancel: when set, the transfer ends at the next piece of the body that
    ///   arrives (`DataSourceError.cancelled`).
    /// - Parameter privateHeaders: lines sent only to `url`'s own origin (scheme, host and
    ///   port): with any, redirects are followed here, hop by hop, and a hop to another origin
    ///   goes without them and without `credentials` (libcurl drops only `Authorization` and the
    ///   password; an `X-Api-Key` followed a redirect to another host).
    static func request(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials? = nil, headers: [String] = [],
                        privateHeaders: [String] = [], cancel: CancelFlag? = nil) throws -> HTTPAnswer {
        guard !privateHeaders.isEmpty else {
            guard case .answer(let answer) = try transfer(url, limits: limits, credentials: credentials, headers: headers, follows: true, cancel: cancel) else {
                throw DataSourceError.unreachable(source: url, reason: "a redirect was not followed")
            }
            return answer
        }
        guard unavailable == nil, let home = origin(url) else {
            throw DataSourceError.unreachable(source: url, reason: unavailable ?? "not a URL libcurl reads")
        }
        let started = MonotonicClock.now()
        var current = url, received = 0
        for _ in 0...limits.maxRedirects {
            let atHome = origin(current) == home
            // The whole request within the timeout, as libcurl bounds its own following.
            var hop = limits
            hop.timeout = max(0.001, limits.timeout - (MonotonicClock.now() - started))
            switch try transfer(current, limits: hop, credentials: atHome ? credentials : nil,
                                headers: headers + (atHome ? privateHeaders : []), follows: false, cancel: cancel) {
            case .answer(var answer):
                answer.bytesReceived += received
                return answer
            case .redirect(let next, let bytes):
                received += bytes
                guard let scheme = origin(next)?.prefix(while: { $0 != ":" }), ["http", "https"].contains(scheme) else {
                    throw DataSourceError.unreachable(source: url, reason: "a redirect to another scheme (only \(HTTPLimits.protocols) are allowed)")
                }
                current = next
            }
        }
        throw DataSourceError.unreachable(source: url, reason: "more than \(limits.maxRedirects) redirects")
    }

    /// What one transfer ended with: an answer, or (not following) a redirect to an absolute URL.
    private enum Transfer {
        case answer(HTTPAnswer)
        case redirect(to: String, bytes: Int)
    }

    /// "scheme://host:port" of `url` as libcurl parses it, nil when it is not a URL.
    static func origin(_ url: String) -> String? {
        guard unavailable == nil, let text = panel_curl_origin(url) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// One transfer of GET `url`; libcurl follows redirects itself when `follows`.
    private static func transfer(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials?, headers: [String],
                                 follows: Bool, cancel: CancelFlag?) throws -> Transfer {
        if let reason = unavailable { throw DataSourceError.unreachable(source: url, reason: reason) }
        guard let handle = panel_curl_easy_init() else {
            throw DataSourceError.unreachable(source: url, reason: "libcurl could not make a transfer")
        }
        defer { panel_curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in headers {
            guard let longer = panel_curl_slist_append(list, line) else {
                panel_curl_slist_free(list)
                throw DataSourceError.unreachable(source: url, reason: "libcurl could not take the request's headers")
            }
            list = longer
        }
        defer { panel_curl_slist_free(list) }
        let sink = Sink(limit: limits.maxBytes, cancel: cancel)
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = withExtendedLifetime(sink) {
            errorText.withUnsafeMutableBufferPointer { errorBuffer in
                let options: [CURLcode] = [
                    panel_curl_set_string(handle, CURLOPT_URL, url),
                    panel_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, HTTPLimits.protocols),
                    panel_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, HTTPLimits.protocols),
                    panel_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, follows ? 1 : 0),
                    panel_curl_set_long(handle, CURLOPT_MAXREDIRS, limits.maxRedirects),
                    panel_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)),
                    panel_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.timeout)),
                    panel_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.stallBytesPerSecond),
                    panel_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, limits.stallSeconds),
                    // Timeouts by alarm signals do not mix with a threaded program.
                    panel_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
                    panel_curl_set_string(handle, CURLOPT_USERAGENT, userAgent),
                    // "": every encoding this libcurl decodes (gzip, deflate, br, zstd as built),
                    // decoded before the write callback, whose limit then bounds the decoded bytes.
                    panel_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
                    panel_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)),
                    panel_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress),
                    panel_curl_set_write_function(handle, write),
                    panel_curl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()),
                ]
                if let failed = options.first(where: { $0 != CURLE_OK }) { return failed }
                if let credentials {
                    for (option, value) in [(CURLOPT_USERNAME, credentials.user), (CURLOPT_PASSWORD, credentials.password)] {
                        let set = panel_curl_set_string(handle, option, value)
                        if set != CURLE_OK { return set }
                    }
                }
                return panel_curl_easy_perform(handle)
            }
        }
        let written = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let detail = written.isEmpty ? String(cString: panel_curl_easy_strerror(code)) : written
        switch code {
        case CURLE_OK:
            var status = 0
            _ = panel_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
            func header(_ name: String) -> String? { panel_curl_header(handle, name).map { String(cString: $0) } }
            var body: curl_off_t = 0, head = 0
            _ = panel_curl_get_offset(handle, CURLINFO_SIZE_DOWNLOAD_T, &body)
            _ = panel_curl_get_long(handle, CURLINFO_HEADER_SIZE, &head)
            if !follows, (300..<400).contains(status), status != 304, let next = panel_curl_get_string(handle, CURLINFO_REDIRECT_URL) {
                return .redirect(to: String(cString: next), bytes: Int(body) + head)
            }
            if (status == 429 || status == 503), let wait = header("Retry-After").flatMap({ retryAfter($0, date: header("Date")) }) {
                throw DataSourceError.busy(source: url, status: status, retryAfter: wait)
            }
            guard (200..<300).contains(status) || status == 304 else {
                throw DataSourceError.unreachable(source: url, reason: "HTTP status \(status)")
            }
            let control = CacheControl(header("Cache-Control") ?? "")
            return .answer(HTTPAnswer(status: status, body: sink.bytes, etag: header("ETag"), lastModified: header("Last-Modified"),
                              maxAge: control.maxAge, noStore: control.noStore, bytesReceived: Int(body) + head))
        case CURLE_FILESIZE_EXCEEDED:
            throw DataSourceError.tooLarge(source: url, limit: limits.maxBytes)
        case CURLE_WRITE_ERROR where sink.cancel?.isSet == true:
            throw DataSourceError.cancelled(source: url)
        case CURLE_WRITE_ERROR where sink.overflowed:
            throw DataSourceError.tooLarge(source: url, limit: limits.maxBytes)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl reports both bounds with one code; its text tells which one ended it.
            if detail.contains(text: "too slow") {
                throw DataSourceError.stalled(source: url, bytesPerSecond: limits.stallBytesPerSecond, seconds: limits.stallSeconds)
            }
            throw DataSourceError.timeout(source: url, seconds: limits.timeout)
        case CURLE_TOO_MANY_REDIRECTS:
            throw DataSourceError.unreachable(source: url, reason: "more than \(limits.maxRedirects) redirects")
        case CURLE_UNSUPPORTED_PROTOCOL:
            throw DataSourceError.unreachable(source: url, reason: "\(detail) (only \(HTTPLimits.protocols) are allowed)")
        default:
            throw DataSourceError.unreachable(source: url, reason: detail)
        }
    }

    /// `Retry-After` as seconds from now: delta-seconds, or an HTTP date (RFC 9110 10.2.3) taken
    /// against the answer's own `Date` (the server's clock, so a kiosk whose clock is off still
    /// waits as long as asked), else against this machine's. At most `maxWait`; nil when it
    /// says neither.
    static func retryAfter(_ value: String, date: String?) -> Double? {
        let text = TextFormat.trimmed(value)
        if let seconds = Int(text), seconds >= 0 { return min(Double(seconds), maxWait) }
        guard let until = Self.date(text) else { return nil }
        let now = date.flatMap(Self.date) ?? Double(time(nil))
        return min(max(until - now, 0), maxWait)
    }

    /// An HTTP date (RFC 9110 5.6.7, and the obsolete forms) as seconds since 1970, read by
    /// libcurl's `curl_getdate`; nil when it is none, or libcurl cannot be had.
    ///
    /// Every call into CCurl stays in this file: the shim keeps the functions it found in a
    /// `static` of a header, and a release build compiles a module into several object files,
    /// each with its own copy, which only this file's `panel_curl_load()` fills (a picture's
    /// `Last-Modified` read from another file called a null pointer).
    static func date(_ text: String) -> Double? {
        guard unavailable == nil else { return nil }
        let seconds = panel_curl_getdate(text)
        return seconds >= 0 ? Double(seconds) : nil
    }

    /// Seconds as libcurl's milliseconds, at least 1 (0 would mean "no timeout").
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
    }
}

/// The directives of a `Cache-Control` header that the kiosk acts on (RFC 9111 5.2.2):
/// `max-age` (how long the answer is fresh) and `no-store` (keep nothing of it).
struct CacheControl: Equatable {
    /// `max-age=N`, seconds, at most `HTTPFetch.maxWait`; nil without one (or a malformed one).
    var maxAge: Double?
    /// `no-store`.
    var noStore = false

    /// The directives of `header` (comma-separated, names in any case, values maybe quoted).
    init(_ header: String) {
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = TextFormat.trimmed(parts.first ?? "").lowercased()
            var value = parts.count > 1 ? TextFormat.trimmed(parts[1]) : ""
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            switch name {
            case "max-age": if let n = Int(value), n >= 0 { maxAge = min(Double(n), HTTPFetch.maxWait) }
            case "no-store": noStore = true
            default: break
            }
        }
    }
}
