// The snippets of Sources/HTTPStubsTesting/HTTPStubsTesting.docc/SwiftTesting.md and StubCodeInItsTest.md, each in
// a test that runs it. `Feed` and `FeedClient` come from ReadmeSwiftTestingExample.swift, `User` from
// Support/Fetch.swift.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Sendable func addFeedStubs(_ stubs: StubRegistry) {
    stubs.stub(.get("https://api.example.com/v1/feed"), .json(Feed(items: ["a", "b"])), expecting: .once)
}

func expectUserFetch(
    _ id: Int,
    in stubs: StubRegistry,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    stubs.stub(
        .get("https://api.example.com/users/\(id)"),
        .json(User(id: id, name: "Ada")),
        expecting: .once,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

@Suite("Documentation: HTTPStubsTesting's Swift Testing article")
struct DocumentationSwiftTestingArticleTests {
    @Test(.httpStubs)
    func plainTrait() async throws {
        let stubs = StubRegistry.current()
        stubs.stub(.get("https://api.example.com/v1/feed"), .json(Feed(items: ["a"])))
        let feed = try await FeedClient(session: stubs.makeSession()).feed()
        #expect(feed.items == ["a"])
    }

    @Test(.httpStubs(addFeedStubs))
    func stubsFromAFunction() async throws {
        let feed = try await FeedClient(session: StubRegistry.current().makeSession()).feed()
        #expect(feed.items == ["a", "b"])
    }

    @Test(.httpStubs { stubs in try stubs.load("../../../../Stubs", relativeTo: #filePath) })  // the package's Stubs/
    func stubFilesBesideTheTest() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/42")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await StubRegistry.current().makeSession().data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("Ada Lovelace"))
    }

    // resources: [.copy("Resources/BundledStubs")]
    @Test(.httpStubs { stubs in try stubs.load("BundledStubs", in: .module) })
    func stubFilesInTheTestBundle() async throws {
        let url = URL(string: "https://api.example.com/bundled/greeting")!
        let (data, _) = try await StubRegistry.current().makeSession().data(from: url)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("hello from Bundle.module"))
    }

    @Test(
        .httpStubs(clock: { ManualStubClock() }) { stubs in
            stubs.stub(.get("https://api.example.com/v1/feed"), .json(Feed(items: ["late"])).delayed(by: .seconds(5)))
        }
    )
    func traitWithAManualClock() async throws {
        let stubs = StubRegistry.current()
        let clock = stubs.clock as! ManualStubClock
        let load = Task { try await FeedClient(session: stubs.makeSession()).feed() }
        await clock.advance(by: .seconds(5))
        #expect(try await load.value.items == ["late"])
    }

    @Test func aFailureMessageCanBeTested() async {
        let url = URL(string: "https://api.example.com/nothing-here")!
        await withKnownIssue {
            await withHTTPStubs { stubs in _ = try? await stubs.makeSession().data(from: url) }
        } matching: {
            $0.description.contains("Unmatched request")
        }
    }

    @Test func anUnmatchedRequestFailsAtTheScopeLine() async {
        let url = URL(string: "https://api.example.com/nothing-here")!
        let scopeLine = #line + 2
        await withKnownIssue {
            await withHTTPStubs { stubs in _ = try? await stubs.makeSession().data(from: url) }
        } matching: {
            $0.sourceLocation?.line == scopeLine
        }
    }

    @Test func aHelperForwardsItsCallersLocation() {
        let expectedLine = #line + 3
        withKnownIssue {
            withHTTPStubs { stubs in
                expectUserFetch(42, in: stubs)  // never requested: fails here, not in the helper
            }
        } matching: { issue in
            issue.description.contains("expected to answer exactly once") && issue.sourceLocation?.line == expectedLine
        }
    }

    @Test func expectInAResponderCountsForTheTest() async throws {
        try await withHTTPStubs { stubs in
            stubs.stub(.post("https://api.example.com/v1/feed")) { request in
                #expect(request.header("Content-Type") == "application/json")  // a failure of this test
                return .status(201)
            }
            var post = URLRequest(url: URL(string: "https://api.example.com/v1/feed")!)
            post.httpMethod = "POST"
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (_, response) = try await stubs.makeSession().data(for: post)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
        }
    }

    @Test func anExpectInAResponderIsAttributedToItsTest() async throws {
        try await withKnownIssue {
            try await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/v1/feed")) { _ in
                    #expect(Bool(false), "recorded for this test")
                    return .status(204)
                }
                _ = try await stubs.makeSession().data(from: URL(string: "https://api.example.com/v1/feed")!)
            }
        } matching: {
            $0.description.contains("recorded for this test")
        }
    }
}
