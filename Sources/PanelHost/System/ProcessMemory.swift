import Glibc
import PanelInput

/// The kiosk's own memory, as the kernel counts it.
enum ProcessMemory {
    /// Resident bytes now: `/proc/self/statm`'s second field (pages) times the page size; nil
    /// where /proc cannot say (proc(5)).
    static func residentBytes() -> Int? {
        guard let bytes = try? BoundedFile.read("/proc/self/statm", limit: 256),
              let pages = String(decoding: bytes, as: UTF8.self).split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
