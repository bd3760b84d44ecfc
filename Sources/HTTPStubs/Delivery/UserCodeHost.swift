import Dispatch

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
            UserCodeExecutor.run(job, inheritingTaskLocals: true)
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

/// Runs the user's code on threads of its own rather than on Swift's cooperative pool, which has
/// only as many threads as cores, or GCD's global queue, which on Linux does not grow when its
/// threads block: stub code that blocks (a responder waiting on a semaphore for another request)
/// would otherwise hold up every task, timer and delivery of the process.
///
/// `TaskExecutor` needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2: before those, on Apple
/// platforms, ``UserCodeExecutor/run(_:inheritingTaskLocals:)`` runs the job on the cooperative pool.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class UserCodeQueueExecutor: TaskExecutor, Sendable {
    static let shared = UserCodeQueueExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // A serial queue of its own rather than the global queue: libdispatch gives it a thread
        // even when every thread of the global pool is busy (a serial queue targets an
        // overcommitting root queue), and on Linux that pool does not grow when its threads block.
        DispatchQueue(label: "swift-http-stubs.user-code").async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

/// Where the user's code runs: see ``UserCodeQueueExecutor``.
enum UserCodeExecutor {
    /// Runs `job` in a new task on ``UserCodeQueueExecutor`` (on Apple platforms before it existed, on the
    /// cooperative pool): one that inherits the caller's task-local values, or a detached one.
    static func run(_ job: @escaping @Sendable () async -> Void, inheritingTaskLocals: Bool) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            if inheritingTaskLocals {
                Task(executorPreference: UserCodeQueueExecutor.shared) { await job() }
            } else {
                Task.detached(executorPreference: UserCodeQueueExecutor.shared) { await job() }
            }
        } else if inheritingTaskLocals {
            Task { await job() }
        } else {
            Task.detached { await job() }
        }
    }
}
