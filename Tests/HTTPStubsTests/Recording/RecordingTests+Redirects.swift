import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A redirect the real server answers while recording is followed as a stub's redirect is, by
/// the same code: put to the session's delegate first, and counted with the stubs' redirects
/// against URLSession's limit of 16. (Recording used to follow the server's redirects on its own,
/// without asking the delegate, and with a count of its own.)
extension RecordingTests {
    #if canImport(FoundationNetworking)
    @Test("a redirect the real server answers is put to the session's delegate, which may refuse it")
    func delegateRefusesARecordedRedirect() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder()
            let delegate = RefusingDelegate()
            let session = recorder.makeSession(delegate: delegate)
            defer { session.finishTasksAndInvalidate() }

            let completion = await complete(session, server.request("GET", "/redirect"))
            #expect(completion.error == nil)
            #expect(completion.status == 302, "the caller gets the 302 the delegate refused to follow")
            #expect(completion.http?.value(forHTTPHeaderField: "Location") == "/users/1")
            #expect(delegate.asked == [server.base + "/users/1"])
            #expect(recorder.journal.map(\.request.url.path) == ["/redirect"], "the redirect was not followed")
            #expect(recorder.journal.first?.response?.status == 302)
        }
    }
    #endif

    @Test("the real server's redirects count with the stubs' against the limit of 16")
    func recordedRedirectsCountTowardsTheLimit() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder()
            // 16 stubbed redirects lead to the server's /redirect, whose 302 is the 17th.
            for hop in 0..<16 {
                let next = hop == 15 ? "/redirect" : "/hop/\(hop + 1)"
                recorder.stub(.get(URLPattern(server.base + "/hop/\(hop)")), .redirect(to: next))
            }
            let session = recorder.makeSession()
            defer { session.finishTasksAndInvalidate() }

            let completion = await complete(session, server.request("GET", "/hop/0"))
            #expect(completion.urlError?.code == .httpTooManyRedirects, "\(String(describing: completion.error))")
            #expect(recorder.journal.last?.request.url.path == "/redirect", "/users/1 was not requested")
        }
    }
}

/// A session delegate that refuses every redirect, and records the URLs it was asked about.
private final class RefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let askedURLs = Locked<[String]>([])

    var asked: [String] { askedURLs.value }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        askedURLs.withLock { $0.append(request.url?.absoluteString ?? "") }
        completionHandler(nil)
    }
}
