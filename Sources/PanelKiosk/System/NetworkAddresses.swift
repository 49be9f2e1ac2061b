import Glibc

/// The machine's IP addresses as a support person types them: each interface that is up and
/// not the loopback, IPv4 before IPv6, link-local IPv6 left out (it needs its interface to be
/// reached). Read with getifaddrs(3) when asked (`identify`), never held.
enum NetworkAddresses {
    /// "eth0 192.168.1.40", "wlan0 fd00::12", in the kernel's order within each family.
    static func current() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let list = first else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = list
        while let e = entry {
            defer { entry = e.pointee.ifa_next }
            let flags = Int32(e.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = e.pointee.ifa_addr else { continue }
            let name = String(cString: e.pointee.ifa_name)
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = Int32(address.pointee.sa_family)
            switch family {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                    var a = inet.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                    var a = inet.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
                }
            default: continue
            }
            let shown = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET {
                v4.append("\(name) \(shown)")
            } else if !shown.hasPrefix("fe80:") {
                v6.append("\(name) \(shown)")
            }
        }
        return v4 + v6
    }
}
