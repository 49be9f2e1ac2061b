import Testing
@testable import PanelRender
import PanelUI

/// Where a surface's pixels live: from two pages up in a mapping of its own (which goes back to
/// the system with the surface), below that from malloc.
@Suite("Surface memory")
struct SurfaceMemoryTests {
    @Test("a surface of two pages or more has a mapping of its own, zeroed and page-aligned; a smaller one comes from malloc")
    func ownMapping() {
        let thumbnail = Surface(width: 56, height: 56, format: .argb8888)   // 12,544 bytes
        #expect(thumbnail.isOwnMapping)
        #expect(Int(bitPattern: thumbnail.pixels) % 4096 == 0)
        #expect((0..<56).allSatisfy { y in (0..<56).allSatisfy { thumbnail.pixel(x: $0, y: y) == 0 } })
        Canvas(surface: thumbnail).fill(Rect(x: 0, y: 0, width: 56, height: 56), color: Color(red: 255, green: 0, blue: 0))
        #expect(thumbnail.pixel(x: 55, y: 55) == 0xffff_0000)

        let small = Surface(width: 40, height: 40, format: .argb8888)   // 6,400 bytes
        #expect(!small.isOwnMapping)
        #expect(small.pixel(x: 39, y: 39) == 0)
        #expect(Surface(width: 32, height: 16, format: .argb8888).stride * 16 < Surface.ownMappingBytes)
        #expect(Surface(width: 2048, height: 1, format: .argb8888).isOwnMapping)
    }
}
