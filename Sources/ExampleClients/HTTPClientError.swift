import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an ``HTTPClient`` request failed.
public enum HTTPClientError: Error, Sendable, Equatable {
    /// The request never got an HTTP response: offline, timed out, cancelled, ...
    case transport(URLError)
    /// The server answered with a status outside 200–299; the body is kept for diagnostics.
    case status(Int, body: Data)
    /// The response was not an HTTP response.
    case invalidResponse
    /// The body could not be decoded as the expected type.
    case undecodable(body: Data, reason: String)

    /// Compares the cases; transport errors compare by code.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.transport(left), .transport(right)): return left.code == right.code
        case let (.status(left, leftBody), .status(right, rightBody)): return left == right && leftBody == rightBody
        case (.invalidResponse, .invalidResponse): return true
        case let (.undecodable(left, leftReason), .undecodable(right, rightReason)):
            return left == right && leftReason == rightReason
        default: return false
        }
    }
}
