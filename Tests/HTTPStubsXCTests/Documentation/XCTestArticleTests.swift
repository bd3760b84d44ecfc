// The snippets of Sources/HTTPStubsTesting/HTTPStubsTesting.docc/XCTest.md and AsyncTestHelpers.md, each in a test
// that runs it. `Profile` and `ProfileLoader` come from ReadmeXCTestExample.swift.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ProfileLoader {
    /// The completion-handler API, awaited.
    func profile(id: Int) async throws -> Profile {
        try await awaitCallback { done in load(id: id, completion: done) }.get()
    }
}

final class DocumentationXCTestArticleTests: XCTestCase {
    func test_aServerErrorThrows() async {
        let stubs = makeStubRegistry()
        stubs.stub(.get("https://api.example.com/v1/profiles/7"), .status(500))
        let loader = ProfileLoader(session: stubs.makeSession())
        await XCTAssertThrowsErrorAsync(try await loader.profile(id: 7), URLError(.badServerResponse))
    }

    func test_assertionsInAResponderCountForTheTest() async throws {
        let stubs = makeStubRegistry(inFlightTimeout: .seconds(5))
        stubs.stub(.get("https://api.example.com/v1/profiles/{id}"), expecting: .once) { request in
            XCTAssertEqual(request.pathParameters["id"], "42")  // a failure of this test, at this line
            return .json(Profile(id: 42, name: "Ada"))
        }
        let profile = try await ProfileLoader(session: stubs.makeSession()).profile(id: 42)
        XCTAssertEqual(profile.name, "Ada")
    }
}
