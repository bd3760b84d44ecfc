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

    /// The entry's number: 1 for the registry's first request, and so on. Clearing the journal
    /// (``StubRegistry/clearJournal()``, ``StubRegistry/reset()``) does not start it again.
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
    /// `→ "create order" (mappings/orders.json:1:1)` for a named stub.
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
    /// The body the caller received, whole (after any dribbling); for a response that did not
    /// finish (see ``ending``), the part sent before it ended, and for an open ``StubStream``, what
    /// was sent when it ends (empty until then).
    public internal(set) var body: Data
    /// How the response ended: ``ResponseEnding/finished`` for most; an interrupted response, a
    /// stream the client cancelled or one still open say so.
    public internal(set) var ending: ResponseEnding = .finished

    /// The HTTP status code the caller received.
    public var status: Int { urlResponse.statusCode }

    /// The header fields, sorted by name.
    public var headers: HeaderFields {
        HeaderFields(of: urlResponse)
    }
}

/// What the journal remembers of a stub.
public struct StubSummary: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The fields, in one immutable box: a summary is copied into every journal entry, answer and
    /// plan of the requests its stub answers, and a copy is then one reference rather than the
    /// half dozen strings of a ``StubSource`` (BENCHMARKS.md, "Copies through type metadata").
    private let storage: Storage

    /// The stub's identity, as ``StubRegistry/stub(_:_:priority:expecting:fileID:filePath:line:column:)`` returned it.
    public var id: Stub.ID { storage.id }
    /// The name given with ``Stub/named(_:)`` or a mapping's `name`, if any.
    public var name: String? { storage.name }
    /// Where the stub was written.
    public var source: StubSource { storage.source }

    init(_ stub: Stub) {
        storage = Storage(id: stub.id, name: stub.name, source: stub.source)
    }

    /// Shows the identity, name and source (as `dump` and test reporters expand a value), not the
    /// box they are kept in.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "name": name as Any, "source": source], displayStyle: .struct)
    }

    /// Summaries are equal when their identity, name and source are.
    public static func == (lhs: StubSummary, rhs: StubSummary) -> Bool {
        lhs.storage === rhs.storage || (lhs.id, lhs.name, lhs.source) == (rhs.id, rhs.name, rhs.source)
    }

    /// Hashes the identity, name and source.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(source)
    }

    /// The fields of a summary. Immutable, so sharing one between threads is safe.
    private final class Storage: Sendable {
        let id: Stub.ID
        let name: String?
        let source: StubSource

        init(id: Stub.ID, name: String?, source: StubSource) {
            self.id = id
            self.name = name
            self.source = source
        }
    }

    /// Where the stub was written (`MyAppTests/UserTests.swift:12:9`, `mappings/users.json:1:1`),
    /// after its name when it has one (`"get user" (mappings/users.json:1:1)`).
    public var description: String { name.map { "\(quoted($0)) (\(source))" } ?? source.description }
}
