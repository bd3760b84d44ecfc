import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a recording registry writes the exchanges that reached the real server: the stub-file
/// module's recorder, which writes a WireMock stub root. The core sends the request no stub answers
/// (``LiveRequest``), hands the exchange to the recorder, journals it and delivers the real answer;
/// what is written, and how, is the recorder's.
package protocol ExchangeRecorder: AnyObject, Sendable {
    /// The folder recorded into, named in messages.
    var root: URL { get }
    /// The files written so far, relative to ``root``, sorted.
    var writtenFiles: [String] { get }
    /// Writes one exchange; returns the path of the file that now answers the request. Throws an
    /// error whose description says what went wrong and what to do.
    func record(_ request: InterceptedRequest, outcome: RecordedOutcome) throws -> String
}

/// What the real server did with a recorded request.
package enum RecordedOutcome: Sendable {
    /// It answered.
    case response(HTTPURLResponse, Data)
    /// The request failed with this error.
    case failure(URLError.Code)
}
