import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(Glibc)
import Glibc
#endif

/// Temporary stub roots the file workloads load.
enum StubFileCorpus {
    /// A fresh temporary folder; the caller removes it.
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("stubs-bench-\(name)-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `count` WireMock mapping files into `<root>/mappings/`, one stub each, mixed one in
    /// ten as the in-code 10k registry: 4 `urlPath` (GET/POST/PUT/DELETE), 1 `urlPathTemplate`,
    /// 1 `urlPathPattern`, 1 `urlPattern`, 1 `urlPath` + `headers`, 1 POST + `bodyPatterns`
    /// `equalToJson`, 1 `urlPath` + `queryParameters`; each with a status, headers and a JSON body,
    /// pretty-printed as WireMock writes them (about 350 bytes each).
    static func writeMappings(count: Int, into root: URL) throws -> Int {
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let methods = ["GET", "POST", "PUT", "DELETE"]
        var bytes = 0
        for index in 0..<count {
            let request: String
            switch index % 10 {
            case 0, 1, 2, 3:
                request = #""method": "\#(methods[index % 4])", "urlPath": "/exact/\#(index)/items""#
            case 4:
                request = #""method": "GET", "urlPathTemplate": "/accounts/\#(index)/users/{id}""#
            case 5:
                request = #""method": "GET", "urlPathPattern": "/search/\#(index)/[a-z0-9-]+""#
            case 6:
                request = #""method": "GET", "urlPattern": "/reports/\#(index)\\?year=[0-9]{4}""#
            case 7:
                request = """
                    "method": "GET",
                        "urlPath": "/users/\(index)",
                        "headers": {
                          "X-Tenant": { "equalTo": "tenant-\(index)" },
                          "Accept": { "contains": "json" }
                        }
                    """
            case 8:
                request = """
                    "method": "POST",
                        "urlPath": "/orders/\(index)",
                        "bodyPatterns": [
                          { "equalToJson": { "sku": "sku-\(index)", "quantity": 1 }, "ignoreExtraElements": true }
                        ]
                    """
            default:
                request = """
                    "method": "GET",
                        "urlPath": "/feed/\(index)",
                        "queryParameters": { "page": { "equalTo": "2" } }
                    """
            }
            let text = """
                {
                  "name": "generated stub \(index)",
                  "request": {
                    \(request)
                  },
                  "response": {
                    "status": 200,
                    "headers": { "Content-Type": "application/json", "X-Stub": "\(index)" },
                    "jsonBody": { "id": \(index), "name": "item \(index)", "tags": ["bench", "generated"], \
                "price": \(index).5 }
                  }
                }

                """
            let data = Data(text.utf8)
            bytes += data.count
            try writeFile(data, to: mappings.appendingPathComponent(String(format: "mapping-%05d.json", index)).path)
        }
        return bytes
    }

    /// Writes a file with plain POSIX calls: Foundation's `Data.write(to:)` calls `fsync` for every
    /// file, which makes writing 10,000 files take about 15 s on a virtual disk instead of 0.5 s.
    static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchFailure("cannot create \(path): errno \(errno)") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { raw in raw.isEmpty ? 0 : write(descriptor, raw.baseAddress, raw.count) }
        guard written == data.count else { throw BenchFailure("cannot write \(path): errno \(errno)") }
    }

    /// Removes a folder tree with plain POSIX calls (`FileManager.removeItem` takes seconds for
    /// 10,000 files here).
    static func removeTree(_ url: URL) {
        let path = url.path
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                removeTree(url.appendingPathComponent(name))
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The baseline: list `<root>/mappings`, read every file and parse it with JSONSerialization.
    /// Returns the number of files parsed.
    static func parseWithJSONSerialization(root: URL) throws -> Int {
        let mappings = root.appendingPathComponent("mappings")
        let names = try FileManager.default.contentsOfDirectory(atPath: mappings.path).filter { $0.hasSuffix(".json") }
            .sorted()
        var parsed = 0
        for name in names {
            let data = try Data(contentsOf: mappings.appendingPathComponent(name))
            if try JSONSerialization.jsonObject(with: data) is [String: Any] { parsed += 1 }
        }
        return parsed
    }

    /// Loads the stub root into a fresh registry, as a test would; returns the number of stubs.
    static func loadIntoRegistry(root: URL) throws -> Int {
        let registry = StubRegistry()
        return try registry.load(root.path).count
    }

    /// Reads and decodes the stub root without adding the stubs to a registry (shown apart, to
    /// separate parsing and decoding from registry insertion); returns the number of stubs.
    static func decodeOnly(root: URL) throws -> Int {
        let result = StubFiles.load([root.path])
        guard result.errors.isEmpty else { throw BenchFailure("stub files have errors: \(result.errors.prefix(3))") }
        return result.stubs.count
    }

    /// Size of the large body.
    static let largeBodyBytes = 100 * 1024 * 1024

    /// A stub root whose `/large` mapping serves a 100 MiB `bodyFileName`, and whose `/small`
    /// mapping serves the small payload (used to warm the session up).
    static func writeLargeBodyRoot(into root: URL) throws {
        let mappings = root.appendingPathComponent("mappings")
        let files = root.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try writeFile(
            Data(
                (#"{"request": {"method": "GET", "urlPath": "/large"}, "response": {"status": 200, "#
                    + #""bodyFileName": "large.bin", "headers": {"Content-Type": "application/octet-stream"}}}"#)
                    .utf8
            ),
            to: mappings.appendingPathComponent("large.json").path
        )
        try writeFile(
            Data(
                #"{"request": {"method": "GET", "urlPath": "/small"}, "response": {"status": 200, "body": "ok"}}"#.utf8
            ),
            to: mappings.appendingPathComponent("small.json").path
        )
        let path = files.appendingPathComponent("large.bin").path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw BenchFailure("cannot create \(path)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let chunkSize = 1024 * 1024
        let chunk = Data((0..<chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for _ in 0..<(largeBodyBytes / chunkSize) {
            try handle.write(contentsOf: chunk)
        }
    }
}
