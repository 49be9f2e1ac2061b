import Foundation
import Testing
import PanelTestSupport

/// The tree's rules, held by a test: a rule only a comment states is broken by the next person
/// who never read it. What the host apps import pays only for what it uses; the core is pure
/// Swift; a library opened with dlopen keeps what it found in one C file.
@Suite("The tree's rules")
struct TreeRulesTests {
    /// The Swift files under `Sources/folder`, by path from the repository, with their text.
    static func swiftFiles(in folder: String) throws -> [(path: String, text: String)] {
        let root = repository + "/Sources/" + folder
        let names = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        return try names.sorted().map { ("Sources/\(folder)/\($0)", try fileText(root + "/" + $0)) }
    }

    /// The modules a file imports (`import X`, `@_exported import X`, `@testable import X`).
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
            guard words.count == 2, words[0] == "import" else { return nil }
            return words[1]
        }
    }

    /// The text without its comments (lines' `//` parts), where names that are only mentioned
    /// in prose do not count.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let comment = line.range(of: "//") else { return String(line) }
            return String(line[..<comment.lowerBound])
        }.joined(separator: "\n")
    }

    @Test("nothing under Sources/PanelHost imports curl, MQTT, JSON or the kiosk, nor names the kiosk's list, its broker link or its control socket")
    func hostPaysForNothingElse() throws {
        let files = try Self.swiftFiles(in: "PanelHost")
        #expect(files.count > 20)
        for (path, text) in files {
            let forbidden = Self.imports(text).filter { ["CCurl", "CMosquitto", "CJSON", "PanelKiosk"].contains($0) }
            #expect(forbidden.isEmpty, "\(path) imports \(forbidden)")
            let code = Self.code(text)
            for name in ["KioskList", "FleetLink", "ControlServer", "MQTTListSource", "KioskConfiguration"] {
                #expect(code.range(of: "\\b\(name)\\b", options: .regularExpression) == nil, "\(path) names \(name)")
            }
        }
    }

    @Test("the four core modules import no C module and nothing further down the data flow")
    func coreIsPure() throws {
        for module in ["PanelGestures", "PanelPhysics", "PanelUI", "PanelRefresh"] {
            for (path, text) in try Self.swiftFiles(in: module) {
                let wrong = Self.imports(text).filter {
                    ($0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true)
                        || ["PanelInput", "PanelRender", "PanelDisplay", "PanelHost", "PanelKiosk", "PanelApp"].contains($0)
                }
                #expect(wrong.isEmpty, "\(path) imports \(wrong)")
            }
        }
    }

    @Test("the arrows point one way: the display knows no host, the host no kiosk, PanelApp only re-exports PanelHost")
    func arrowsOneWay() throws {
        for (module, below) in [("PanelDisplay", ["PanelHost", "PanelKiosk", "PanelApp"]), ("PanelRender", ["PanelDisplay", "PanelHost", "PanelKiosk"]),
                                ("PanelInput", ["PanelRender", "PanelDisplay", "PanelHost", "PanelKiosk"])] {
            for (path, text) in try Self.swiftFiles(in: module) {
                let wrong = Self.imports(text).filter { below.contains($0) }
                #expect(wrong.isEmpty, "\(path) imports \(wrong)")
            }
        }
        let umbrella = try Self.swiftFiles(in: "PanelApp")
        #expect(umbrella.map(\.path) == ["Sources/PanelApp/Exports.swift"])
        #expect(umbrella.flatMap { Self.imports($0.text) } == ["PanelHost"])
    }

    @Test("a library opened with dlopen keeps what it found in one C file: dlopen in CDynamic only, dlsym in .c files only, no header holds a static table")
    func dlopenShims() throws {
        let sources = repository + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") || $0.hasSuffix(".swift") }
        var opens: [String] = []
        for file in files {
            let text = Self.code(try fileText(sources + "/" + file))
            if text.contains("dlopen(") { opens.append(file) }
            if text.contains("dlsym(") { #expect(file.hasSuffix(".c"), "\(file) looks a symbol up outside a C file") }
            if file.hasSuffix(".h") {
                #expect(text.range(of: #"static\s+struct\s+\w+_api\b"#, options: .regularExpression) == nil,
                        "\(file) keeps what dlopen found in a header's static: each object file would have a copy")
            }
        }
        #expect(opens == ["CDynamic/panel_dynamic.c"], "dlopen is called in \(opens)")
        for shim in ["CCurl", "CWindow", "CMosquitto"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: sources + "/" + shim)
            #expect(names.contains { $0.hasSuffix(".c") } && !names.contains("module.modulemap"), "\(shim) is a C target: \(names)")
        }
    }
}
