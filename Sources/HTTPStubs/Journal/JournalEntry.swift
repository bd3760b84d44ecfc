import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One intercepted request in a registry's journal, and what became of it.
public struct JournalEntry: Sendable, Identifiable, CustomStringConvertible {
    /// What became of a request.
    public enum Outcome: Sendable {
        /// A stub answered it.
        case answered(by: StubSummary)
        /// No stub matched; the request failed with the report.
        case unmatched(UnmatchedRequestReport)
        /// No stub matched and the pass-through policy sent it to the network.
        case passedThrough
        /// The toolkit refused it (a download task on Linux, a registry that no longer exists, ...).
        case refused(reason: String)
        /// No stub matched; it went to the real server and was recorded into this mapping file.
        case recorded(file: String)
    }

    /// The entry's position in the journal, from 1.
    public let id: Int
    /// When the request was intercepted.
    public let date: Date
    /// The request, body included where it could be read.
    public let request: InterceptedRequest
    /// What became of it.
    public let outcome: Outcome
    /// The HTTP response the caller received, when there was one.
    public internal(set) var response: RecordedResponse?

    /// The stub that answered, if one did.
    public var stub: StubSummary? {
        if case let .answered(stub) = outcome { return stub }
        return nil
    }

    /// Whether no stub matched.
    public var isUnmatched: Bool {
        if case .unmatched = outcome { return true }
        return false
    }

    /// `#3 POST https://api.example.com/orders → MyAppTests/OrderTests.swift:40:9`, or
    /// `→ "create order" (mappings/orders.json)` for a named stub.
    public var description: String {
        let result: String
        switch outcome {
        case let .answered(stub): result = stub.description
        case .unmatched: result = "unmatched"
        case .passedThrough: result = "passed through to the network"
        case let .refused(reason): result = "refused: \(reason)"
        case let .recorded(file): result = "recorded into \(file)"
        }
        return "#\(id) \(request) → \(result)"
    }
}

/// An HTTP response as the journal keeps it.
public struct RecordedResponse: Sendable {
    /// The response object the caller received.
    public let urlResponse: HTTPURLResponse
    /// The body the caller received, whole (after any dribbling).
    public let body: Data

    /// The HTTP status code the caller received.
    public var status: Int { urlResponse.statusCode }

    /// The header fields, sorted by name.
    public var headers: HeaderFields {
        HeaderFields(of: urlResponse)
    }
}

/// What the journal remembers of a stub.
public struct StubSummary: Sendable, Hashable, CustomStringConvertible {
    /// The stub's identity, as ``StubRegistry/stub(_:_:priority:expecting:fileID:filePath:line:column:)`` returned it.
    public let id: Stub.ID
    /// The name given with ``Stub/named(_:)`` or a mapping's `name`, if any.
    public let name: String?
    /// Where the stub was written.
    public let source: StubSource

    init(_ stub: Stub) {
        self.id = stub.id
        self.name = stub.name
        self.source = stub.source
    }

    /// Where the stub was written (`MyAppTests/UserTests.swift:12:9`, `mappings/users.json`), after
    /// its name when it has one (`"get user" (mappings/users.json)`).
    public var description: String { name.map { "\(quoted($0)) (\(source))" } ?? source.description }
}
