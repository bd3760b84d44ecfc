#if canImport(XCTest)
import XCTest

/// Asserts that an `async` expression throws `expected`, failing at the caller's line otherwise.
///
/// ```swift
/// await XCTAssertThrowsErrorAsync(try await client.user(42), HTTPClientError.status(404, body: Data()))
/// ```
/// Swift Testing has this built in: `await #expect(throws: HTTPClientError.status(404, body: Data())) { try await
/// client.user(42) }`.
/// - Parameters:
///   - expression: The expression that should throw.
///   - expected: The error it should throw.
///   - message: An optional description of the failure.
///   - file: The source `#filePath` associated with the failure.
///   - line: The source `#line` associated with the failure.
public func XCTAssertThrowsErrorAsync<Value, Failure: Error & Equatable>(
    _ expression: @autoclosure () async throws -> Value,
    _ expected: Failure,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) async {
    let prefix = message().isEmpty ? "" : "\(message()) — "
    do {
        let value = try await expression()
        XCTFail(
            "\(prefix)expected \(expected) to be thrown, but the expression returned \(value)",
            file: file,
            line: line
        )
    } catch let error as Failure {
        if error != expected {
            XCTFail("\(prefix)expected \(expected) to be thrown, got \(error)", file: file, line: line)
        }
    } catch {
        XCTFail(
            "\(prefix)expected \(expected) (\(Failure.self)) to be thrown, got \(type(of: error)): \(error)",
            file: file,
            line: line
        )
    }
}
#endif
