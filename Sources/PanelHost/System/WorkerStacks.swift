import CProcess

/// The stack size of the threads Dispatch starts for work off the main actor (pages loaded
/// and parsed, commands run).
///
/// glibc gives a thread the stack limit's size, 8 MiB. Debian's kernels are built with
/// transparent huge pages "always": wherever a whole 2 MiB-aligned range of an anonymous
/// mapping is touched, the kernel may back it with one 2 MiB page, so a worker whose stack use
/// crosses into such a range may hold 2 MiB for a few KiB (docs/deployment.md, "What it costs
/// on a panel", has what the VM showed). A stack smaller than 2 MiB contains no such range.
/// 1,920 KiB still leaves room for the deepest page a server can send: FoundationEssentials'
/// JSON decoder refuses nesting past 512 levels, and `WorkerStackTests` decodes that depth on
/// a thread of this size in a debug build.
public enum WorkerStacks {
    /// Bytes: 2 MiB less 128 KiB, so that the mapping with its guard page stays under 2 MiB.
    public static let bytes = 1_920 * 1024

    /// Makes `bytes` the default for threads started from now on; call before any work leaves
    /// the main thread.
    public static func limit() throws(WorkerStackError) {
        let error = panel_set_default_thread_stack(bytes)
        guard error == 0 else { throw WorkerStackError(errno: error) }
    }
}

/// The C library refused the default stack size.
public struct WorkerStackError: Error, CustomStringConvertible {
    /// What pthread_attr_setstacksize said.
    public let errno: Int32
    /// What failed, with the errno.
    public var description: String { "cannot set the worker threads' stack size: errno \(errno)" }
}
