import Foundation
import HTTPStubs
import Testing

/// An executable product of this package, built beside the test bundle (the test target depends
/// on it, so `swift build --build-tests` builds it); fails the test when it cannot be found.
func builtExecutable(named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    let folders = productFolders()
    let found = folders.map { $0.appendingPathComponent(name) }.first { url in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
    return try #require(
        found,
        "the built '\(name)' executable was not found beside the test bundle (looked in \(folders.map(\.path)))",
        sourceLocation: sourceLocation
    )
}

/// The folders that may hold the built products: those of the running test executable
/// (`CommandLine.arguments[0]`, `Bundle.main`) and, for a bundle such as
/// `.build/debug/swift-http-stubsPackageTests.xctest/Contents/MacOS/…`, the folders above it.
private func productFolders() -> [URL] {
    var starts: [URL] = []
    if let first = CommandLine.arguments.first {
        starts.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    if let executable = Bundle.main.executableURL {
        starts.append(executable.deletingLastPathComponent())
    }
    starts.append(Bundle.main.bundleURL)
    var folders: [URL] = []
    for start in starts {
        var folder = start.standardizedFileURL
        for _ in 0..<4 {
            if !folders.contains(folder) { folders.append(folder) }
            folder = folder.deletingLastPathComponent()
        }
    }
    return folders
}

// Child processes can only be started on macOS and Linux.
#if os(macOS) || os(Linux)
/// Runs an executable with its standard output and error going to one file, for at most
/// `seconds`: a child still running then is terminated and the call throws. The child gets the
/// test process's environment, with `environment`'s variables set (an empty value removes one).
func run(
    _ executable: URL,
    _ arguments: [String],
    environment: [String: String] = [:],
    within seconds: Double
) async throws -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).out")
    try Data().write(to: output)
    defer { try? FileManager.default.removeItem(at: output) }
    let handle = try FileHandle(forWritingTo: output)
    defer { try? handle.close() }
    let nothing = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
    defer { try? nothing.close() }
    let child = try SpawnedChild(
        executable,
        arguments,
        environment: environment.isEmpty
            ? nil
            : ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter { !$0.value.isEmpty },
        input: nothing.fileDescriptor,
        output: handle.fileDescriptor,
        error: handle.fileDescriptor
    )
    let status: Int32
    switch try await child.ending(within: seconds, command: ([executable.path] + arguments).joined(separator: " ")) {
    case .exited(let code): status = code
    case .signalled(let signal): status = 128 + signal
    case .unknown: status = -1
    }
    return (status, String(decoding: try Data(contentsOf: output), as: UTF8.self))
}

extension SpawnedChild {
    /// Waits for the child to end, for at most `seconds`: a child still running then (or when the
    /// test is cancelled) is terminated and the call throws.
    ///
    /// It waits by sleeping in the task, never by blocking its thread: Swift Testing runs tests
    /// on the cooperative pool, which has as many threads as cores, and a test blocked there for a
    /// child's lifetime (seconds under the thread sanitizer) holds up every other test's tasks.
    func ending(within seconds: Double, command: String) async throws -> Ending {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while isRunning {
            guard ContinuousClock.now < deadline else {
                terminate()
                throw ChildTimeout(command: command, seconds: seconds)
            }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                terminate()
                throw error
            }
        }
        return waitUntilExit()
    }
}

/// A child process that did not finish in time.
struct ChildTimeout: Error, CustomStringConvertible {
    let command: String
    let seconds: Double
    var description: String { "\(command) did not finish within \(seconds) s; it was terminated" }
}
#endif
