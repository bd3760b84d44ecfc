import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One timed batch: how many requests completed in how many seconds.
struct Sample: Sendable {
    let requests: Int
    let seconds: Double
    /// CPU time of the whole process (every thread) during the batch.
    var cpuSeconds = 0.0
    /// Context switches of the whole process (every thread) during the batch.
    var switches = ContextSwitches()
    var perSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    /// CPU microseconds per request: unlike the wall-clock rate, barely moved by other work on the machine.
    var cpuMicroseconds: Double { requests > 0 ? cpuSeconds * 1e6 / Double(requests) : 0 }
    /// Voluntary and involuntary context switches per request.
    var switchesPerRequest: (voluntary: Double, involuntary: Double) {
        guard requests > 0 else { return (0, 0) }
        return (Double(switches.voluntary) / Double(requests), Double(switches.involuntary) / Double(requests))
    }
}

/// The CPU time this process has used, all threads together.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs a batch and adds its CPU time and context switches to the sample.
func measuringCPU(_ batch: () async throws -> Sample) async rethrows -> Sample {
    let switches = ContextSwitches.now()
    let before = processCPUSeconds()
    var sample = try await batch()
    sample.cpuSeconds = processCPUSeconds() - before
    sample.switches = ContextSwitches.now() - switches
    return sample
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The registries the workloads are served from.
enum Registries {
    static let base = "http://\(Payload.host)"

    /// The stub every sequential workload's request matches.
    static func addTarget(to registry: StubRegistry) {
        registry.stub(.get(URLPattern("\(base)\(Payload.targetPath)")), .json(text: Payload.text))
    }

    /// The toolkit with one stub.
    static func single() -> StubRegistry {
        let registry = StubRegistry()
        addTarget(to: registry)
        return registry
    }

    /// `count` stubs: the target, added first so that it is tried **last** (stubs of equal
    /// priority are tried newest first), then `count - 1` decoys, mixed one in ten as:
    /// 4 exact paths (GET, POST, PUT, DELETE), 1 URI template, 1 URI template with a trailing
    /// capture, 1 path regex, 1 exact path plus a header, 1 POST with a JSON body matcher, 1 path
    /// plus a query parameter. No decoy matches the target request.
    static func mixed(count: Int) -> StubRegistry {
        let registry = StubRegistry()
        addTarget(to: registry)
        let methods: [InterceptedRequest.Method] = [.get, .post, .put, .delete]
        for index in 1..<max(count, 1) {
            registry.stub(decoy(index, methods: methods), .json(text: #"{"decoy":\#(index)}"#))
        }
        return registry
    }

    /// The template of the `template` workload: the id from the path, the name from the posted
    /// JSON; it renders ``Payload/text``.
    static let template =
        #"{"id":{{request.path.[1]}},"name":"{{jsonPath request.body '$.name'}}","email":"ada@example.com"}"#

    /// One stub answering ``templateRequest(_:)`` from ``template``.
    static func templated() -> StubRegistry {
        let registry = StubRegistry()
        addTemplated(to: registry, at: .templated)
        return registry
    }

    /// One stub answering ``templateRequest(_:)`` with the literal body the template renders.
    static func literalPost() -> StubRegistry {
        let registry = StubRegistry()
        addLiteral(to: registry, at: .templated)
        return registry
    }

    /// The `template` workload through URLSession: both stubs in one registry, the templated one
    /// answering ``TemplatePath/templated`` and the literal one ``TemplatePath/literal``. Served by
    /// one session, the two halves share its work queue, its delegate queue and the threads that
    /// run them, so a difference between them is the stubs', not which threads or cores each
    /// session happened to get.
    static func templatedAndLiteral() -> StubRegistry {
        let registry = StubRegistry()
        addTemplated(to: registry, at: .templated)
        addLiteral(to: registry, at: .literal)
        return registry
    }

    /// The stub answering a POST to `path` + an id from ``template``.
    private static func addTemplated(to registry: StubRegistry, at path: TemplatePath) {
        registry.stub(
            .post(URLPattern("\(base)\(path.rawValue){id}")),
            .template(template, headers: ["Content-Type": "application/json"])
        )
    }

    /// The stub answering a POST to `path` + an id with the body ``template`` renders for id 42.
    private static func addLiteral(to registry: StubRegistry, at path: TemplatePath) {
        registry.stub(.post(URLPattern("\(base)\(path.rawValue){id}")), .json(text: Payload.text))
    }

    static func decoy(_ index: Int, methods: [InterceptedRequest.Method]) -> RequestPattern {
        switch index % 10 {
        case 0, 1, 2, 3:
            return .method(methods[index % 4], URLPattern("\(base)/exact/\(index)/items"))
        case 4:
            return .get(URLPattern("\(base)/accounts/\(index)/users/{id}"))
        case 5:
            return .get(URLPattern("\(base)/teams/\(index)/members/{+rest}"))
        case 6:
            return .get(.pathMatching("/search/\(index)/[a-z0-9-]+"))
        case 7:
            return .get(URLPattern("\(base)/users/\(index)")).header("X-Tenant", .equal("tenant-\(index)"))
        case 8:
            return .post(URLPattern("\(base)/orders/\(index)")).body(
                .json(text: #"{"sku":"sku-\#(index)","quantity":1}"#)
            )
        default:
            return .get(URLPattern("\(base)/feed/\(index)?page=2"))
        }
    }
}

/// The request of the sequential workloads.
func targetRequest(host: String = Payload.host, port: Int? = nil) -> URLRequest {
    let authority = port.map { "\(host):\($0)" } ?? host
    var request = URLRequest(url: URL(string: "http://\(authority)\(Payload.targetPath)")!)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    return request
}

/// Where the `template` workload's two stubs answer, `<path>42`.
enum TemplatePath: String {
    /// The templated stub's (the target path: the only one the one-stub registries answer).
    case templated = "/users/"
    /// The literal stub's, beside it in ``Registries/templatedAndLiteral()``.
    case literal = "/people/"
}

/// The request of the `template` workload: a POST of a small JSON body to `path` + `42`.
func templateRequest(_ path: TemplatePath = .templated) -> URLRequest {
    var request = targetRequest()
    request.url = URL(string: "http://\(Payload.host)\(path.rawValue)42")!
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"name":"Ada Lovelace","age":36}"#.utf8)
    return request
}

/// Checks a response; a workload that silently failed would look fast.
func check(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?, expected: Data) throws {
    if let error { throw BenchFailure("request failed: \(error)") }
    guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
        throw BenchFailure("unexpected response \(String(describing: response))")
    }
    guard data == expected else {
        throw BenchFailure("unexpected body \(String(decoding: data ?? Data(), as: UTF8.self).prefix(200))")
    }
}

/// A session to a real server on this machine (the loopback server, WireMock): no cache, and one
/// kept-alive connection, as the measured requests go one after the other.
func localServerSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 1
    return URLSession(configuration: configuration)
}

func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
}

