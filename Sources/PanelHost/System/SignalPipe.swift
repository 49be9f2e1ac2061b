import CProcess
import Glibc

/// The kiosk's signals as bytes in a pipe, from the first line of `main` on.
///
/// A signal's default action ends the process, and the run loop can only take signals once
/// its sources exist: a SIGHUP sent while `run` started up used to kill it. The handler
/// installed here (C, in CProcess) only writes the signal's number into a pipe (write(2) is
/// async-signal-safe), so nothing is lost or fatal in between; the loop reads the pipe
/// whenever it is ready, and a signal that came early is acted on then.
public enum SignalPipe {
    /// SIGTERM and SIGINT stop the kiosk, SIGHUP reloads its configuration, SIGUSR1 logs the
    /// frame timings, SIGUSR2 is the VT's switch signal (a stray one, with no switch pending
    /// or no VT, changes nothing).
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

    /// Signals whose default action would end the kiosk and that mean nothing to it: ignored.
    /// SIGPIPE: with stderr's reader gone (a closed pipe, a journal that went away) the next
    /// log line killed the program; ignored, the write fails with EPIPE and the line is lost.
    /// SIGALRM: a stray signal an operator or a script may send. Children start with both at
    /// their defaults again (`ChildProcess.resetSignals`).
    public static let ignored: [Int32] = [SIGPIPE, SIGALRM]

    /// The pipe's write end (non-blocking, close-on-exec), which the handler writes to.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// The pipe's read end (non-blocking, close-on-exec), -1 before `install()`.
    nonisolated(unsafe) public private(set) static var readEnd: Int32 = -1

    /// Creates the pipe, takes `handled` and ignores `ignored`. Call once, first thing (after
    /// `StandardStreams.secure()`).
    public static func install() throws {
        guard readEnd < 0 else { return }
        for number in ignored { signal(number, SIG_IGN) }
        var fds: [Int32] = [-1, -1]
        guard panel_pipe_cloexec(&fds) == 0 else { throw SystemCallError(call: "pipe2", errno: errno) }
        // A full pipe drops the byte instead of blocking the handler.
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readEnd = fds[0]
        writeEnd = fds[1]
        // The handler is C (CProcess's shim says why): it writes the number into the pipe.
        for number in handled where panel_signal_to_pipe(number, writeEnd) != 0 {
            throw SystemCallError(call: "sigaction", errno: errno)
        }
    }

    /// The signals that arrived since the last call, oldest first.
    public static func receive() -> [Int32] {
        guard readEnd >= 0 else { return [] }
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = SystemCall.uninterrupted { read(readEnd, &buffer, buffer.count) }
            guard n > 0 else { return received }
            received += buffer[0..<n].map { Int32($0) }
        }
    }

    /// Gives the signals back to their default actions, for commands that have no loop to
    /// take them (a Ctrl-C ends `replay` or `record`); one that came meanwhile is raised again.
    public static func release() {
        for number in handled { signal(number, SIG_DFL) }
        for number in receive() { raise(number) }
    }
}
