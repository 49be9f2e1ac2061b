import PanelHost

/// A broker's address as `data.mqtt-url` gives it: `mqtt://HOST[:PORT]` or
/// `mqtts://HOST[:PORT]` (TLS), HOST a name, an IPv4 address or an IPv6 one in brackets.
public struct MQTTAddress: Sendable, Equatable {
    /// The broker's host name or address (an IPv6 address without its brackets).
    public var host: String
    /// TCP port: by default 1883 for `mqtt://` and 8883 for `mqtts://` (IANA's).
    public var port: Int
    /// Whether the connection is TLS (`mqtts://`).
    public var tls: Bool

    /// A broker at `host:port`, over TLS when `tls`.
    public init(host: String, port: Int, tls: Bool) { (self.host, self.port, self.tls) = (host, port, tls) }

    /// Reads `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; anything else (another scheme, a
    /// path, a user in the URL, a port outside 1 to 65535) is refused with what is wrong.
    init(parsing text: String) throws(ConfigurationValueError) {
        let rest: Substring
        if text.hasPrefix("mqtt://") { (tls, rest) = (false, text.dropFirst(7)) }
        else if text.hasPrefix("mqtts://") { (tls, rest) = (true, text.dropFirst(8)) }
        else { throw .init("\"\(text)\" is not an mqtt:// or mqtts:// URL") }
        guard !rest.contains("/"), !rest.contains("@") else {
            throw .init("\"\(text)\": only mqtt(s)://HOST[:PORT] (the user is data.mqtt-user, the topic data.mqtt-topic)")
        }
        var hostPart = rest, portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .init("\"\(text)\": an IPv6 address without its ]") }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .init("\"\(text)\": only :PORT may follow the address") }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            (hostPart, portPart) = (rest[..<colon], rest[rest.index(after: colon)...])
        }
        guard !hostPart.isEmpty else { throw .init("\"\(text)\" names no host") }
        host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else { throw .init("\"\(text)\": the port must be 1 to 65535") }
            self.port = port
        } else {
            port = tls ? 8883 : 1883
        }
    }

    /// The URL again, as the log says it.
    public var description: String {
        "\(tls ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
