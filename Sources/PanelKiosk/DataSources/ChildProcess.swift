import CProcess
import Dispatch
import Glibc
import PanelHost

/// One run of an outside program, supervised as a group: it leads a process group of its own,
/// its stdout and stderr are read together (neither pipe can fill and block it), each with a
/// limit, and whatever is left of the group when it is done is ended and reaped. The program's
/// own exit decides the result, not its pipes: a background child that keeps them open cannot
/// turn a good answer into a timeout.
enum ChildProcess {
    /// What the program left behind.
    struct Outcome: Equatable {
        /// The exit code, or nil when a signal ended it (`signal`).
        var exitCode: Int32?
        var signal: Int32
        /// Stdout, at most `Limits.stdoutBytes` of it.
        var stdout: [UInt8]
        /// More than `Limits.stdoutBytes` came on stdout (the rest was read and dropped).
        var stdoutOverflowed: Bool
        /// The last `Limits.stderrTailBytes` of stderr, for the log.
        var stderrTail: [UInt8]
    }

    /// Why no outcome.
    enum Failure: Error, Equatable {
        /// posix_spawn failed (missing program, not executable, ...): its errno.
        case spawn(errno: Int32)
        /// Still running at the deadline; its group got SIGTERM, then SIGKILL after the grace.
        case timedOut(stdoutOverflowed: Bool)
    }

    struct Limits {
        /// Seconds the program may run.
        var timeout: Double
        var stdoutBytes: Int
        /// 4 KiB: enough for the last lines of an error message, little enough for a log line.
        var stderrTailBytes = 4096
        /// Seconds between SIGTERM and SIGKILL at a timeout: 0.5, long enough for a well-behaved
        /// program to clean up, short enough that a refresh is not held up.
        var grace = 0.5
    }

    /// How often the loop looks whether the program has ended while its pipes stay open: 10 ms
    /// (a program that exits with its pipes still held by a child is seen within this).
    static let exitPollSeconds = 0.01

