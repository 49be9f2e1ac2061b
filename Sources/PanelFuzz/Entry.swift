import FoundationEssentials
import PanelKiosk
import Glibc

/// The target the entry points run; set once by `LLVMFuzzerInitialize`, before any input.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer's set-up hook, also called by panel-refresh-fuzz's own main: takes the target's
/// name off the command line (argv[1]), so that what follows is libFuzzer's. 0, or 2 with the
/// usage on stderr when no target is named.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    guard argc.pointee >= 2, let vector = argv.pointee, let name = vector[1],
          let target = FuzzTarget(rawValue: String(cString: name)) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        var stream = StandardError()
        print("usage: panel-refresh-fuzz \(names) [libFuzzer options] [CORPUS]...", to: &stream)
        exit(2)
    }
    selected = target
    // A process of its own: the memory target may measure its resident set.
    FuzzTarget.measuresMemory = true
    for i in 1..<Int(argc.pointee) { vector[i] = vector[i + 1] }
    argc.pointee -= 1
    return 0
}

/// One input: libFuzzer calls it on the thread that started it, the main thread.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // The bytes are libFuzzer's until this returns; the target copies what it keeps.
    nonisolated(unsafe) let bytes = UnsafeRawBufferPointer(start: data, count: size)
    MainActor.assumeIsolated { selected?.run(bytes) }
    return 0
}
