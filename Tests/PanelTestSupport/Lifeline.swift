import CProcess
import Foundation
import Glibc

/// The processes a test starts (kiosks, brokers) end with the test process, however it ends:
/// a test runner killed with SIGKILL left 3 kiosks and 2 brokers running, reparented to init.
///
/// A helper shell in a session of its own reads a pipe whose only writer is the test process
/// (close-on-exec, so no child holds it): a line `PID` binds a process, `-PID` lets it go.
/// When the test process is gone, whatever the reason, the kernel closes its end, the helper
/// reads end-of-file and kills every process still bound. (A death signal, `PR_SET_PDEATHSIG`,
/// would follow the thread that spawned the child, not the process: a test's thread may end
/// long before its kiosk should.)
public final class Lifeline: @unchecked Sendable {
    /// The test process's own lifeline.
    public static let shared = Lifeline()

    /// What the helper runs: it keeps the bound pids, and kills those left at end-of-file.
    static let script = """
        pids=' '
        while read -r line; do
            case "$line" in
                -*) rest=' '; for p in $pids; do [ "$p" = "${line#-}" ] || rest="$rest$p "; done; pids=$rest ;;
                *) pids="$pids$line " ;;
            esac
        done
        for p in $pids; do kill -KILL "$p" 2>/dev/null; done
        """

    /// glibc's POSIX_SPAWN_SETSID (2.26), declared only under _GNU_SOURCE.
    static let spawnSetsid: Int16 = 0x80

    private let lock = NSLock()
    /// The pipe's write end, -1 when the helper could not start (the children then live as
    /// before, and the check at exit still finds kiosks).
    private var writer: Int32 = -1
    /// The helper's pid.
    public private(set) var helper: pid_t = 0

    /// A lifeline with a helper of its own (`shared` is the test process's).
    public init() {
        var ends: [Int32] = [-1, -1]
        // Both ends close-on-exec from the start: no child spawned meanwhile may hold the writer.
        guard panel_pipe_cloexec(&ends) == 0 else { return }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // A session of its own: a terminal's ^C or a signal to the runner's group spares it.
        posix_spawnattr_setflags(&attributes, Self.spawnSetsid)
        let words: [String] = ["/bin/sh", "-c", Self.script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        Glibc.close(ends[0])
        guard spawned == 0 else {
            Glibc.close(ends[1])
            return
        }
        (writer, helper) = (ends[1], pid)
    }

    /// `pid` is killed when the test process ends, unless ``release(_:)`` comes first.
    public func bind(_ pid: pid_t) { say("\(pid)") }

    /// `pid` ended (it was reaped): its number is no longer ours to kill.
    public func release(_ pid: pid_t) { say("-\(pid)") }

    /// Closes the pipe as the test process's end would close: the helper kills what is bound
    /// and exits (tests of the lifeline itself).
    public func cut() {
        lock.withLock {
            if writer >= 0 { Glibc.close(writer) }
            writer = -1
        }
    }

    private func say(_ line: String) {
        lock.withLock {
            guard writer >= 0 else { return }
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        }
    }
}
