import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate a redirect is put to before the toolkit follows it, as URLSession puts it:
/// `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)` of the task's own
/// delegate, else of the session's, called on the session's delegate queue. The delegate may
/// refuse the redirect (`completionHandler(nil)`: the caller gets the 3xx itself) or change the
/// request that follows it.
///
/// A class, so that a planning step that may meet a redirect holds one reference: an optional
/// struct with an existential inside is copied and destroyed through its type's metadata, on
/// every request (BENCHMARKS.md, "Copies through type metadata").
final class RedirectDelegate: @unchecked Sendable {
    // Invariant: the fields are only read, and URLSession's task, session and delegate may be
    // called from any thread.
    private let delegate: any URLSessionTaskDelegate
    private let task: URLSessionTask
    private let session: URLSession

    /// `delegate`, to be asked about redirects of `task` in `session`.
    init(_ delegate: any URLSessionTaskDelegate, task: URLSessionTask, session: URLSession) {
        self.delegate = delegate
        self.task = task
        self.session = session
    }

    /// What the delegate answers about following `response` with `request`: the request to send
    /// (the same, or one it changed), or `nil` when it refuses the redirect. A delegate that never
    /// calls its completion handler leaves the request waiting, as URLSession does, until its
    /// test ends it.
    func decide(_ response: HTTPURLResponse, newRequest request: URLRequest) async -> URLRequest? {
        let answer = AnswerOnce()
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            session.delegateQueue.addOperation { [delegate, session, task] in
                delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request) {
                    chosen in
                    answer.resume(with: chosen)
                }
            }
        }
    }
}

/// Resumes a continuation once, however often a delegate calls its completion handler.
private final class AnswerOnce: @unchecked Sendable {
    // Invariant: `continuation` is only touched while `lock` is held, and taken out before use.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<URLRequest?, Never>?

    func set(_ continuation: CheckedContinuation<URLRequest?, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func resume(with request: URLRequest?) {
        let continuation = lock.withLock { () -> CheckedContinuation<URLRequest?, Never>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: request)
    }
}
