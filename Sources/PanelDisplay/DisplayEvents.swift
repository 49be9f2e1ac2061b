import Glibc

extension Display {
    /// Waits up to `timeout` seconds for the display's events (a page flip's completion) and
    /// handles them. Returns whether any came; false at once for a display without events
    /// (the caller paces itself). The one wait the kiosk's loop and the hardware check share.
    public func waitForEvents(timeout: Double) throws -> Bool {
        guard let fd = eventDescriptor else { return false }
        var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // Rounded up: a wait shorter than a millisecond must not turn into a busy poll.
        let milliseconds = Int32((min(max(0, timeout), 3600) * 1000).rounded(.up))
        guard poll(&waiter, 1, milliseconds) > 0 else { return false }
        try handleEvents()
        return true
    }
}
