import Glibc

/// A value that threads share, behind a pthread mutex: `withLock` gives one thread at a time
/// the value to read and change.
///
/// Why not the Synchronization module's `Mutex`: on Linux its contended path waits on a futex
/// inside that module, which is not built for ThreadSanitizer, so the sanitizer could not see
/// the order in which two threads took it and reported a race on the value it guards
/// (`ChildSupervisor`'s runs, two commands ending at once under `scripts/sanitize thread`).
/// ThreadSanitizer intercepts pthread's mutex, and a mutex it cannot see is one whose races it
/// cannot find either.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// `value`, behind a mutex of its own.
    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the mutex held; its result.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
