import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small JSON API client built on `URLSession.dataTask` with a completion handler, in the
/// dependency-injected style the toolkit recommends: the session is a parameter, so tests hand it
/// one made by a `StubRegistry`.
public final class HTTPClient: Sendable {
    private let session: URLSession
    private let baseURL: URL
    private let decoder: JSONDecoder

    /// Creates a client.
    /// - Parameters:
    ///   - session: The session requests go through.
    ///   - baseURL: The URL paths are resolved against.
    public init(session: URLSession, baseURL: URL) {
        self.session = session
        self.baseURL = baseURL
        self.decoder = JSONDecoder()
    }

    /// `GET`s `path` and decodes the JSON body.
    @discardableResult
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        as type: Response.Type = Response.self,
        completion: @escaping @Sendable (Result<Response, HTTPClientError>) -> Void
    ) -> URLSessionDataTask {
        send(URLRequest(url: url(path)), as: type, completion: completion)
    }

    /// `POST`s `body` as JSON to `path` and decodes the JSON body of the answer.
    @discardableResult
    public func post<Body: Encodable, Response: Decodable & Sendable>(
        _ path: String,
        json body: Body,
        as type: Response.Type = Response.self,
        completion: @escaping @Sendable (Result<Response, HTTPClientError>) -> Void
    ) -> URLSessionDataTask {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(body)
        return send(request, as: type, completion: completion)
    }

    /// Sends a request and decodes the JSON body of a 2xx answer; `Data` and `String` responses
    /// are returned raw. The task is already resumed.
    @discardableResult
    public func send<Response: Decodable & Sendable>(
        _ request: URLRequest,
        as type: Response.Type = Response.self,
        completion: @escaping @Sendable (Result<Response, HTTPClientError>) -> Void
    ) -> URLSessionDataTask {
        let decoder = self.decoder
        let task = session.dataTask(with: request) { data, response, error in
            completion(Self.result(data: data, response: response, error: error, decoder: decoder))
        }
        task.resume()
        return task
    }

    private func url(_ path: String) -> URL {
        URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL
    }

    private static func result<Response: Decodable>(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        decoder: JSONDecoder
    ) -> Result<Response, HTTPClientError> {
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            return .failure(.transport(urlError))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.invalidResponse) }
        let body = data ?? Data()
        guard (200..<300).contains(http.statusCode) else { return .failure(.status(http.statusCode, body: body)) }
        if let raw = body as? Response { return .success(raw) }
        if Response.self == String.self, let text = String(data: body, encoding: .utf8) as? Response {
            return .success(text)
        }
        do {
            return .success(try decoder.decode(Response.self, from: body))
        } catch {
            return .failure(.undecodable(body: body, reason: "\(error)"))
        }
    }
}
