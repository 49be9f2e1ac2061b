import Foundation
import Testing
import PanelTestSupport
@testable import PanelUI

/// `code` as a PGM picture: `pixels` a module, the 4-module quiet zone around it, dark on white.
func pgm(_ code: QRCode, pixels: Int = 3) -> [UInt8] {
    let side = (code.size + 8) * pixels
    var out = Array("P5\n\(side) \(side)\n255\n".utf8)
    for py in 0..<side {
        for px in 0..<side { out.append(code.isDark(x: px / pixels - 4, y: py / pixels - 4) ? 0 : 255) }
    }
    return out
}

@Suite("QR codes: the standard's numbers, and what a phone's reader decodes")
struct QRCodeTests {
    @Test("Reed–Solomon: the correction codewords of the standard's worked example (Annex I: 01234567 at 1-M) and of HELLO WORLD at 1-M")
    func reedSolomon() {
        let annex: [UInt8] = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
        #expect(QRReedSolomon.remainder(of: annex, degree: 10) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85])
        let hello: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRReedSolomon.remainder(of: hello, degree: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test("the format bits of the standard's Table C.1 and the version bits of Table D.1")
    func formatAndVersionBits() {
        #expect(QRCodeMatrix.formatBits(level: .low, mask: 0) == 0b111011111000100)
        #expect(QRCodeMatrix.formatBits(level: .medium, mask: 5) == 0b100000011001110)
        #expect(QRCodeMatrix.formatBits(level: .quartile, mask: 7) == 0b010101111101101)
        #expect(QRCodeMatrix.formatBits(level: .high, mask: 3) == 0b001100111010000)
        #expect(QRCodeMatrix.versionBits(7) == 0x07C94)
        #expect(QRCodeMatrix.versionBits(40) == 0x28C69)
    }

    @Test("codewords and byte capacities are the standard's (Tables 1 and 7)")
    func capacities() {
        #expect(QRCodeVersion(number: 1).totalCodewords == 26)
        #expect(QRCodeVersion(number: 7).totalCodewords == 196)
        #expect(QRCodeVersion(number: 40).totalCodewords == 3706)
        let table: [(Int, QRCode.Correction, Int)] = [
            (1, .low, 17), (1, .medium, 14), (1, .quartile, 11), (1, .high, 7),
            (7, .medium, 122), (10, .medium, 213),
            (40, .low, 2953), (40, .medium, 2331), (40, .quartile, 1663), (40, .high, 1273),
        ]
        for (version, level, bytes) in table {
            #expect(QRCode.byteCapacity(version: version, correction: level) == bytes, "version \(version) \(level)")
        }
        #expect(throws: QRCode.EncodingError.tooLong(bytes: 2954, limit: 2953)) {
            try QRCode(bytes: [UInt8](repeating: 65, count: 2954), correction: .low)
        }
    }

    @Test("the alignment patterns' centres are Annex E's")
    func alignment() {
        #expect(QRCodeVersion(number: 1).alignmentCentres == [])
        #expect(QRCodeVersion(number: 2).alignmentCentres == [6, 18])
        #expect(QRCodeVersion(number: 7).alignmentCentres == [6, 22, 38])
        #expect(QRCodeVersion(number: 16).alignmentCentres == [6, 26, 50, 74])
        #expect(QRCodeVersion(number: 32).alignmentCentres == [6, 34, 60, 86, 112, 138])
        #expect(QRCodeVersion(number: 36).alignmentCentres == [6, 24, 50, 76, 102, 128, 154])
        #expect(QRCodeVersion(number: 40).alignmentCentres == [6, 30, 58, 86, 114, 142, 170])
    }

    @Test("the smallest version that holds the text; three finders, timing rows and the dark module where the standard puts them")
    func structure() throws {
        let code = try QRCode(text: "https://example.org/panel/hall-2")  // 32 bytes: version 3 at M (2 holds 26)
        #expect(code.version == 3 && code.size == 29)
        for (cx, cy) in [(3, 3), (code.size - 4, 3), (3, code.size - 4)] {
            // Rings out from the centre: dark 3×3, light, dark, then the light separator.
            for d in -3...3 {
                #expect(code.isDark(x: cx + d, y: cy - 3))
                #expect(code.isDark(x: cx - 3, y: cy + d))
                #expect(code.isDark(x: cx + d, y: cy + 3))
            }
            for d in -2...2 {
                #expect(!code.isDark(x: cx + d, y: cy - 2) && !code.isDark(x: cx + 2, y: cy + d))
            }
            for d in -1...1 { #expect(code.isDark(x: cx + d, y: cy) && code.isDark(x: cx, y: cy + d)) }
            for d in -4...4 { #expect(!code.isDark(x: cx + d, y: cy == 3 ? cy + 4 : cy - 4)) }
        }
        for i in 8..<(code.size - 8) {
            #expect(code.isDark(x: i, y: 6) == (i % 2 == 0) && code.isDark(x: 6, y: i) == (i % 2 == 0))
        }
        #expect(code.isDark(x: 8, y: code.size - 8))
    }

    @Test("zbarimg reads back what was encoded: every level, versions 1 to 40 full to the byte, each of the eight masks, and UTF-8 text",
          .enabled(if: tool("zbarimg") != nil, "needs zbarimg (zbar-tools; scripts/bootstrap installs it)"))
    func readBack() throws {
        // Printable ASCII that changes at every byte, so no two codes of one length agree.
        func text(_ count: Int, seed: Int) -> String {
            var bytes: [UInt8] = []
            for i in 0..<count {
                let offset = (i * 7 + seed * 13) % 94
                bytes.append(UInt8(33 + offset))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var cases: [(QRCode, String)] = []
        let levels = QRCode.Correction.allCases
        for (i, version) in [1, 2, 5, 6, 7, 9, 10, 14, 20, 26, 27, 32, 40].enumerated() {
            let level = levels[i % 4]
            let t = text(QRCode.byteCapacity(version: version, correction: level), seed: i)
            let code = try QRCode(text: t, correction: level)
            #expect(code.version == version && code.correction == level)
            cases.append((code, t))
        }
        for mask in 0..<8 {
            let t = text(40, seed: 100 + mask)
            let code = try QRCode(bytes: Array(t.utf8), correction: .medium, mask: mask)
            #expect(code.mask == mask)
            cases.append((code, t))
        }
        let unicode = "Zürich Hbf · 北京 · القاهرة"
        cases.append((try QRCode(text: unicode), unicode))

        let dir = try scratchDirectory("qr")
        var files: [String] = []
        for (i, (code, _)) in cases.enumerated() {
            let path = "\(dir)/code-\(i).pgm"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(pgm(code))))
            files.append(path)
        }
        // One symbol a file, each printed raw on a line of its own, in the files' order.
        let run = try Child.run(try #require(tool("zbarimg")), ["--quiet", "--raw"] + files)
        let read = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(run.code == 0, "\(String(decoding: run.stderr, as: UTF8.self))")
        for (i, (code, expected)) in cases.enumerated() {
            let got = i < read.count ? read[i] : "(nothing)"
            #expect(got == expected, "version \(code.version) \(code.correction) mask \(code.mask)")
        }
    }
}
