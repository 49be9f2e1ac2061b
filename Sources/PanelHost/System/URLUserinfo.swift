/// A URL's userinfo (`user[:password]@` before its host), found one way wherever the program
/// takes it out of a URL (`HTTPItemSource`) or masks it in a message (`Redaction`).
public enum URLUserinfo {
    /// The part of a URL after "://" split at its userinfo: the user, the password (nil: no
    /// colon) and everything after the "@" (host, port, path, query). nil when the authority
    /// (up to the first "/", "?" or "#") has no "@"; with several, the last one ends the userinfo.
    public static func split(afterScheme url: Substring) -> (user: Substring, password: Substring?, rest: Substring)? {
        let authorityEnd = url.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[..<authorityEnd].lastIndex(of: "@") else { return nil }
        let userinfo = url[..<at]
        let rest = url[url.index(after: at)...]
        guard let colon = userinfo.firstIndex(of: ":") else { return (userinfo, nil, rest) }
        return (userinfo[..<colon], userinfo[userinfo.index(after: colon)...], rest)
    }
}
