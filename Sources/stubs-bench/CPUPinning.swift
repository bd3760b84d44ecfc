import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs work with every thread of the process on one CPU, so that a hand-off between threads is a
/// plain context switch on that CPU rather than a wake-up of another one.
///
/// On a small virtual machine, waking a thread that sleeps on the other CPU costs more the longer
/// that CPU has been idle, so a microsecond more of work per request can cost several times itself
/// (BENCHMARKS.md, "Where a microsecond costs most"). Pinned, two workloads compare by what they
/// themselves cost. Linux only: elsewhere the work runs unpinned, and the pinned rows are not.
enum CPUPinning {
    /// Runs `body` with every thread of the process allowed on one CPU only (the highest the
    /// process may use), then allows every thread the CPUs it had before. Threads the runtime
    /// creates meanwhile inherit the pinning from the thread that creates them. Throws, without
    /// running `body`, when the process's CPUs cannot be read or its threads cannot be pinned, so
    /// that a pinned measurement is never an unpinned one in disguise.
    static func onOneCPU<Result>(_ body: () async throws -> Result) async throws -> Result {
        #if os(Linux)
        var allowed = cpu_set_t()
        guard let getAffinity = affinityCall("sched_getaffinity"),
            getAffinity(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0,
            let cpu = highestCPU(in: allowed)
        else {
            throw BenchFailure(
                "cannot read the CPUs this process may run on (sched_getaffinity), so the template workload "
                    + "cannot be pinned; leave it out with --only (without template)"
            )
        }
        var one = cpu_set_t()
        withUnsafeMutableBytes(of: &one) { bytes in bytes[cpu / 8] = 1 << UInt8(cpu % 8) }
        setEveryThread(to: one)
        defer { setEveryThread(to: allowed) }
        var current = cpu_set_t()
        guard getAffinity(0, MemoryLayout<cpu_set_t>.size, &current) == 0, highestCPU(in: current) == cpu,
            withUnsafeBytes(of: current, { $0.filter { $0 != 0 }.count }) == 1
        else {
            throw BenchFailure(
                "cannot pin this process's threads to CPU \(cpu) (sched_setaffinity was refused), so the template "
                    + "workload cannot be pinned; allow it (a container's CPU policy may forbid it) or leave the "
                    + "workload out with --only (without template)"
            )
        }
        return try await body()
        #else
        return try await body()
        #endif
    }

    #if os(Linux)
    /// `sched_getaffinity(2)` and `sched_setaffinity(2)` take a thread id, the mask's size and the
    /// mask.
    private typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    /// The C library's affinity call of that name: Swift's Glibc module leaves out glibc's
    /// `_GNU_SOURCE` declarations, so it is looked up at run time.
    private static func affinityCall(_ name: String) -> AffinityCall? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: AffinityCall.self)
    }

    private static func highestCPU(in set: cpu_set_t) -> Int? {
        withUnsafeBytes(of: set) { bytes in
            (0..<bytes.count * 8).last { cpu in bytes[cpu / 8] & (1 << UInt8(cpu % 8)) != 0 }
        }
    }

    /// Sets the affinity of every thread listed in `/proc/self/task`, twice, so that a thread
    /// created by one not yet set during the first pass is set in the second.
    private static func setEveryThread(to set: cpu_set_t) {
        guard let setAffinity = affinityCall("sched_setaffinity") else { return }  // found with its sibling
        var set = set
        for _ in 0..<2 {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            for thread in threads.compactMap({ pid_t($0) }) {
                _ = setAffinity(thread, MemoryLayout<cpu_set_t>.size, &set)
            }
        }
    }
    #endif
}
