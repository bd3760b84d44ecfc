import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body a registry with one stub answering `pattern` with `.template(template)` sends back to
/// `posted`, checked to be the same by completion handler and by `async`.
func templateAnswer(_ template: String, stubbing pattern: RequestPattern, to posted: URLRequest) async throws -> String
{
    let stubs = StubRegistry()
    stubs.stub(pattern, .template(template))
    let session = stubs.makeSession()
    let completion = await complete(session, posted)
    let (data, _) = try await session.data(for: posted)
    #expect(completion.data == data)
    return String(decoding: data, as: UTF8.self)
}
