import Glibc

/// A system call that failed: its name and errno (what the message and the branch on it need).
public struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call ("bind", "accept4").
    public var call: String
    /// errno after it.
    public var errno: Int32

    /// The failure of `call` with `errno`.
    public init(call: String, errno: Int32) { (self.call, self.errno) = (call, errno) }

    /// "bind: Address already in use (errno 98)".
    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The one habit of a system call, in one place (swift-system's `valueOrErrno(retryOnInterrupt:)`):
/// a result of -1 is an error carrying the call and errno, and EINTR is retried. Here, below
/// every module that calls the kernel, so none writes the EINTR loop out again.
public enum SystemCall {
    /// `body`'s result, retried while it fails with EINTR.
    /// - Throws: `SystemCallError` when it returns -1 with another errno.
    public static func retrying<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            if errno != EINTR { throw SystemCallError(call: call, errno: errno) }
        }
    }

    /// `body`'s result, called again while it fails with EINTR (a signal arrived): -1 is
    /// left with errno for the caller, who tells EAGAIN and the rest apart itself.
    public static func uninterrupted<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }
}
