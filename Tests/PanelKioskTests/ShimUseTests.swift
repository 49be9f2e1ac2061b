import Foundation
import Testing

/// The C shims that dlopen a library keep what they found in a `static` of their header: each
/// object file that calls them has its own copy, and a release build compiles a module into
/// several object files. Only the file that loads the library has its copy filled, so every
/// call must stay in that file (a picture's date read from another one called a null pointer
/// in the release build, which the debug build of the suite did not show).
@Suite("dlopen shims are called from one file each")
struct ShimUseTests {
    /// Each shim's function prefix and the one file that may call it.
    static let owners = [("panel_curl_", "Sources/PanelKiosk/DataSources/HTTPFetch.swift"),
                         ("panel_linebreaks_", "Sources/PanelRender/LineBreaks.swift"),
                         ("panel_thai_", "Sources/PanelRender/LineBreaks.swift"),
                         ("panel_window_", "Sources/PanelDisplay/WindowDisplay.swift")]

    @Test("no Swift file but the owner calls panel_curl_, panel_linebreaks_ or panel_window_")
    func oneFileEach() throws {
        let sources = repository + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        for (prefix, owner) in Self.owners {
            let callers = try files.filter { try fileText(sources + "/" + $0).contains(prefix) }
            #expect(callers.map { "Sources/" + $0 } == [owner], "\(prefix) is called from \(callers)")
        }
    }
}
