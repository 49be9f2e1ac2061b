import CCurl
import PanelHost

/// Why a TLS connection to the broker failed, in words an operator acts on: libmosquitto says
/// only "A TLS error occurred". The same handshake is made again through libcurl (the HTTP
/// source's library; `CURLOPT_CONNECT_ONLY` stops once TLS is up), whose error names the
/// certificate's problem: not trusted, another host's, expired. It blocks for the handshake,
/// so it runs off the loop (``FleetLink`` runs it on its lane).
enum TLSDiagnosis {
    /// What is wrong with the broker's TLS at `host`:`port` checked against `caFile` (nil: the
    /// system's CAs); nil when the handshake succeeds, or libcurl cannot be had.
    static func explain(host: String, port: Int, caFile: String?, timeout: Double = 5) -> String? {
        guard panel_curl_load() == nil, let handle = panel_curl_easy_init() else { return nil }
        defer { panel_curl_easy_cleanup(handle) }
        let url = "https://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)/"
        _ = panel_curl_set_string(handle, CURLOPT_URL, url)
        _ = panel_curl_set_long(handle, CURLOPT_CONNECT_ONLY, 1)
        _ = panel_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        _ = panel_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        if let caFile { _ = panel_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        var buffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = buffer.withUnsafeMutableBufferPointer { errors in
            _ = panel_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            return panel_curl_easy_perform(handle)
        }
        guard code != CURLE_OK else { return nil }
        let said = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let detail = said.isEmpty ? String(cString: panel_curl_easy_strerror(code)) : said
        return words(for: detail, host: host, caFile: caFile)
    }

    /// The operator's words for libcurl's `detail` of a failed handshake with `host`.
    static func words(for detail: String, host: String, caFile: String?) -> String {
        let lower = detail.lowercased()
        if lower.contains(text: "expired") {
            return "the broker's certificate has expired (\(detail)): it needs a new one"
        }
        if lower.contains(text: "subject name") || lower.contains(text: "does not match") || lower.contains(text: "hostname") {
            return "the broker's certificate is not for \(host) (\(detail)): name the broker in data.mqtt-url as its certificate does"
        }
        if lower.contains(text: "self-signed") || lower.contains(text: "self signed") || lower.contains(text: "issuer")
            || lower.contains(text: "unable to verify") || lower.contains(text: "certificate verify") {
            return "the broker's certificate is not trusted (\(detail)): set data.mqtt-ca-file to the CA certificate that signed it"
                + (caFile.map { " (now \($0))" } ?? "")
        }
        return "the TLS handshake failed: \(detail)"
    }
}
