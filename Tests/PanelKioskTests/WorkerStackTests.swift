import Foundation
import Glibc
import Testing
@testable import PanelHost
@testable import PanelKiosk

/// Runs `work` on a new thread with a stack of `bytes`, as Dispatch's workers get once
/// `WorkerStacks.limit()` ran, and waits for it.
private func onThread(stackBytes bytes: Int, _ work: @escaping @Sendable () -> Void) throws {
    final class Box: @unchecked Sendable {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    #expect(pthread_attr_setstacksize(&attributes, bytes) == 0)
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(work)).toOpaque()
    let created = pthread_create(&thread, &attributes, { context in
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        box.work()
        return nil
    }, box)
    try #require(created == 0)
    pthread_join(thread, nil)
}

/// Nested arrays `depth` deep: `[[[...]]]`.
private func nested(_ depth: Int) -> [UInt8] {
    Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
}

@Suite("Worker thread stacks")
struct WorkerStackTests {
    @Test("worker stacks are under 2 MiB, so no whole 2 MiB-aligned range fits in one")
    func underTwoMebibytes() {
        #expect(WorkerStacks.bytes < 2 * 1024 * 1024)
        #expect(WorkerStacks.bytes >= 1024 * 1024)
    }

    @Test("the deepest JSON the decoder takes, and deeper, parse or fail on a worker's stack without overflowing it")
    func deepNesting() throws {
        final class Outcome: @unchecked Sendable { var results: [Int: Bool] = [:] }
        let outcome = Outcome()
        try onThread(stackBytes: WorkerStacks.bytes) {
            for depth in [64, 511, 512, 513, 10_000] {
                outcome.results[depth] = (try? JSONValue.parse(nested(depth))) != nil
            }
        }
        // Reaching here is the test: an overflow ends the whole process. The decoder takes up
        // to its limit and refuses past it (a hostile page gets an error, not a crash).
        #expect(outcome.results[64] == true)
        #expect(outcome.results[511] == true)
        #expect(outcome.results[10_000] == false)
    }
}
