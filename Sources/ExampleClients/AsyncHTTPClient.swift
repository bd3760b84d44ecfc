import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `async` face of ``HTTPClient``, bridged with `withCheckedThrowingContinuation`. Every
/// method throws ``HTTPClientError``.
///
/// The continuation is resumed exactly once on every path: URLSession calls the completion handler
/// exactly once, and cancelling the Swift task cancels the `URLSessionTask`, whose completion
/// handler then reports `URLError(.cancelled)`.
public struct AsyncHTTPClient: Sendable {
    private let client: HTTPClient

    /// Wraps a completion-handler client.
    public init(_ client: HTTPClient) {
        self.client = client
    }

    /// `GET`s `path` and decodes the JSON body.
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        try await bridge { client.get(path, as: type, completion: $0) }
    }

    /// `POST`s `body` as JSON to `path` and decodes the JSON body of the answer.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        json body: Body,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        try await bridge { client.post(path, json: body, as: type, completion: $0) }
    }

    /// Sends a request and decodes the JSON body of a 2xx answer.
    public func send<Response: Decodable & Sendable>(
        _ request: URLRequest,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        try await bridge { client.send(request, as: type, completion: $0) }
    }

    private func bridge<Response: Sendable>(
        _ start: (@escaping @Sendable (Result<Response, HTTPClientError>) -> Void) -> URLSessionDataTask
    ) async throws -> Response {
        let cancellation = TaskCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                cancellation.track(start { result in continuation.resume(with: result.mapError { $0 }) })
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// Connects Swift task cancellation to a `URLSessionTask`, whichever comes first.
private final class TaskCancellation: @unchecked Sendable {
    // Invariant: `task` and `isCancelled` are only touched while `lock` is held.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    func track(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelNow = isCancelled
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