    /// Signals the program starts with at their default action: exec keeps a signal that the
    /// parent ignores (SIGPIPE, or anything a library set to SIG_IGN), so a child could
    /// otherwise not stop on SIGTERM; the mask is emptied for the same reason.
    static let resetSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGCHLD, SIGALRM]

    /// Runs `executable` with `arguments` (argv[0] is the executable) and `environment`,
    /// stdin from /dev/null, or `input` (a tap command's item). Blocks the calling thread until
    /// the program and its pipes are done; call it off the main actor.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    input: [UInt8]? = nil, limits: Limits) throws(Failure) -> Outcome {
        // The input in a memory file, not a pipe: a program that never reads it cannot block
        // the writer, and it may read it as often as it likes.
        var inputFD: Int32 = -1
        if let input {
            inputFD = panel_memfd("panel-refresh-input")
            guard inputFD >= 0 else { throw .spawn(errno: errno) }
            var offset = 0
            while offset < input.count {
                let n = SystemCall.uninterrupted { input[offset...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) } }
                guard n > 0 else { let e = errno; close(inputFD); throw .spawn(errno: e) }
                offset += n
            }
            lseek(inputFD, 0, SEEK_SET)
        }
        defer { if inputFD >= 0 { close(inputFD) } }
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard panel_pipe_cloexec(&outPipe) == 0 else { throw .spawn(errno: errno) }
        guard panel_pipe_cloexec(&errPipe) == 0 else {
            let e = errno
            close(outPipe[0]); close(outPipe[1])
            throw .spawn(errno: e)
        }
        let pid: pid_t
        let mark = ChildSupervisor.newMark()
        var marked = environment
        marked[ChildSupervisor.markVariable] = mark
        do {
            pid = try spawn(executable, arguments, environment: marked, stdin: inputFD, stdout: outPipe[1], stderr: errPipe[1])
        } catch {
            for fd in outPipe + errPipe { close(fd) }
            throw error
        }
        // Registered while it runs (the kiosk's exit ends it); its escaped descendants are
        // ended when it is done (ChildSupervisor).
        ChildSupervisor.started(pid, mark: mark)
        defer { ChildSupervisor.finished(pid, mark: mark) }
        // The child has its own copies; ours must go, or the pipes never reach end-of-file.
        close(outPipe[1])
        close(errPipe[1])
        var collector = Collector(stdoutFD: outPipe[0], stderrFD: errPipe[0], limits: limits)
        defer { collector.closeAll() }
        let deadline = now() + limits.timeout
        var ended = false
        while !ended {
            let remaining = deadline - now()
            if remaining <= 0 {
                endGroup(pid, grace: limits.grace)
                throw .timedOut(stdoutOverflowed: collector.stdoutOverflowed)
            }
            // While a pipe is open, wake for its data; either way look at the program's exit
            // at least every exitPollSeconds.
            collector.wait(seconds: min(remaining, exitPollSeconds))
            ended = panel_child_has_ended(pid) != 0
        }
        // What it wrote before it exited is already in the pipes.
        collector.drain()
        // Whatever it started and left running goes with it (the zombie leader still holds the
        // group id, so the id cannot name another group yet).
        kill(-pid, SIGKILL)
        let status = reap(pid)
        let code = panel_wait_exit_code(status)
        return Outcome(exitCode: code >= 0 ? code : nil, signal: panel_wait_signal(status), stdout: collector.stdout,
                       stdoutOverflowed: collector.stdoutOverflowed, stderrTail: collector.tail)
    }

    /// posix_spawn as the leader of a new process group, with a clean signal mask and default
    /// signal actions.
    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                              stdin: Int32, stdout: Int32, stderr: Int32) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if stdin >= 0 {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Nothing else of the kiosk's (the DRM card, touchscreens, sockets) reaches the program,
        // whether or not it was opened close-on-exec.
        panel_spawn_close_from(&actions, 3)
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in resetSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        // Checked first: where a spawn cannot report its exec's failure (qemu-user, some C
        // libraries' vfork paths) a missing program would look like one that exited 127.
        guard access(executable, X_OK) == 0 else { throw .spawn(errno: errno) }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // ETXTBSY: some process holds the program open for writing, often only for an instant
        // (a child forked elsewhere in this process between the file's write and its close
        // inherits the descriptor until its own exec). Try again briefly: 10 times, 10 ms apart.
        for _ in 0..<10 where result == ETXTBSY {
            usleep(10_000)
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard result == 0 else { throw .spawn(errno: result) }
        return pid
    }

    /// At a timeout: SIGTERM to the group, SIGKILL after `grace` seconds if the leader still
    /// runs, and SIGKILL to what is left either way; then reap the leader.
    private static func endGroup(_ pid: pid_t, grace: Double) {
        kill(-pid, SIGTERM)
        let until = now() + grace
        while panel_child_has_ended(pid) == 0, now() < until { usleep(UInt32(exitPollSeconds * 1_000_000)) }
        kill(-pid, SIGKILL)
        _ = reap(pid)
    }

    /// waitpid, retried on EINTR; the wait status.
    private static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        _ = SystemCall.uninterrupted { waitpid(pid, &status, 0) }
        return status
    }

    /// Seconds on the monotonic clock.
    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// Reads a child's stdout and stderr as they come, keeping at most the limits.
private struct Collector {
    var fds: [Int32]
    let stdoutFD: Int32
    let limits: ChildProcess.Limits
    var stdout: [UInt8] = []
    var stdoutOverflowed = false
    var stderrTail: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init(stdoutFD: Int32, stderrFD: Int32, limits: ChildProcess.Limits) {
        fds = [stdoutFD, stderrFD]
        (self.stdoutFD, self.limits) = (stdoutFD, limits)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Waits up to `seconds` for data on the open pipes (or just waits when none is open), then
    /// reads what is there.
    mutating func wait(seconds: Double) {
        var set = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&set, nfds_t(set.count), Int32((seconds * 1000).rounded(.up)))
        if ready > 0 { drain() }
    }

    /// Reads every open pipe until it would block; a pipe at end-of-file is closed.
    mutating func drain() {
        for fd in fds {
            while true {
                let n = SystemCall.uninterrupted { read(fd, &buffer, buffer.count) }
                if n > 0 {
                    keep(buffer[0..<n], from: fd)
                    continue
                }
                if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    close(fd)
                    fds.removeAll { $0 == fd }
                }
                break
            }
        }
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>, from fd: Int32) {
        if fd == stdoutFD {
            // Past the limit the pipe is still drained, so the program is not left blocked.
            let room = limits.stdoutBytes - stdout.count
            if bytes.count > room { stdoutOverflowed = true }
            stdout.append(contentsOf: bytes.prefix(max(0, room)))
        } else {
            stderrTail.append(contentsOf: bytes)
            if stderrTail.count > 2 * limits.stderrTailBytes { stderrTail.removeFirst(stderrTail.count - limits.stderrTailBytes) }
        }
    }

    mutating func closeAll() {
        for fd in fds { close(fd) }
        fds.removeAll()
    }

    /// The kept tail, trimmed to its limit.
    var tail: [UInt8] { Array(stderrTail.suffix(limits.stderrTailBytes)) }
}
