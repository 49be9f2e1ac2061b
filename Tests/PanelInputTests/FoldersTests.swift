import Glibc
import Testing
@testable import PanelInput

/// Folders and written files without FoundationEssentials: `Folders`, `OutputFile`.
@Suite("Folders and output files")
struct FoldersTests {
    /// A new folder under the temporary one, removed by the test.
    static func scratch() throws -> String {
        var template = Array("\(Folders.temporary)/folders-test-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        return String(cString: made)
    }

    @Test("a folder and its parents are made; one already there is fine; a file in the way is not")
    func create() throws {
        let root = try Self.scratch()
        defer { Folders.removeTree(root) }
        try Folders.create(root + "/a/b/c")
        #expect(Folders.isFolder(root + "/a/b/c"))
        try Folders.create(root + "/a/b/c/")
        try OutputFile.write(Array("x".utf8), to: root + "/a/file")
        #expect(throws: Folders.Failure(path: root + "/a/file", errno: ENOTDIR)) { try Folders.create(root + "/a/file/d") }
    }

    @Test("a tree is removed with what it holds, and a link in it without what it points to")
    func removeTree() throws {
        let root = try Self.scratch()
        let outside = try Self.scratch()
        defer { Folders.removeTree(outside) }
        try Folders.create(root + "/x/y")
        try OutputFile.write([1, 2, 3], to: root + "/x/y/z")
        try OutputFile.write([4], to: outside + "/kept")
        #expect(symlink(outside, root + "/x/link") == 0)
        Folders.removeTree(root)
        #expect(!Folders.exists(root))
        #expect(Folders.exists(outside + "/kept"))
    }

    @Test("an output file is created or truncated, and a failure names the step and errno")
    func outputFile() throws {
        let root = try Self.scratch()
        defer { Folders.removeTree(root) }
        try OutputFile.write(Array("longer text".utf8), to: root + "/out")
        try OutputFile.write(Array("short".utf8), to: root + "/out")
        #expect(try BoundedFile.read(root + "/out", limit: 100) == Array("short".utf8))
        #expect(throws: AtomicFile.Failure(step: "open", errno: ENOENT)) { try OutputFile.write([0], to: root + "/no/such/out") }
    }

    @Test("the temporary folder is TMPDIR's, without a trailing slash, else /tmp")
    func temporary() {
        #expect(Folders.temporary(tmpdir: "/var/tmp/") == "/var/tmp")
        #expect(Folders.temporary(tmpdir: "/") == "/")
        #expect(Folders.temporary(tmpdir: "") == "/tmp")
        #expect(Folders.temporary(tmpdir: nil) == "/tmp")
    }
}
