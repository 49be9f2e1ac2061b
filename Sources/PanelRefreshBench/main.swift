// Benchmarks, one case per line as `case=NAME key=value ...`, for comparing runs by script.
// Build in release: `swift run -c release panel-refresh-bench input`.
import Foundation

let usage = "usage: panel-refresh-bench input|render|render-instructions|feel|pictures-memory ROWS CACHE_MB pictures|plain trim|keep|decode FILE WxH|parse-memory FILE|make-picture KIND SIDE FILE (render-instructions under callgrind: scripts/bench-instructions; decode under /usr/bin/time: scripts/decode-memory; parse-memory in a memory group: scripts/parse-memory)"
let arguments = CommandLine.arguments.dropFirst()
guard let which = arguments.first else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
do {
    switch which {
    case "input": try InputBenchmark.run()
    case "render": try MainActor.assumeIsolated { try RenderBenchmark.run() }
    case "render-instructions": try MainActor.assumeIsolated { try InstructionCount.run() }
    case "feel":
        try MainActor.assumeIsolated { try FeelBenchmark.run() }
    case "pictures-memory": try MainActor.assumeIsolated { try PictureMemory.run(Array(arguments.dropFirst())) }
    case "decode": try DecodeMemory.run(Array(arguments.dropFirst()))
    case "parse-memory": try ParseMemory.run(Array(arguments.dropFirst()))
    case "make-picture": try DecodeMemory.make(Array(arguments.dropFirst()))
    case "--help", "-h":
        print(usage)
    default:
        FileHandle.standardError.write(Data("panel-refresh-bench: unknown benchmark \"\(which)\"\n\(usage)\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("panel-refresh-bench: \(error)\n".utf8))
    exit(1)
}
