import CProcess
import Foundation
import Glibc

/// A program a test starts (the kiosk, a broker, a client, a checker), spawned and reaped here
/// rather than by Foundation's `Process`.
///
/// Why not `Process` (swift-corelibs-foundation, Swift 6.2 and 6.3): it learns that a child
/// ended when a socket pair it shares with the child reaches end-of-file, and that socket is
/// not close-on-exec, so every child started meanwhile from another test's thread inherits it.
/// A kiosk or a broker that inherited one kept a finished `mosquitto_pub` "running" until it
/// ended itself: `waitUntilExit()` hung whole runs (2 of 4 full parallel runs), and a `Process`
/// still waiting at exit held its arguments (a 6 KB message), which LeakSanitizer reported.
/// Here the child gets only its three streams (every other descriptor is closed in it), starts
/// with an empty signal mask and the default actions (the test runner blocks and ignores some),
/// and is reaped with `waitpid` by whoever asks how it ended.
public final class Child: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A pipe whose other end the test holds (`input`, `output`, `errors`).
        case pipe
        /// A descriptor of the test's (a file, a memory file), duplicated into the child.
        case descriptor(Int32)
        /// For stderr: wherever stdout goes (output and errors interleaved, as a terminal shows them).
        case output
    }

    /// Why a child did not start.
    public struct Failure: Error, CustomStringConvertible {
        /// The program.
        public var executable: String
        /// posix_spawn's errno (or pipe2's, memfd_create's).
        public var code: Int32
        /// The program and the system's words for the error.
        public var description: String { "\(executable): \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The test's end of the child's stdin when it is `.pipe` (write to it, `closeInput()` to
    /// end it), else -1.
    public private(set) var input: Int32 = -1
    /// The test's end of the child's stdout when it is `.pipe`, else -1.
    public let output: Int32
    /// The test's end of the child's stderr when it is `.pipe`, else -1.
    public let errors: Int32

    private let lock = NSLock()
    /// How it ended once reaped: `.some(code)` for an exit, `.some(nil)` for a signal.
    private var ended: Int32??

    /// Starts `executable` with `arguments` (argv[0] is the executable). `environment`: the
    /// child's whole environment (nil: the test's own), with `adding` set over it. `session`: a
    /// session of its own (a terminal's ^C and signals to the runner's group spare it).
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                adding: [String: String] = [:], stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null,
                session: Bool = false) throws(Failure) {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        // Each pipe: [read, write], close-on-exec in the test from the start (no other thread's
        // child can inherit it).
        var pipes: [[Int32]] = []
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        /// Closes both ends of every pipe made so far (the spawn did not happen).
        func closePipes() {
            for ends in pipes { Glibc.close(ends[0]); Glibc.close(ends[1]) }
            pipes.removeAll()
        }
        /// The child's descriptor `target` from `stream`; the test's end of a pipe, else -1.
        func wire(_ stream: Stream, to target: Int32) throws(Failure) -> Int32 {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                return -1
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, target)
                return -1
            case .output:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
                return -1
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard panel_pipe_cloexec(&ends) == 0 else {
                    let code = errno
                    closePipes()
                    throw Failure(executable: executable, code: code)
                }
                pipes.append(ends)
                // stdin reads the pipe's read end; stdout and stderr write its write end.
                posix_spawn_file_actions_adddup2(&actions, target == 0 ? ends[0] : ends[1], target)
                return target == 0 ? ends[1] : ends[0]
            }
        }
        let inputEnd = try wire(stdin, to: 0)
        let outputEnd = try wire(stdout, to: 1)
        let errorsEnd = try wire(stderr, to: 2)
        // Nothing else of the test process reaches the child, close-on-exec or not.
        panel_spawn_close_from(&actions, 3)
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        // glibc's POSIX_SPAWN_SETSID (2.26), declared only under _GNU_SOURCE.
        if session { flags |= 0x80 }
        posix_spawnattr_setflags(&attributes, flags)
        var variables = environment ?? ProcessInfo.processInfo.environment
        variables.merge(adding) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            closePipes()
            throw Failure(executable: executable, code: result)
        }
        // The child has its own copies; the test keeps only its ends.
        for ends in pipes {
            for end in ends where end != inputEnd && end != outputEnd && end != errorsEnd { Glibc.close(end) }
        }
        processIdentifier = pid
        (input, output, errors) = (inputEnd, outputEnd, errorsEnd)
    }

    deinit {
        // A child nobody asked about is not left running or a zombie.
        if reap() == nil {
            kill(processIdentifier, SIGKILL)
            _ = exitCode()
        }
        for fd in [input, output, errors] where fd >= 0 { close(fd) }
    }

    /// How it ended, without waiting: `.some(code)` for an exit, `.some(nil)` for a signal,
    /// nil while it runs. Reaps it when it has ended (asked again, the same answer).
    public func reap() -> Int32?? { wait(blocking: false) }

    /// Waits for it to end; its exit code, nil when a signal ended it.
    @discardableResult
    public func exitCode() -> Int32? { wait(blocking: true) ?? nil }

    /// Whether it still runs (reaping it when it has ended).
    public var isRunning: Bool { reap() == nil }

    /// Sends it `signal` (SIGTERM by default) while it runs; once reaped its pid may name
    /// another process, so nothing is sent then.
    public func terminate(_ signal: Int32 = SIGTERM) {
        lock.withLock { if ended == nil { _ = kill(processIdentifier, signal) } }
    }

    /// Closes the test's end of stdin: the child reads end-of-file.
    public func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// Reads stdout and stderr (those that are pipes) to their end, both at once so that
    /// neither can fill and block the child.
    public func readToEnd() -> (stdout: [UInt8], stderr: [UInt8]) {
        var out: [UInt8] = [], err: [UInt8] = []
        var open = [output, errors].filter { $0 >= 0 }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var waiters = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&waiters, nfds_t(waiters.count), -1) >= 0 || errno == EINTR else { break }
            for waiter in waiters where waiter.revents != 0 {
                let n = read(waiter.fd, &buffer, buffer.count)
                if n > 0 {
                    if waiter.fd == output { out += buffer[0..<n] } else { err += buffer[0..<n] }
                } else if n == 0 || errno != EINTR {
                    open.removeAll { $0 == waiter.fd }
                }
            }
        }
        return (out, err)
    }

    /// waitpid outside the lock (a blocking wait must not hold up `terminate` or `reap`); the
    /// outcome stored under it.
    private func wait(blocking: Bool) -> Int32?? {
        while true {
            if let known = lock.withLock({ ended }) { return known }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG) } while reaped == -1 && errno == EINTR
            let outcome: Int32?? = lock.withLock {
                if let ended { return ended }
                guard reaped == processIdentifier else { return nil }
                let code = panel_wait_exit_code(status)
                ended = .some(code >= 0 ? code : nil)
                return ended
            }
            // Not blocking, or another thread reaped it and is about to say how it ended.
            if outcome != nil || !blocking { return outcome }
            usleep(1_000)
        }
    }

    /// Runs `executable` to its end: its exit code (nil for a signal), stdout and stderr.
    /// `input`: its stdin (in a memory file: any size, read or not), else /dev/null.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           adding: [String: String] = [:], input: [UInt8]? = nil) throws(Failure) -> (code: Int32?, stdout: [UInt8], stderr: [UInt8]) {
        var stdin = Stream.null
        var memory: Int32 = -1
        defer { if memory >= 0 { close(memory) } }
        if let input {
            memory = panel_memfd("test-input")
            guard memory >= 0 else { throw Failure(executable: executable, code: errno) }
            var offset = 0
            while offset < input.count {
                let n = input[offset...].withUnsafeBytes { write(memory, $0.baseAddress, $0.count) }
                guard n > 0 else { throw Failure(executable: executable, code: errno) }
                offset += n
            }
            lseek(memory, 0, SEEK_SET)
            stdin = .descriptor(memory)
        }
        let child = try Child(executable, arguments, environment: environment, adding: adding, stdin: stdin, stdout: .pipe, stderr: .pipe)
        let (out, err) = child.readToEnd()
        return (child.exitCode(), out, err)
    }
}
