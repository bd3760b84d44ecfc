import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a response's delivery ended for the caller: the journal keeps it with each response
/// (``RecordedResponse/ending``), and ``StubStream/waitForEnd(timeout:)`` returns it.
public enum ResponseEnding: Sendable, Hashable, CustomStringConvertible {
    /// The whole body was delivered and the load finished.
    case finished
    /// The load failed with `URLError(code)` after the part of the body sent before: an
    /// ``StubResponse/interrupted(by:after:)`` response, a ``StubStream/fail(_:)``, the request's
    /// timeout.
    case failed(URLError.Code)
    /// The caller cancelled the task before the response ended (a consumer that stopped reading).
    case cancelledByClient
    /// The test ended before the response did (a stream left open, a delay the clock never
    /// reached): the caller got `URLError(.resourceUnavailable)`, and the test a failure saying so.
    case testEnded
    /// Still being delivered: a ``StubStream`` the test has not ended yet.
    case inProgress

    /// `finished`, `failed with URLError .networkConnectionLost`, `cancelled by the client`, `ended with its test`,
    /// `in progress`.
    public var description: String {
        switch self {
        case .finished: "finished"
        case let .failed(code): "failed with URLError .\(URLErrorNames.name(of: code))"
        case .cancelledByClient: "cancelled by the client"
        case .testEnded: "ended with its test"
        case .inProgress: "in progress"
        }
    }
}
