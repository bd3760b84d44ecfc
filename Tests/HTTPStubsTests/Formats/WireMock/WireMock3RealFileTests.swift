import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPStubs

/// Real mapping files that use WireMock 3 matchers (`Tests/Fixtures/WireMock3`, listed in its `SOURCES.md`).
/// WireMock 2.35.1 refuses them, so they have no recorded answers and stay out of the wild corpus's
/// differential harness; each is loaded as its own root with `StubRegistry.load` and asked, through a
/// real URLSession, requests whose answers follow from WireMock 3's documented semantics (and from the
/// requests the source repository's own tests send to WireMock 3).
@Suite("Real WireMock 3 mapping files")
struct WireMock3RealFileTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/WireMock3")

    /// The one root of `wiremock/wiremock-testcontainers-go`'s v3 test files, loaded.
    static func stubs() throws -> StubRegistry {
        let stubs = StubRegistry()
        try stubs.load(folder.appendingPathComponent("wiremock__wiremock-testcontainers-go").path)
        return stubs
    }

    @Test("matchesJsonSchema with schemaVersion V202012 (testdata/200-v3-json-schema.json)")
    func jsonSchema() async throws {
        let stubs = try Self.stubs()
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let url = "https://api.example.test/schema-match"
        // As the repository's TestV3JsonSchema: a body with the required string `name` matches…
        let valid = await complete(session, request("POST", url, body: #"{"name": "WireMock","tag": "v3"}"#))
        #expect(valid.status == 200, "\(String(describing: valid.error))")
        // …and one without it does not (WireMock 3 answers 404).
        #expect(await complete(session, request("POST", url, body: #"{"tag": "v2"}"#)).isUnmatched)
        // `name` must be a string, `tag` too; a body that is not JSON fails the schema.
        #expect(await complete(session, request("POST", url, body: #"{"name": 3}"#)).isUnmatched)
        #expect(await complete(session, request("POST", url, body: #"{"name": "a", "tag": 2}"#)).isUnmatched)
        #expect(await complete(session, request("POST", url, body: "not json")).isUnmatched)
        // Extra properties are allowed (no additionalProperties), and the method is part of the stub.
        #expect(await complete(session, request("POST", url, body: #"{"name": "a", "other": [1]}"#)).status == 200)
        #expect(await complete(session, request("PUT", url, body: #"{"name": "a"}"#)).isUnmatched)
    }

    @Test("hasExactly on a repeated query parameter (testdata/v3-url-with-multi-query-values.json)")
    func hasExactly() async throws {
        let stubs = try Self.stubs()
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let base = "https://api.example.test/things"
        // As the repository's TestV3MultipQueryValues.
        #expect(await complete(session, base + "?id=1&id=2&id=3").status == 200)
        // Every value must be matched by one of the patterns and every pattern by a value, in any order.
        #expect(await complete(session, base + "?id=3&id=1&id=2").status == 200)
        #expect(await complete(session, base + "?id=1&id=2").isUnmatched)
        #expect(await complete(session, base + "?id=1&id=2&id=3&id=4").isUnmatched)
        #expect(await complete(session, base + "?id=1&id=2&id=5").isUnmatched)
        #expect(await complete(session, base).isUnmatched)
        #expect(await complete(session, request("POST", base + "?id=1&id=2&id=3")).isUnmatched)
    }
}
