/// Where a registry runs the user's code for its requests (observers, custom matchers, computed
/// responses, a delegate's say on redirects), off URLSession's queue.
///
/// A test scope opens one on the test's task and serves it there: each job then runs in a task
/// that inherits the test's task-local values, so that `#expect` and `Issue.record` inside stub
/// code count for that test rather than for none. Without a host, or once it is closed, jobs run
/// in detached tasks.
package final class UserCodeHost: Sendable {
    private let jobs: AsyncStream<@Sendable () async -> Void>
    private let intake: AsyncStream<@Sendable () async -> Void>.Continuation

    package init() {
        (jobs, intake) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Runs each job as it comes, each in a task of its own that inherits the caller's task-local
    /// values; returns once the host is closed. Call it from a task started on the test's task.
    package func serve() async {
        for await job in jobs {
            Task { await job() }
        }
    }

    /// Hands `job` to the task serving the host; `false` when the host is closed.
    func submit(_ job: @escaping @Sendable () async -> Void) -> Bool {
        if case .enqueued = intake.yield(job) { return true }
        return false
    }

    /// Takes no more jobs: ``serve()`` returns once it has started those it has.
    package func close() {
        intake.finish()
    }
}
