import CProcess
import Glibc
import PanelHost

/// The programs the kiosk runs, and what they leave behind.
///
/// `ChildProcess` ends a command's process group when the command is done, but two things
/// escaped it: a SIGTERM to the kiosk while a command ran let the kiosk exit and the group run
/// on, and a command that starts a daemon (`setsid`, a new session and group) left one daemon
/// per refresh, alive after the kiosk. Now every run is registered while it lasts, with its
/// start time, and carries a mark in its environment (`PANEL_REFRESH_RUN`), which its
/// descendants inherit. When the kiosk is a child subreaper (`becomeSubreaper()`), orphaned
/// descendants come back to it as children, whatever they did to their environment, session or
/// group: the kiosk has no children but its runs' leaders, so every other child is a run's
/// orphan. At the end of each run every orphan that cannot belong to a run still going is
/// ended: one with a finished run's mark, or one without a mark (it cleared its environment,
/// `env -i setsid daemon`) that started before every run still going began (a descendant starts
/// after its run's leader). On the way out `endAll` ends every group still running and every
/// orphan.
public enum ChildSupervisor {
    /// The environment variable that marks a run's descendants.
    public static let markVariable = "PANEL_REFRESH_RUN"

    /// A run going on: its mark and when its leader started (clock ticks since boot, as
    /// /proc/PID/stat's field 22 gives them).
    struct Run: Sendable { var mark: String; var start: UInt64 }

    private struct State {
        /// Running leaders and their runs.
        var running: [pid_t: Run] = [:]
        var counter = 0
        var subreaper = false
    }
    private static let state = Locked(State())

    /// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER).
    /// The kiosk calls it at start; tests that start commands in-process do not, as their
    /// runner's other children are not ours to end.
    public static func becomeSubreaper() throws {
        guard panel_become_child_subreaper() == 0 else { throw SystemCallError(call: "prctl(PR_SET_CHILD_SUBREAPER)", errno: errno) }
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

    /// `pid` leads a run marked `mark`; its start time is read while it is certainly alive
    /// (not yet reaped).
    static func started(_ pid: pid_t, mark: String) {
        let start = processStat(pid)?.start ?? 0
        state.withLock { $0.running[pid] = Run(mark: mark, start: start) }
    }

    /// The run of `pid` is over (its leader reaped): the orphans that came back to this process
    /// and cannot belong to a run still going are ended, and exited orphans are reaped.
    static func finished(_ pid: pid_t, mark: String) {
        let isSubreaper = state.withLock {
            $0.running[pid] = nil
            return $0.subreaper
        }
        guard isSubreaper else { return }
        endDescendants { child in
            let going = state.withLock { Array($0.running.values) }
            return !belongs(child, toAnyOf: going)
        }
    }

    /// Whether an orphan may be a descendant of one of `runs`: it carries one's mark, or it
    /// carries none and started after the earliest of them began.
    static func belongs(_ child: (mark: String?, start: UInt64), toAnyOf runs: [Run]) -> Bool {
        if let mark = child.mark { return runs.contains { $0.mark == mark } }
        guard let earliest = runs.map(\.start).min() else { return false }
        return child.start >= earliest
    }

    /// Ends every group still running (SIGTERM, then SIGKILL after `grace` seconds) and every
    /// marked descendant: the kiosk calls this on its way out.
    public static func endAll(grace: Double = 0.5) {
        let leaders = state.withLock { Array($0.running.keys) }
        for pid in leaders { kill(-pid, SIGTERM) }
        let until = MonotonicClock.now() + grace
        while MonotonicClock.now() < until, leaders.contains(where: { panel_child_has_ended($0) == 0 }) { usleep(10_000) }
        for pid in leaders { kill(-pid, SIGKILL) }
        if state.withLock({ $0.subreaper }) { endDescendants { _ in true } }
    }

    /// Children of this process that are not a running leader and that `matches` (given
    /// their mark, nil for none, and start time): killed with their groups and reaped, in
    /// rounds (a killed daemon's own children come back to us in turn), at most 8. Exited
    /// orphans (zombies, which have no environment left) are reaped too.
    private static func endDescendants(_ matches: ((mark: String?, start: UInt64)) -> Bool) {
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
                guard matches((mark(of: child.pid), child.start)) else { continue }
                if getpgid(child.pid) == child.pid { kill(-child.pid, SIGKILL) }
                kill(child.pid, SIGKILL)
                var status: Int32 = 0
                _ = SystemCall.uninterrupted { waitpid(child.pid, &status, 0) }
                ended += 1
            }
            if ended == 0 { return }
            // Their children are re-parented to us as they go; give the kernel a moment.
            usleep(10_000)
        }
    }

    /// This process's children, from /proc/*/stat.
    private static func children() -> [(pid: pid_t, zombie: Bool, start: UInt64)] {
        let me = getpid()
        var found: [(pid: pid_t, zombie: Bool, start: UInt64)] = []
        for name in DirectoryNames.of("/proc") ?? [] {
            guard let pid = pid_t(name), pid != me, let stat = processStat(pid), stat.parent == me else { continue }
            found.append((pid, stat.zombie, stat.start))
        }
        return found
    }

    /// A process's parent, whether it is a zombie, and its start time (clock ticks after boot)
    /// from /proc/PID/stat: "pid (comm) state ppid ..." with the start the 22nd field; comm may
    /// hold blanks and parentheses, so the fields are read after the last ')'.
    static func processStat(_ pid: pid_t) -> (parent: pid_t, zombie: Bool, start: UInt64)? {
        guard let stat = try? BoundedFile.read("/proc/\(pid)/stat", limit: 4096),
              let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        // After ')': state is field 3, ppid 4, starttime 22.
        guard fields.count > 19, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)),
              let start = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return (parent, fields[0].first == UInt8(ascii: "Z"), start)
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
