import CProcess
import FoundationEssentials
import Glibc
import PanelInput
import Synchronization

/// The programs the kiosk runs, and what they leave behind.
///
/// `ChildProcess` ends a command's process group when the command is done, but two things
/// escaped it: a SIGTERM to the kiosk while a command ran let the kiosk exit and the group run
/// on, and a command that starts a daemon (`setsid`, a new session and group) left one daemon
/// per refresh, alive after the kiosk. Now every run is registered while it lasts and carries a
/// mark in its environment (`PANEL_REFRESH_RUN`), which its descendants inherit. When the
/// kiosk is a child subreaper (`becomeSubreaper()`), orphaned descendants come back to it as
/// children; at the end of each run those with the run's mark are ended, and on the way out
/// `endAll` ends every group still running and every marked descendant.
public enum ChildSupervisor {
    /// The environment variable that marks a run's descendants.
    public static let markVariable = "PANEL_REFRESH_RUN"

    private struct State {
        /// Running leaders and their marks.
        var running: [pid_t: String] = [:]
        var counter = 0
        var subreaper = false
    }
    private static let state = Mutex(State())

    /// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER).
    /// The kiosk calls it at start; tests that start commands in-process do not, as their
    /// runner's other children are not ours to end.
    public static func becomeSubreaper() throws {
        guard panel_become_child_subreaper() == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        state.withLock { $0.subreaper = true }
    }

    /// Whether the system answers PR_GET_CHILD_SUBREAPER (a Linux kernel does since 3.4;
    /// qemu-user does not emulate it, so there escaped descendants go to init).
    public static var isSubreaperSupported: Bool { panel_child_subreaper_supported() != 0 }

    /// A new mark for a run: this process's id and a counter.
    static func newMark() -> String {
        state.withLock {
            $0.counter += 1
            return "\(getpid())-\($0.counter)"
        }
    }

    static func started(_ pid: pid_t, mark: String) { state.withLock { $0.running[pid] = mark } }

    /// The run of `pid` is over (its leader reaped): its marked descendants that came back to
    /// this process are ended, and exited orphans are reaped.
    static func finished(_ pid: pid_t, mark: String) {
        let isSubreaper = state.withLock {
            $0.running[pid] = nil
            return $0.subreaper
        }
        guard isSubreaper else { return }
        endDescendants { $0 == mark }
    }

    /// Ends every group still running (SIGTERM, then SIGKILL after `grace` seconds) and every
    /// marked descendant: the kiosk calls this on its way out.
    public static func endAll(grace: Double = 0.5) {
        let leaders = state.withLock { Array($0.running.keys) }
        for pid in leaders { kill(-pid, SIGTERM) }
        let until = RealTimeDriver.now() + grace
        while RealTimeDriver.now() < until, leaders.contains(where: { panel_child_has_ended($0) == 0 }) { usleep(10_000) }
        for pid in leaders { kill(-pid, SIGKILL) }
        if state.withLock({ $0.subreaper }) { endDescendants { _ in true } }
    }

    /// Children of this process that are not a running leader and whose mark `matches`:
    /// killed with their groups and reaped, in rounds (a killed daemon's own children come back
    /// to us in turn), at most 8. Exited orphans (zombies, which have no environment left)
    /// are reaped too.
    private static func endDescendants(_ matches: (String) -> Bool) {
        for _ in 0..<8 {
            let leaders = state.withLock { Set($0.running.keys) }
            let strays = children().filter { !leaders.contains($0.pid) }
            var ended = 0
            for child in strays {
                if child.zombie {
                    var status: Int32 = 0
                    _ = waitpid(child.pid, &status, WNOHANG)
                    continue
                }
                guard let mark = mark(of: child.pid), matches(mark) else { continue }
                if getpgid(child.pid) == child.pid { kill(-child.pid, SIGKILL) }
                kill(child.pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
                ended += 1
            }
            if ended == 0 { return }
            // Their children are re-parented to us as they go; give the kernel a moment.
            usleep(10_000)
        }
    }

    /// This process's children, from /proc/*/stat (the fourth field is the parent's id; the
    /// third the state, Z for a zombie).
    private static func children() -> [(pid: pid_t, zombie: Bool)] {
        let me = getpid()
        var found: [(pid: pid_t, zombie: Bool)] = []
        for name in DirectoryNames.of("/proc") ?? [] {
            guard let pid = pid_t(name), pid != me,
                  let stat = try? BoundedFile.read("/proc/\(name)/stat", limit: 4096) else { continue }
            // "pid (comm) state ppid ...": comm may hold blanks and parentheses, so read after the last ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 2, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)), parent == me else { continue }
            found.append((pid, fields[0].first == UInt8(ascii: "Z")))
        }
        return found
    }

    /// The value of `markVariable` in a process's environment, nil when it has none.
    private static func mark(of pid: pid_t) -> String? {
        guard let environ = try? BoundedFile.read("/proc/\(pid)/environ", limit: 1 << 20) else { return nil }
        let prefix = Array((markVariable + "=").utf8)
        for entry in environ.split(separator: 0) where entry.starts(with: prefix) {
            return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
        }
        return nil
    }
}
