import Testing
@testable import PanelRender
import PanelUI

@MainActor
@Suite("One face for a stretch of a script the faces would split")
struct ScriptRunFaceTests {
    /// The files of the faces drawing the Arabic-script letters of `text`.
    func arabicFaces(_ text: String, fonts: FontLibrary) -> Set<String> {
        let (scalars, runs) = fonts.shapedRuns(text, font: .system(17), pixels: 17)
        var files = Set<String>()
        for run in runs {
            for i in run.range where (0x0600...0x06FF).contains(scalars[i].value) { files.insert(fonts.file(ofFace: run.face).path) }
        }
        return files
    }

    @Test("Urdu's ہ and ے no longer come from another face in the middle of a word: the whole Urdu text is drawn by one face that has them; Arabic the first face draws stays in it")
    func urdu() throws {
        let fonts = try FontLibrary()
        try #require(fonts.canDraw(Unicode.Scalar(0x06C1)!, in: .system(17)), "needs a face with U+06C1 (fonts-nafees, which the package depends on and scripts/bootstrap installs)")
        let urdu = "یہ گاڑی سات بجے روانہ ہوگی"
        #expect(urdu.unicodeScalars.contains { $0.value == 0x06C1 } && urdu.unicodeScalars.contains { $0.value == 0x06D2 })
        let faces = arabicFaces(urdu, fonts: fonts)
        #expect(faces.count == 1, "\(faces)")
        // Arabic that the first face draws whole keeps that face.
        let arabic = arabicFaces("القطار يغادر الساعة السابعة", fonts: fonts)
        #expect(arabic.count == 1)
        #expect(arabic != faces || faces.contains { $0.contains("Nafees") }, "\(arabic) \(faces)")
        // The Latin around it keeps its own face.
        let (scalars, runs) = fonts.shapedRuns("S1 " + urdu, font: .system(17), pixels: 17)
        let latin = runs.first { $0.range.contains(0) }.map { fonts.file(ofFace: $0.face).path }
        #expect(latin?.contains("DejaVu") == true, "\(latin ?? "")")
        #expect(scalars.count == urdu.unicodeScalars.count + 3)
    }
}
