import CCurl
import FoundationEssentials
import Glibc

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

/// One GET through libcurl's easy interface. Blocking: call it off the main actor.
enum HTTPFetch {
    /// Why libcurl cannot be used (it is loaded, and set up, at the first transfer), or nil.
    private static var unavailable: String? { panel_curl_load().map { String(cString: $0) } }

    /// The body collected by the write callback, never more than `limit` bytes.
    private final class Sink {
        let limit: Int
        let cancel: CancelFlag?
        var bytes: [UInt8] = []
        var overflowed = false
        init(limit: Int, cancel: CancelFlag?) { (self.limit, self.cancel) = (limit, cancel) }
    }

    /// libcurl hands each piece of the body here; returning less than it got ends the transfer
    /// with CURLE_WRITE_ERROR, which is how the limit holds for bodies of unknown length.
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

    /// The body of a 2xx answer to GET `url`.
    /// - Throws: `DataSourceError`: `.tooLarge` past `limits.maxBytes`, `.timeout` past
    ///   `limits.timeout`, `.stalled`, `.unreachable` for everything else (refused, DNS, TLS,
    ///   a non-2xx status, too many redirects, a scheme other than http/https).
    /// - Parameter credentials: user and password for the server, set as libcurl options
    ///   (`CURLOPT_USERNAME`, `CURLOPT_PASSWORD`) rather than in the URL, so they appear in no
    ///   message.
    /// - Parameter cancel: when set, the transfer ends at the next piece of the body that
    ///   arrives (`DataSourceError.cancelled`).
    static func get(_ url: String, limits: HTTPLimits, credentials: HTTPCredentials? = nil, cancel: CancelFlag? = nil) throws -> [UInt8] {
        if let reason = unavailable { throw DataSourceError.unreachable(source: url, reason: reason) }
        guard let handle = panel_curl_easy_init() else {
            throw DataSourceError.unreachable(source: url, reason: "libcurl could not make a transfer")
        }
        defer { panel_curl_easy_cleanup(handle) }
        let sink = Sink(limit: limits.maxBytes, cancel: cancel)
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = withExtendedLifetime(sink) {
            errorText.withUnsafeMutableBufferPointer { errorBuffer in
                let options: [CURLcode] = [
                    panel_curl_set_string(handle, CURLOPT_URL, url),
                    panel_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, HTTPLimits.protocols),
                    panel_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, HTTPLimits.protocols),
                    panel_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
                    panel_curl_set_long(handle, CURLOPT_MAXREDIRS, limits.maxRedirects),
                    panel_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)),
                    panel_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.timeout)),
                    panel_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.stallBytesPerSecond),
                    panel_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, limits.stallSeconds),
                    // Timeouts by alarm signals do not mix with a threaded program.
                    panel_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
                    panel_curl_set_string(handle, CURLOPT_USERAGENT, "panel-refresh"),
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
            guard (200..<300).contains(status) else {
                throw DataSourceError.unreachable(source: url, reason: "HTTP status \(status)")
            }
            return sink.bytes
        case CURLE_FILESIZE_EXCEEDED:
            throw DataSourceError.tooLarge(source: url, limit: limits.maxBytes)
        case CURLE_WRITE_ERROR where sink.cancel?.isSet == true:
            throw DataSourceError.cancelled(source: url)
        case CURLE_WRITE_ERROR where sink.overflowed:
            throw DataSourceError.tooLarge(source: url, limit: limits.maxBytes)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl reports both bounds with one code; its text tells which one ended it.
            if detail.contains("too slow") {
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

    /// Seconds as libcurl's milliseconds, at least 1 (0 would mean "no timeout").
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
    }
}
