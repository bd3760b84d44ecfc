import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubsFiles/HTTPStubsFiles.docc/HTTPStubsFiles.md`, run as the page
/// says it runs. `Recordings/Repositories` beside this file is a stub root.
@Suite("Docs: HTTPStubsFiles")
struct FilesRootPageSnippetTests {
    @Test("a stub root loaded relative to the test file, and a template in code, answer through a session")
    func overview() async throws {
        let stubs = StubRegistry()
        try stubs.load("Recordings/Repositories", relativeTo: #filePath)  // a stub root: mappings/ and __files/
        stubs.stub(.get("https://api.example.com/echo/hello"), .template("you said {{request.path.[1]}}"))

        let session = stubs.makeSession()
        let (_, response) = try await session.data(from: URL(string: "https://api.github.com/orgs/swiftlang/repos")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let (echo, _) = try await session.data(from: URL(string: "https://api.example.com/echo/hello")!)
        #expect(String(decoding: echo, as: UTF8.self) == "you said hello")
    }
}
