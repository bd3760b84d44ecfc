import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Child processes can only be started on macOS and Linux.
#if os(macOS) || os(Linux)
/// A child process the suite starts with `posix_spawn`, instead of Foundation's `Process`.
///
/// On Linux, corelibs' `Process.run()` lists `/proc/self/fd` to close the parent's descriptors in
/// the child, and copies each directory entry past the end of the record it reads
/// (swift-corelibs-foundation #5472, fixed after this toolchain). When the suite's parallel tests
/// hold many descriptors at once (each live `URLSession` keeps libcurl's socket pair: about 1,600
/// at the suite's busiest), that copy can run off glibc's buffer, and the test process dies of SIGSEGV.
/// `posix_spawn` lists nothing: the child closes every descriptor above standard error itself
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34, or `POSIX_SPAWN_CLOEXEC_DEFAULT` on
/// Darwin), so no other test's pipe stays open in it.
///
/// Not thread-safe: one test starts it, waits for it and reads its status.
final class SpawnedChild {
    /// How a child ended.
    enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it (a crash, or ``SpawnedChild/terminate()``).
        case signalled(Int32)
        /// It was reaped elsewhere (`waitpid` answered `ECHILD`): how it ended is unknown.
        case unknown
    }

    /// The child's process identifier.
    let pid: pid_t
    /// How the child ended, once it has been reaped.
    private var ended: Ending?

    /// Starts `executable` with `arguments`, its standard streams on the given descriptors (which
    /// stay the caller's to close), in `directory` when given, with `environment` (the test
    /// process's when `nil`).
    init(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        input: Int32,
        output: Int32,
        error: Int32
    ) throws {
        var actions = try SpawnFileActions()
        defer { actions.destroy() }
        try actions.duplicate(input, to: STDIN_FILENO)
        try actions.duplicate(output, to: STDOUT_FILENO)
        try actions.duplicate(error, to: STDERR_FILENO)
        try actions.closeAboveStandardError()
        if let directory { try actions.changeDirectory(to: directory.path) }
        var attributes = try SpawnAttributes()
        defer { attributes.destroy() }

        let argv = ([executable.path] + arguments).map { strdup($0) }
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer {
            for string in argv + envp { free(string) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions.value, &attributes.value, argv + [nil], envp + [nil])
        guard status == 0 else { throw SpawnError(call: "posix_spawn(\(executable.path))", code: status) }
        self.pid = pid
    }

    /// Whether the child is still running (it is reaped as soon as it is seen to have ended).
    var isRunning: Bool {
        reap(waiting: false)
        return ended == nil
    }

    /// Waits for the child to end, and says how it ended.
    @discardableResult
    func waitUntilExit() -> Ending {
        reap(waiting: true)
        return ended ?? .unknown
    }

    /// Sends the child `SIGTERM` and waits for it to end.
    func terminate() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        waitUntilExit()
    }

    private func reap(waiting: Bool) {
        guard ended == nil else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == -1, errno == EINTR { continue }
            if result == -1 {
                ended = .unknown
            } else if result == pid {
                // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the
                // signal that ended the child (0 when it exited), the next byte its exit status.
                ended = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
            }
            return
        }
    }
}

/// A `posix_spawn` call that failed.
struct SpawnError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// `posix_spawn_file_actions_t`, with the two GNU extensions the Glibc module does not export
/// (they are declared only under `_GNU_SOURCE`), found at run time.
private struct SpawnFileActions {
    #if canImport(Darwin)
    var value: posix_spawn_file_actions_t?
    #else
    var value = posix_spawn_file_actions_t()
    #endif

    init() throws {
        try check(posix_spawn_file_actions_init(&value), "posix_spawn_file_actions_init")
    }

    mutating func destroy() {
        posix_spawn_file_actions_destroy(&value)
    }

    mutating func duplicate(_ descriptor: Int32, to target: Int32) throws {
        try check(posix_spawn_file_actions_adddup2(&value, descriptor, target), "posix_spawn_file_actions_adddup2")
    }

    /// Closes every descriptor above standard error in the child (on Darwin, the attributes'
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` does it).
    mutating func closeAboveStandardError() throws {
        #if !canImport(Darwin)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        let function = try gnuExtension("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
        try check(function(&value, STDERR_FILENO + 1), "posix_spawn_file_actions_addclosefrom_np")
        #endif
    }

    mutating func changeDirectory(to path: String) throws {
        #if canImport(Darwin)
        try check(posix_spawn_file_actions_addchdir_np(&value, path), "posix_spawn_file_actions_addchdir_np")
        #else
        typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        let function = try gnuExtension("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
        try check(function(&value, path), "posix_spawn_file_actions_addchdir_np")
        #endif
    }

    #if !canImport(Darwin)
    /// A glibc function the Glibc module does not declare; glibc 2.34 and later have both.
    private func gnuExtension<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let symbol = dlsym(nil, name) else {
            throw SpawnError(call: "dlsym(\(name)): glibc 2.34 or later is needed", code: ENOSYS)
        }
        return unsafeBitCast(symbol, to: type)
    }
    #endif
}

/// `posix_spawnattr_t`: on Darwin, the child closes every descriptor it is not given.
private struct SpawnAttributes {
    #if canImport(Darwin)
    var value: posix_spawnattr_t?
    #else
    var value = posix_spawnattr_t()
    #endif

    init() throws {
        try check(posix_spawnattr_init(&value), "posix_spawnattr_init")
        #if canImport(Darwin)
        try check(posix_spawnattr_setflags(&value, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)), "posix_spawnattr_setflags")
        #endif
    }

    mutating func destroy() {
        posix_spawnattr_destroy(&value)
    }
}

private func check(_ code: Int32, _ call: String) throws {
    guard code == 0 else { throw SpawnError(call: call, code: code) }
}
#endif
