import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request to the real server, through a session without any stub protocol.
enum LiveRequest {
    /// The session: ephemeral, so nothing is cached or stored between recordings, and without
    /// following redirects, so that each hop is recorded.
    private static let session = URLSession(configuration: .ephemeral, delegate: RedirectRefuser(), delegateQueue: nil)

    /// Sends `request`; `completion` gets the real response and body, or the error, unchanged.
    ///
    /// Safe to call from `startLoading`: the task is created on another queue, because creating a
    /// task on the queue URLSession runs `startLoading` on deadlocks corelibs.
    static func send(
        _ request: InterceptedRequest,
        timeout: TimeInterval?,
        completion: @escaping @Sendable (Result<(HTTPURLResponse, Data), any Error>) -> Void
    ) {
        var urlRequest = request.urlRequest
        if let timeout { urlRequest.timeoutInterval = timeout }
        let prepared = urlRequest
        DispatchQueue.global().async {
            session.dataTask(with: prepared) { data, response, error in
                if let error {
                    completion(.failure(error))
                } else if let response = response as? HTTPURLResponse {
                    completion(.success((response, data ?? Data())))
                } else {
                    completion(.failure(URLError(.badServerResponse)))
                }
            }.resume()
        }
    }
}

/// Declines every redirect, so the 3xx itself reaches the recorder.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
