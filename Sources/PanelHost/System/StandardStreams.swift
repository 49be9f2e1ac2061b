import Glibc

/// Standard input, output and error as the program expects them, before it opens anything.
///
/// A program started with a standard stream closed (`panel-refresh run >&- 2>&-`, or by a
/// supervisor that closes them) hands the lowest free numbers to the next `open` or `pipe`:
/// the signal pipe got fds 1 and 2, so the kiosk wrote its own log lines into it and read
/// them back as signals (byte 15 is SIGTERM) and stopped. Each of fds 0-2 that is closed is
/// opened on /dev/null first, so nothing else can take its number.
public enum StandardStreams {
    /// Opens /dev/null on each of fds 0, 1 and 2 that is closed. Call first thing in `main`.
    public static func secure() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number, which is this one: the lower ones are open.
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                _ = dup2(opened, fd)
                close(opened)
            }
        }
    }
}
