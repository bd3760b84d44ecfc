import Foundation
import Testing

/// The README's complete test examples are files of this package's test targets, copied verbatim,
/// so that what users copy compiles and passes.
@Suite("README examples")
struct ReadmeTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the README shows each example file exactly", arguments: [
        "Tests/HTTPStubsTests/Testing/ReadmeSwiftTestingExample.swift",
        "Tests/HTTPStubsTests/Testing/ReadmeVirtualTimeExample.swift",
        "Tests/HTTPStubsXCTests/ReadmeXCTestExample.swift",
    ])
    func readmeShowsTheExample(path: String) throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let file = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
        // The file's first line says where it is shown; the rest is the example.
        let example = file.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[1]
            .trimmingCharacters(in: .newlines)
        #expect(readme.contains("```swift\n\(example)\n```"), "README.md no longer shows \(path) as it is; copy the file into it again")
    }
}
