import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's context switches so far, all threads together (`getrusage(RUSAGE_SELF)`): a
/// voluntary one is a thread going to sleep (waiting for a lock, a semaphore, another thread's
/// work), an involuntary one a thread the kernel preempted. Counts per request tell whether a gap
/// in CPU time between the floor and the toolkit comes from threads handing work to each other
/// (the toolkit's doing) or from the host (wall-clock noise, preemption by other processes).
struct ContextSwitches: Sendable {
    var voluntary = 0
    var involuntary = 0

    static func now() -> ContextSwitches {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return ContextSwitches() }
        return ContextSwitches(voluntary: Int(usage.ru_nvcsw), involuntary: Int(usage.ru_nivcsw))
    }

    static func - (after: ContextSwitches, before: ContextSwitches) -> ContextSwitches {
        ContextSwitches(
            voluntary: after.voluntary - before.voluntary,
            involuntary: after.involuntary - before.involuntary
        )
    }

    static func + (left: ContextSwitches, right: ContextSwitches) -> ContextSwitches {
        ContextSwitches(voluntary: left.voluntary + right.voluntary, involuntary: left.involuntary + right.involuntary)
    }
}
