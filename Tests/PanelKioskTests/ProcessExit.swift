import Foundation

extension Process {
    /// Waits for the process to end and gives its exit code, nil when a signal ended it. The
    /// child is reaped here with `waitpid` rather than left to Foundation: with tests running
    /// in parallel, Foundation's SIGCHLD watch sometimes never fired, the child stayed a zombie
    /// and `waitUntilExit()` never returned (whole `swift test` runs hung on `--help` and
    /// usage tests).
    func exitCode() -> Int32? {
        while true {
            if let ended = reap() { return ended }
            usleep(1_000)
        }
    }

    /// How the process ended, without waiting: `.some(code)` for an exit, `.some(nil)` for a
    /// signal, nil while it runs. Reaps it when it has ended (call once it says so: a reaped
    /// child cannot be asked again).
    func reap() -> Int32?? {
        var status: Int32 = 0
        let pid = processIdentifier
        let reaped = waitpid(pid, &status, WNOHANG)
        // WIFEXITED and WEXITSTATUS (macros Swift does not import).
        if reaped == pid { return .some((status & 0x7f) == 0 ? (status >> 8) & 0xff : nil) }
        if reaped == -1 && errno == ECHILD {
            // Foundation reaped it first: its own account is there (or about to be).
            waitUntilExit()
            return .some(terminationReason == .exit ? terminationStatus : nil)
        }
        return nil
    }
}
