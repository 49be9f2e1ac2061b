/// Secrets taken out of what the program says: the journal is readable by an operator's whole
/// group and STATUS by anyone through `systemctl status`, and a data source's URL used to
/// appear whole in both, `user:password@` included.
public enum Redaction {
    /// What stands for a removed secret.
    public static let mask = "***"

    /// Query parameters whose values are removed: names that hold, or end in, one of these
    /// (case-insensitive: `api_key`, `access_token`, `X-Amz-Signature`, `sig`).
    static let secretNames = ["password", "passwd", "pwd", "pass", "secret", "token", "key", "auth", "signature",
                              "sig", "credential", "session"]

    /// `text` with every URL's password (`scheme://user:password@host`) and the values of
    /// query parameters named like secrets replaced by `mask`. Linear in the text.
    public static func redact(_ text: String) -> String {
        guard text.contains(text: "://") || text.contains(text: "=") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let range = rest.firstRange(ofText: "://") {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            // The URL runs to the next blank, quote or end.
            let end = rest.firstIndex { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\n" || $0 == ">" || $0 == "<" } ?? rest.endIndex
            out += redactURL(rest[..<end])
            rest = rest[end...]
        }
        out += rest
        return out
    }

    /// A URL's part after "://": the userinfo's password and secret query values masked.
    static func redactURL(_ url: Substring) -> String {
        var result = ""
        var rest = url
        if let userinfo = URLUserinfo.split(afterScheme: url) {
            result = String(userinfo.user) + (userinfo.password == nil ? "" : ":" + mask) + "@"
            rest = userinfo.rest
        }
        guard let question = rest.firstIndex(of: "?") else { return result + rest }
        result += rest[...question]
        let queryStart = rest.index(after: question)
        let fragmentStart = rest[queryStart...].firstIndex(of: "#") ?? rest.endIndex
        let pairs = rest[queryStart..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false)
        result += pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].lowercased()
            guard secretNames.contains(where: { name.contains(text: $0) }) else { return String(pair) }
            return pair[...equals] + mask
        }.joined(separator: "&")
        return result + rest[fragmentStart...]
    }
}
