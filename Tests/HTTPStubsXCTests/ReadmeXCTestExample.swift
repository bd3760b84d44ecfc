// The README's XCTest example, verbatim: it compiles and passes here, so it can be copied.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Profile: Codable, Equatable {
    var id: Int
    var name: String
}

/// The code under test, with a completion handler, takes its session by injection.
struct ProfileLoader {
    let session: URLSession

    func load(id: Int, completion: @escaping @Sendable (Result<Profile, URLError>) -> Void) {
        session.dataTask(with: URL(string: "https://api.example.com/v1/profiles/\(id)")!) { data, response, error in
            if let error = error as? URLError { return completion(.failure(error)) }
            guard (response as? HTTPURLResponse)?.statusCode == 200, let data,
                let profile = try? JSONDecoder().decode(Profile.self, from: data)
            else {
                return completion(.failure(URLError(.badServerResponse)))
            }
            completion(.success(profile))
        }.resume()
    }
}

final class ProfileLoaderTests: XCTestCase {
    func test_loadsAProfile() async throws {
        let stubs = makeStubRegistry()  // checked when the test ends
        stubs.stub(.get("https://api.example.com/v1/profiles/{id}"), expecting: .once) { request in
            .json(Profile(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
        }
        let loader = ProfileLoader(session: stubs.makeSession())
        let result = try await awaitCallback { done in loader.load(id: 42, completion: done) }
        XCTAssertEqual(try result.get(), Profile(id: 42, name: "Ada"))
        XCTAssertEqual(stubs.requests(to: .get, "/v1/profiles/42").count, 1)
    }

    func test_notFound() async throws {
        let stubs = makeStubRegistry()
        stubs.stub(.get("https://api.example.com/v1/profiles/7"), .status(404))
        let loader = ProfileLoader(session: stubs.makeSession())
        let result = try await awaitCallback { done in loader.load(id: 7, completion: done) }
        XCTAssertEqual(result, .failure(URLError(.badServerResponse)))
    }
}
