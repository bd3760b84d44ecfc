import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `{{ }}` HTML-escapes as WireMock 2.35.1 does by default; ``StubTemplating/withoutEscaping`` prints
/// values as they are, as WireMock 3 does by default (`withTemplateEscapingDisabled`).
extension TemplatedResponseTests {
    /// A root whose templates print the query parameter `q` with `{{ }}`: in the body and a header of
    /// `/echo`, in a `jsonBody` (`/json`), in a body file (`/static`) and in the same file named by a
    /// template (`/file`, read and parsed per request), and in a stub that does not ask for templating
    /// (`/plain`, templated only globally).
    static func escapingRoot() throws -> TemporaryStubRoot {
        try TemporaryStubRoot(
            mappings: [
                "echo.json": mapping(
                    "/echo",
                    #"""
                    {"transformers": ["response-template"], "headers": {"X-Q": "{{request.query.q}}"},
                     "body": "{{request.query.q}}"}
                    """#
                ),
                "json.json": mapping(
                    "/json",
                    #"{"transformers": ["response-template"], "jsonBody": {"q": "{{request.query.q}}"}}"#
                ),
                "static.json": mapping(
                    "/static",
                    #"{"transformers": ["response-template"], "bodyFileName": "file.txt"}"#
                ),
                "file.json": mapping(
                    "/file",
                    #"{"transformers": ["response-template"], "bodyFileName": "{{request.path.[0]}}.txt"}"#
                ),
                "plain.json": mapping("/plain", #"{"body": "{{request.query.q}} {{{request.query.q}}}"}"#),
            ],
            files: ["file.txt": Data("{{request.query.q}}".utf8)]
        )
    }

    @Test(
        "{{ }} escapes as WireMock 2.35.1 by default; withoutEscaping prints values as they are, as WireMock 3",
        arguments: [
            (StubTemplating.perStub, "a&amp;b&#x3D;c&#x27;"),
            (.global, "a&amp;b&#x3D;c&#x27;"),
            (.perStub.withoutEscaping, "a&b=c'"),
            (.global.withoutEscaping, "a&b=c'"),
        ]
    )
    func escaping(templating: StubTemplating, expected: String) async throws {
        let root = try Self.escapingRoot()
        let registry = StubRegistry()
        try registry.load(root.path, templating: templating)
        let session = registry.makeSession()
        let query = "?q=a%26b%3Dc%27"

        #expect(try await Self.both(session, "http://localhost/echo" + query).body == expected)
        let url = URL(string: "http://localhost/echo" + query)!
        let completion = await complete(session, URLRequest(url: url))
        #expect(completion.http?.value(forHTTPHeaderField: "X-Q") == expected)
        let (_, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Q") == expected)

        #expect(try await Self.both(session, "http://localhost/json" + query).body == #"{"q":"\#(expected)"}"#)
        #expect(try await Self.both(session, "http://localhost/static" + query).body == expected)
        #expect(try await Self.both(session, "http://localhost/file" + query).body == expected)
        let plain = try await Self.both(session, "http://localhost/plain" + query).body
        #expect(
            plain == (templating.isGlobal ? expected + " a&b=c'" : "{{request.query.q}} {{{request.query.q}}}")
        )
    }

    @Test("withoutEscaping keeps which stubs are templates, and names itself")
    func withoutEscapingDescription() {
        #expect(StubTemplating.perStub.withoutEscaping.description == "perStub.withoutEscaping")
        #expect(StubTemplating.global.withoutEscaping.description == "global.withoutEscaping")
        #expect(StubTemplating.global.withoutEscaping.isGlobal)
        #expect(StubTemplating.perStub.withoutEscaping != .perStub)
        #expect(StubTemplating.perStub.withoutEscaping.withoutEscaping == .perStub.withoutEscaping)
    }
}
