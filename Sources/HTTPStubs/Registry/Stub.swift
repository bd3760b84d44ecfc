/// A request pattern and what to answer when a request matches it.
///
/// ```swift
/// let stub = Stub(.get("https://api.example.com/feed"), responses: [.status(500), .json(feed)])
///     .priority(1)
///     .times(2)
/// registry.add(stub)
/// ```
public struct Stub: Sendable, Identifiable, CustomStringConvertible {
    /// What happens once a stub has served its last response.
    public enum SequenceEnd: Sendable, Hashable {
        /// The last response is served again for every later match.
        case repeatLast
        /// The stub stops matching, so later requests fall through to other stubs.
        case stopMatching
    }

    /// The stub's identity: unique in the process, so also in a registry.
    public let id: ID
    /// An optional name, shown in listings and reports.
    public var name: String?
    /// What a request must satisfy.
    public var pattern: RequestPattern
    /// The responses, served in order, one per match.
    public var responses: [StubResponse]
    /// What happens after the last response.
    public var afterLastResponse: SequenceEnd
    /// Priority: 1 is the highest, 5 the default (WireMock's convention). Among stubs of equal
    /// priority the one added last wins, so a test can override a shared default.
    public var priority: Int
    /// How many requests the stub may answer in all; `nil` for no limit.
    public var maxUses: Int?
    /// The stub's part in a scenario, if any.
    public var scenario: ScenarioRule?
    /// Where the stub was written.
    public var source: StubSource
    /// How many requests the stub is expected to answer, checked when a test's stub scope ends;
    /// `nil` for no expectation.
    public var expectation: UseExpectation?

    /// Creates a stub that answers every match with `response`.
    public init(
        _ pattern: RequestPattern,
        _ response: StubResponse,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            pattern,
            responses: [response],
            source: .code(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Creates a stub that serves `responses` in order, then repeats the last one or stops matching.
    public init(
        _ pattern: RequestPattern,
        responses: [StubResponse],
        afterLast: SequenceEnd = .repeatLast,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            pattern,
            responses: responses,
            afterLast: afterLast,
            source: .code(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Creates a stub with a known source, such as a stub file.
    public init(
        _ pattern: RequestPattern,
        responses: [StubResponse],
        afterLast: SequenceEnd = .repeatLast,
        priority: Int = 5,
        source: StubSource
    ) {
        self.id = ID(source.description)
        self.pattern = pattern
        self.responses = responses
        self.afterLastResponse = afterLast
        self.priority = priority
        self.source = source
    }

    /// This stub with another priority (1 is the highest, 5 the default).
    public func priority(_ priority: Int) -> Stub {
        var copy = self
        copy.priority = priority
        return copy
    }

    /// This stub limited to `count` uses, after which it stops matching.
    public func times(_ count: Int) -> Stub {
        var copy = self
        copy.maxUses = max(count, 0)
        return copy
    }

    /// This stub in a scenario: it answers only while the scenario is in `state` (any state when
    /// `nil`) and moves it to `newState` (if given) after answering.
    public func inScenario(_ name: String, whenIn state: String? = nil, moveTo newState: String? = nil) -> Stub {
        var copy = self
        copy.scenario = ScenarioRule(name, requiredState: state, newState: newState)
        return copy
    }

    /// This stub with an expectation on how many requests it answers, checked when a test's stub
    /// scope ends (a failure then points at the line that declared the stub).
    public func expect(_ expectation: UseExpectation) -> Stub {
        var copy = self
        copy.expectation = expectation
        return copy
    }

    /// This stub with a name for listings and reports.
    public func named(_ name: String) -> Stub {
        var copy = self
        copy.name = name
        return copy
    }

    /// Problems that make the stub unusable or surprising.
    package var problems: [String] {
        var problems = pattern.problems + responses.flatMap(\.problems)
        if responses.isEmpty { problems.append("the stub has no response; give it at least one") }
        return problems
    }

    /// `GET /users/{id} → 200 (File.swift:12:5)`.
    public var description: String {
        let label = name.map { "\(quoted($0)) " } ?? ""
        let answer = responses.map(\.summary).joined(separator: ", then ")
        return "\(label)\(pattern) → \(answer) (\(source))"
    }
}
