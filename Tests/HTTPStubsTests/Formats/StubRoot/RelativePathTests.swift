import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `load(_:relativeTo:)` and `replay(_:relativeTo:)` find a stub root by the same rule: an absolute
/// path as it is, a relative one in the folder of the `relativeTo` file.
@Suite("Relative stub paths")
struct RelativePathTests {
    /// A stub root with one mapping (`GET /ping`) in a new temporary folder.
    private static func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("relative-\(UUID().uuidString)")
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(#"{"request": {"method": "GET", "url": "/ping"}, "response": {"status": 204}}"#.utf8)
            .write(to: root.appendingPathComponent("mappings/ping.json"))
        return root
    }

    /// `root` written relative to the folder of this source file (`../../…/tmp/…`).
    private static func relativeToThisFile(_ root: URL) -> String {
        let folder = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().standardizedFileURL.pathComponents
        let ups = Array(repeating: "..", count: folder.count - 1)
        return (ups + root.standardizedFileURL.pathComponents.dropFirst()).joined(separator: "/")
    }

    @Test("the one rule: absolute as is, relative in the file's folder, else the current directory")
    func rule() {
        #expect(StubRootPath.resolving("/srv/stubs", relativeTo: "/work/Tests/FeedTests.swift") == "/srv/stubs")
        let resolved = StubRootPath.resolving("Stubs/Feed", relativeTo: "/work/Tests/FeedTests.swift")
        #expect(resolved == "/work/Tests/Stubs/Feed")
        #expect(StubRootPath.resolving("Stubs/Feed", relativeTo: nil) == "Stubs/Feed")
    }

    @Test("load(_:relativeTo:) reads an absolute and a relative path")
    func load() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let relative = Self.relativeToThisFile(root)
        #expect(!relative.hasPrefix("/"))
        #expect(try StubRegistry().load(root.path, relativeTo: #filePath).count == 1)
        #expect(try StubRegistry().load(relative, relativeTo: #filePath).count == 1)
    }

    @Test("replay(_:relativeTo:) reads an absolute and a relative path, as load does")
    func replay() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        for path in [root.path, Self.relativeToThisFile(root)] {
            let stubs = StubRegistry()
            #expect(try stubs.replay(path, relativeTo: #filePath, mode: .none) == .none)
            #expect(stubs.stubs.count == 1, "\(path)")
        }
    }
}
