import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a completion handler received.
struct Completion: @unchecked Sendable {
    // Invariant: built once from URLSession's completion arguments and never mutated.
    let data: Data?
    let response: URLResponse?
    let error: (any Error)?

    var http: HTTPURLResponse? { response as? HTTPURLResponse }
    var status: Int? { http?.statusCode }
    var text: String? { data.flatMap { String(data: $0, encoding: .utf8) } }
    var urlError: URLError? { error as? URLError }
    /// Whether no stub answered: the toolkit fails such a request with `.resourceUnavailable`.
    var isUnmatched: Bool { urlError?.code == .resourceUnavailable }
}

/// Sends a request through `dataTask(with:completionHandler:)` and waits for the completion handler.
func complete(_ session: URLSession, _ request: URLRequest) async -> Completion {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(returning: Completion(data: data, response: response, error: error))
        }.resume()
    }
}

/// Sends a GET through `dataTask(with:completionHandler:)` and waits for the completion handler.
func complete(_ session: URLSession, _ url: String) async -> Completion {
    await complete(session, URLRequest(url: URL(string: url)!))
}

/// A request with a method and an optional body.
func request(_ method: String, _ url: String, body: String? = nil, headers: [String: String] = [:]) -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body.map { Data($0.utf8) }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
}

/// A user, as the example API returns it.
struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

/// What `answer` returns when no stub matched (`URLError(.resourceUnavailable)`).
let unmatched = "<unmatched>"

/// The body text a completion handler received, `<unmatched>`, or `<error N>` for other URL errors.
func answer(_ session: URLSession, _ request: URLRequest) async -> String {
    let completion = await complete(session, request)
    if let error = completion.urlError {
        return error.code == .resourceUnavailable ? unmatched : "<error \(error.code.rawValue)>"
    }
    if let error = completion.error { return "<error \(error)>" }
    return completion.text ?? "<no body>"
}

func answer(_ session: URLSession, _ url: String) async -> String {
    await answer(session, URLRequest(url: URL(string: url)!))
}

/// The same through `try await session.data(for:)`.
func answerAsync(_ session: URLSession, _ request: URLRequest) async -> String {
    do {
        let (data, _) = try await session.data(for: request)
        return String(decoding: data, as: UTF8.self)
    } catch let error as URLError {
        return error.code == .resourceUnavailable ? unmatched : "<error \(error.code.rawValue)>"
    } catch {
        return "<error \(error)>"
    }
}

func answerAsync(_ session: URLSession, _ url: String) async -> String {
    await answerAsync(session, URLRequest(url: URL(string: url)!))
}

/// Sends a request through `data(for:)` and returns the body and the HTTP response; throws what
/// `data(for:)` throws, and fails the test when the response is not an HTTP one.
func send(
    _ session: URLSession,
    _ method: String,
    _ url: String,
    body: String? = nil
) async throws -> (data: Data, http: HTTPURLResponse) {
    let (data, response) = try await session.data(for: request(method, url, body: body))
    return (data, try #require(response as? HTTPURLResponse))
}

/// The error `data(for:)` throws, or `nil` when it succeeds.
func asyncError(_ session: URLSession, _ request: URLRequest) async -> (any Error)? {
    do {
        _ = try await session.data(for: request)
        return nil
    } catch {
        return error
    }
}

func asyncError(_ session: URLSession, _ url: String) async -> (any Error)? {
    await asyncError(session, URLRequest(url: URL(string: url)!))
}

/// The body as text, or `error <code>` (the `URLError` code, `-1` for another error) when the
/// request failed.
func bodyOrError(_ data: Data?, _ error: (any Error)?) -> String {
    if let error { return "error \((error as? URLError)?.code.rawValue ?? -1)" }
    return String(decoding: data ?? Data(), as: UTF8.self)
}
