import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk

/// The frames the VM harness compares the panel's screendumps with.
@MainActor
@Suite struct ExpectedFrameTests {
    @Test func aRefreshChangesTheRowsAndNothingElse() throws {
        let first = try ExpectedFrame.render(width: 320, height: 240, refreshes: 1)
        let second = try ExpectedFrame.render(width: 320, height: 240, refreshes: 2)
        let again = try ExpectedFrame.render(width: 320, height: 240, refreshes: 1)
        var changed = 0
        for y in 0..<240 {
            for x in 0..<320 {
                #expect(first.pixel(x: x, y: y) == again.pixel(x: x, y: y))
                if first.pixel(x: x, y: y) != second.pixel(x: x, y: y) { changed += 1 }
            }
        }
        // The second refresh brings other rows' texts; the layout (header closed) stays.
        #expect(changed > 0)
        #expect(changed < 320 * 240 / 10)
    }

    @Test func ppmIsBinaryRGBInRowOrder() throws {
        let surface = try ExpectedFrame.render(width: 64, height: 48, refreshes: 1)
        let data = ExpectedFrame.ppm(surface)
        let header = Array("P6\n64 48\n255\n".utf8)
        #expect(Array(data.prefix(header.count)) == header)
        #expect(data.count == header.count + 64 * 48 * 3)
        let pixel = surface.pixel(x: 5, y: 7)
        let offset = header.count + (7 * 64 + 5) * 3
        #expect(data[offset] == UInt8(pixel >> 16 & 0xff))
        #expect(data[offset + 1] == UInt8(pixel >> 8 & 0xff))
        #expect(data[offset + 2] == UInt8(pixel & 0xff))
    }
}

extension ExpectedFrameTests {
    /// The header opens above the rows: the rows move down by its height and the top changes.
    @Test func refreshingOpensTheHeaderAboveTheSameRows() throws {
        let closed = try ExpectedFrame.render(width: 320, height: 240, refreshes: 1)
        let open = try ExpectedFrame.render(width: 320, height: 240, refreshes: 1, refreshing: true)
        var topChanged = 0, shiftedDiffer = 0
        for y in 0..<240 {
            for x in 0..<320 {
                if y < 54, open.pixel(x: x, y: y) != closed.pixel(x: x, y: y) { topChanged += 1 }
                if y >= 54, open.pixel(x: x, y: y) != closed.pixel(x: x, y: y - 54) { shiftedDiffer += 1 }
            }
        }
        #expect(topChanged > 100)
        #expect(shiftedDiffer == 0)
    }
}
