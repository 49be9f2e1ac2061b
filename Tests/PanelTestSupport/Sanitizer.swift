import Glibc

/// Whether this test process was built with AddressSanitizer or ThreadSanitizer
/// (`scripts/sanitize`): their runtimes are linked in, and with them shadow memory that makes a
/// process's resident set many times the program's. Tests whose figures are memory are skipped
/// there, visibly; the plain build holds them.
public enum Sanitizer {
    /// True when a sanitizer's runtime is in the process (its entry point can be found).
    public static let isActive: Bool = {
        // RTLD_DEFAULT: every object loaded in the process.
        let names: [String] = ["__asan_init", "__tsan_init"]
        return names.contains { dlsym(UnsafeMutableRawPointer(bitPattern: 0), $0) != nil }
    }()
}