/// Sequential `data(for:)`: `count` requests one after the other, or as many as fit in `budget`.
func sequentialAsync(
    _ session: URLSession,
    _ request: URLRequest,
    count: Int,
    budget: Duration,
    expected: Data = Payload.body
) async throws -> Sample {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + budget
    var done = 0
    while done < count {
        let (data, response) = try await session.data(for: request)
        try check(data, response, nil, expected: expected)
        done += 1
        if done & 7 == 0, clock.now > deadline { break }
    }
    return Sample(requests: done, seconds: seconds(clock.now - start))
}

/// Sequential completion handlers: each completion starts the next `dataTask`.
func sequentialCompletion(
    _ session: URLSession,
    _ request: URLRequest,
    count: Int,
    budget: Duration,
    expected: Data = Payload.body
) async throws -> Sample {
    try await withCheckedThrowingContinuation { continuation in
        CompletionChain(
            session: session,
            request: request,
            count: count,
            budget: budget,
            expected: expected,
            continuation: continuation
        ).next()
    }
}

/// A chain of completion-handler requests.
private final class CompletionChain: @unchecked Sendable {
    // Invariant: `done` is only touched by the chain's one in-flight completion handler at a time
    // (each request is started by the previous request's completion).
    private let session: URLSession
    private let request: URLRequest
    private let count: Int
    private let expected: Data
    private let continuation: CheckedContinuation<Sample, any Error>
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let deadline: ContinuousClock.Instant
    private var done = 0

    init(
        session: URLSession,
        request: URLRequest,
        count: Int,
        budget: Duration,
        expected: Data,
        continuation: CheckedContinuation<Sample, any Error>
    ) {
        self.session = session
        self.request = request
        self.count = count
        self.expected = expected
        self.continuation = continuation
        start = clock.now
        deadline = start + budget
    }

    func next() {
        session.dataTask(with: request) { [self] data, response, error in
            do {
                try check(data, response, error, expected: expected)
            } catch {
                continuation.resume(throwing: error)
                return
            }
            done += 1
            let now = clock.now
            if done >= count || (done & 7 == 0 && now > deadline) {
                continuation.resume(returning: Sample(requests: done, seconds: seconds(now - start)))
            } else {
                next()
            }
        }.resume()
    }
}

/// `tasks` tasks in parallel, each making its share of `total` sequential `data(for:)` requests.
func concurrentAsync(
    _ session: URLSession,
    _ request: URLRequest,
    tasks: Int,
    total: Int,
    budget: Duration
) async throws -> Sample {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + budget
    let done = try await withThrowingTaskGroup(of: Int.self) { group in
        for task in 0..<tasks {
            let share = total / tasks + (task < total % tasks ? 1 : 0)
            group.addTask {
                var made = 0
                while made < share {
                    let (data, response) = try await session.data(for: request)
                    try check(data, response, nil, expected: Payload.body)
                    made += 1
                    if clock.now > deadline { break }
                }
                return made
            }
        }
        return try await group.reduce(0, +)
    }
    return Sample(requests: done, seconds: seconds(clock.now - start))
}

/// Wall time of `count` sequential requests to a stub delayed 5 s, on the immediate clock.
/// Returns the wall milliseconds for `count` requests (extrapolated if `budget` ran out) and the
/// virtual seconds the clock advanced.
func virtualTimeRun(
    count: Int,
    budget: Duration
) async throws -> (wallMilliseconds: Double, virtualSeconds: Double, requests: Int) {
    let stubClock = ImmediateStubClock()
    let registry = StubRegistry(clock: stubClock)
    registry.stub(.get(URLPattern("\(Registries.base)/slow")), .json(text: Payload.text).delayed(by: .seconds(5)))
    let session = registry.makeSession()
    defer { session.finishTasksAndInvalidate() }
    var request = targetRequest()
    request.url = URL(string: "\(Registries.base)/slow")
    let sample = try await sequentialAsync(session, request, count: count, budget: budget)
    let wall = sample.seconds * 1000 * Double(count) / Double(max(sample.requests, 1))
    return (wall, seconds(stubClock.now), sample.requests)
}
