import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub roots whose requests were answered by real WireMock 2.35.1 (`Tests/Fixtures/WireMockGroundTruth`):
/// the toolkit, through URLSession, must answer each with the same status.
@Suite("WireMock ground truth")
struct WireMockGroundTruthTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/WireMockGroundTruth")

    /// One recorded request and WireMock's status.
    struct Recorded: Decodable {
        let method: String
        let url: String
        let headers: [String: String]
        let body: String
        let wiremockStatus: Int
    }

    @Test("each request gets the status real WireMock answered", arguments: ["jsonpath-filters", "logical-operators"])
    func sameStatusAsWireMock(root: String) async throws {
        let rootURL = Self.folder.appendingPathComponent(root)
        let lines = try String(contentsOf: rootURL.appendingPathComponent("wiremock-answers.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        let recorded = try lines.map { try JSONDecoder().decode(Recorded.self, from: Data($0.utf8)) }
        #expect(recorded.count >= 15)
        let stubs = StubRegistry()
        try stubs.load(rootURL.path)
        let session = stubs.makeSession()
        var differences: [String] = []
        for (index, request) in recorded.enumerated() {
            let completion = await complete(
                session,
                HTTPStubsTests.request(request.method, request.url, body: request.body, headers: request.headers)
            )
            let status = completion.isUnmatched ? 404 : completion.status
            if status != request.wiremockStatus {
                differences.append(
                    "line \(index + 1): \(request.method) \(request.url) \(request.body): WireMock \(request.wiremockStatus), toolkit \(status.map(String.init) ?? "\(String(describing: completion.error))")"
                )
            }
        }
        #expect(
            differences.isEmpty,
            "\(differences.count) of \(recorded.count) answers differ from WireMock's:\n\(differences.joined(separator: "\n"))"
        )
    }
}
