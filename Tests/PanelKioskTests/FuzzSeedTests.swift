import Foundation
import Testing
import PanelTestSupport
import PanelFuzz

/// Tests/Fuzz: the fuzz targets' seed corpora, with the inputs of crashes that were fixed.
let fuzzSeeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz").path

@MainActor
@Suite("Fuzz targets on their seeds")
struct FuzzSeedTests {
    @Test("every committed seed runs through its target without breaking an invariant", arguments: FuzzTarget.allCases)
    func seeds(target: FuzzTarget) throws {
        let folder = fuzzSeeds + "/" + target.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let data = try Data(fileBytes(folder + "/" + name))
            data.withUnsafeBytes { target.run($0) }
        }
    }
}
