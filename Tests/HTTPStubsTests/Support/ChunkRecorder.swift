import Foundation
import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A data delegate that records what one task receives as it comes (whether the response arrived,
/// each chunk, the end), to poll while it runs or to await once it completes.
final class ChunkRecorder: NSObject, URLSessionDataDelegate, Sendable {
    /// What the task received, once it completed.
    struct Result {
        let chunks: [Data]
        let response: URLResponse?
        let error: (any Error)?
    }

    private struct State {
        var gotResponse = false
        var chunks: [Data] = []
        var finished: Result?
        var waiter: CheckedContinuation<Result, Never>?
    }

    private let state = Locked(State())

    /// Whether the response headers arrived.
    var gotResponse: Bool { state.withLock { $0.gotResponse } }
    /// The chunks so far, as text.
    var texts: [String] { state.withLock { $0.chunks.map { String(decoding: $0, as: UTF8.self) } } }
    /// Whether the task completed.
    var isComplete: Bool { state.withLock { $0.finished != nil } }
    /// The task's error, if it completed with one.
    var error: (any Error)? { state.withLock { $0.finished?.error } }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.gotResponse = true }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.chunks.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (result, waiter) = state.withLock { state in
            let result = Result(chunks: state.chunks, response: task.response, error: error)
            state.finished = result
            defer { state.waiter = nil }
            return (result, state.waiter)
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the task to complete.
    func result() async -> Result {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state -> Result? in
                if state.finished == nil { state.waiter = continuation }
                return state.finished
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }
}
