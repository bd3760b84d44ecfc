import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The failures the toolkit itself causes, each turned into the `URLError` a client receives.
/// Every description says what happened and how to fix it.
package enum StubError: Error, Sendable {
    case unmatched(UnmatchedRequestReport)
    /// Testing the request against the stub at `stub` spent the request's work budget (see
    /// ``WorkBudget``): `request` is its line, secrets masked.
    case matchingGaveUp(stub: StubSource, request: String, exhaustion: WorkBudget.Exhaustion)
    case brokenStub(String)
    case unreadableBodyFile(URL, underlying: String)
    /// A stub root's body file does not exist (answered with status 500, as WireMock does).
    case missingBodyFile(URL)
    case responderFailed(source: StubSource, error: String)
    case tooManyRedirects(count: Int, lastURL: URL)
    case downloadTaskUnsupported
    case noResponseForAsyncCall
    case notIntercepting
    case registryGone
    /// ``NetworkGuard`` stopped a request that would have reached the network; the message says why.
    case stoppedByNetworkGuard(String)
    /// The request was still being served when its test ended (waiting for `virtualDeadline` on a
    /// ``ManualStubClock`` that stood at `now`, or for real time).
    case testEnded(test: String, request: String, virtualDeadline: Duration?, now: Duration?)
    /// The request reached the registry after its test had ended.
    case arrivedAfterTestEnded(test: String, request: String)
    /// A stub answered `request` with `stream`, which answers `first` already.
    case streamTaken(stream: String, request: String, first: String)
    /// `request` was still reading `stream`, which the test had not ended, when its test ended.
    case streamLeftOpen(test: String, request: String, stream: String)

    var code: URLError.Code {
        switch self {
        case .unmatched, .matchingGaveUp: return .resourceUnavailable
        case .brokenStub, .responderFailed, .noResponseForAsyncCall: return .cannotParseResponse
        case .unreadableBodyFile, .missingBodyFile: return .fileDoesNotExist
        case .tooManyRedirects: return .httpTooManyRedirects
        case .downloadTaskUnsupported: return .unsupportedURL
        case .notIntercepting, .registryGone, .testEnded, .arrivedAfterTestEnded, .streamTaken, .streamLeftOpen:
            return .resourceUnavailable
        case .stoppedByNetworkGuard: return .notConnectedToInternet
        }
    }

    var message: String {
        switch self {
        case let .unmatched(report):
            return report.text
        case let .matchingGaveUp(stub, request, exhaustion):
            return
                "Matching \(request) gave up at the stub at \(stub): \(exhaustion). Simplify that stub's test "
                + "(a regular expression without nested or overlapping repetition such as '(a|aa)+', a JSON schema "
                + "whose levels do not each try several '$ref's, a JSONPath expression without repeated '..') "
                + "or send a smaller body."
        case let .brokenStub(problem):
            return "The stub that matched is broken: \(problem)."
        case let .missingBodyFile(url):
            return "The stub's body file \(url.path) does not exist; add the file or fix 'bodyFileName'."
        case let .unreadableBodyFile(url, underlying):
            return
                "The stub's body file \(url.path) cannot be read: "
                + "\(underlying); check the path, or whether the file exists."
        case let .responderFailed(source, error):
            return
                "The computed response of the stub at \(source) threw \(error); "
                + "throw a URLError to fail the request on purpose."
        case let .tooManyRedirects(count, lastURL):
            return
                "Stopped after \(count) redirects, at \(LogMasking.url(lastURL.absoluteString)); "
                + "a stub probably redirects in a loop."
        case .downloadTaskUnsupported:
            return
                "Download tasks cannot be stubbed on Linux: "
                + "swift-corelibs-foundation crashes when a custom URLProtocol serves one. "
                + "Use a data task (data(for:) or dataTask(with:)) and write the data to a file yourself."
        case .noResponseForAsyncCall:
            return
                "The stub answers without a URLResponse, which makes swift-corelibs-foundation's async "
                + "data(for:) crash; give the stub a response (for example HTTPURLResponse with status 200)."
        case .notIntercepting:
            return
                "URLProtocolStub is not intercepting requests: call "
                + "URLProtocolStub.startInterceptingRequests() before making requests through its sessions."
        case let .stoppedByNetworkGuard(message):
            return message
        case .registryGone:
            return
                "The StubRegistry this session was made from no longer exists; "
                + "keep the registry alive as long as its sessions are used."
        case let .testEnded(test, request, virtualDeadline?, now):
            let clock = now.map { ", and the ManualStubClock stood at \($0.seconds) s" } ?? ""
            return
                "\(request) was still waiting for virtual time \(virtualDeadline.seconds) "
                + "s when its test \(test) ended\(clock); advance the clock that far "
                + "(await clock.advance(by:)) and await the request before the test returns."
        case let .testEnded(test, request, nil, _):
            return
                "\(request) was still in flight when its test \(test) ended; "
                + "await the work that makes the request (a Task { }, a completion handler) before the test "
                + "returns, or give the scope more time with HTTPStubsScope.inFlightTimeout."
        case let .streamTaken(stream, request, first):
            return
                "\(request) was answered with the \(stream), which already answers \(first); a stream answers "
                + "one request: give each request its own StubStream (stub(_:responses:) with one .stream per "
                + "request). An SSE client reconnects when a stream ends: end the responses with .status(204), "
                + "which tells it to stop."
        case let .streamLeftOpen(test, request, stream):
            return
                "\(request) was still reading the \(stream) when its test \(test) ended; end the stream with "
                + "stream.finish() or stream.fail(_:) (or cancel the task that reads it) before the test returns."
        case let .arrivedAfterTestEnded(test, request):
            return
                "\(request) arrived after its test \(test) had ended, so no test could check it; await the "
                + "work that makes the request (a Task { }, a completion handler) before the test returns."
        }
    }

    /// The `URLError` a client receives, carrying the message and the failing URL; `"\(error)"`
    /// prints the message first (see ``MessageFirstError``), `localizedDescription` is the message.
    package func urlError(for url: URL?) -> URLError {
        MessageFirstError.urlError(code, message: message, url: url)
    }
}
