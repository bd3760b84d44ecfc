import Foundation
import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HAROutcome {
    /// The stub response that replays it.
    var stubResponse: StubResponse {
        switch self {
        case let .response(response):
            let answer = StubResponse.http(
                status: response.status,
                headers: response.headers,
                body: response.body.isEmpty ? .empty : .data(response.body)
            )
            return response.reason.isEmpty ? answer : answer.reason(response.reason)
        case let .failure(errorName):
            return .error(HARReader.urlErrorCode(forBrowserError: errorName))
        case let .urlError(code):
            return .error(code)
        }
    }
}
