import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several registries (parallel tests, or other processes) recording into one stub root never
/// clobber each other's files.
extension RecordingTests {
    @Test(
        "a registry never replaces a file another registry recorded into the same root after it started: it takes the next name"
    )
    func recorderKeepsAnotherRecordersFile() async throws {
        try await withRecordingFixture { root, server in
            // Both start before either records, so neither knows the other's files.
            let first = StubRegistry()
            let second = StubRegistry()
            let issues = [DiagnosticLog(first), DiagnosticLog(second)]
            try first.replay(root.path, mode: .newEpisodes)
            try second.replay(root.path, mode: .newEpisodes)

            let secondAnswer = try Answer(await complete(second.makeSession(), server.request("GET", "/counter")))
            let secondFiles = root.snapshot()
            try #require(
                secondFiles.keys.filter { $0.hasPrefix("mappings/") }.count == 1,
                "\(secondFiles.keys.sorted())"
            )
            let firstSession = first.makeSession()
            var firstAnswers: [Answer] = []
            for _ in 1...2 {
                firstAnswers.append(try Answer(await complete(firstSession, server.request("GET", "/counter"))))
            }
            #expect(
                ([secondAnswer] + firstAnswers).map(\.body) == [
                    .json(["count": 1]), .json(["count": 2]), .json(["count": 3]),
                ]
            )

            let after = root.snapshot()
            for (path, data) in secondFiles {
                #expect(after[path] == data, "\(path) was replaced")
            }
            let firstFile = try #require(first.journal.first?.recordedFile)
            #expect(
                first.journal.map(\.recordedFile) == [firstFile, firstFile],
                "the first registry's answers went to one file"
            )
            #expect(second.journal.first?.recordedFile != firstFile)
            let names = root.mappingNames()
            #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix("get-counter-") }, "\(names)")
            // The first registry's own file became a scenario: that one it does replace.
            let firstMapping = try JSONValue(parsing: String(contentsOfFile: firstFile, encoding: .utf8))
            let bodies = try (firstMapping.objectValue?["mappings"]?.arrayValue ?? []).map { mapping in
                try JSONValue(parsing: root.text("__files/\(try #require(mapping.bodyFileName))"))
            }
            #expect(bodies == [["count": 2], ["count": 3]])
            #expect(try root.unreferencedBodyFiles() == [])
            #expect(root.temporaryFiles() == [])
            let loaded = StubFiles.load([root.path])
            #expect(loaded.errors.isEmpty && loaded.warnings.isEmpty, "\(loaded.errors) \(loaded.warnings)")
            #expect(issues.allSatisfy { $0.all.isEmpty }, "\(issues.map(\.all))")
        }
    }

    @Test(
        "two registries recording the same requests into one root at once leave two valid mappings of each, all bodies referenced, nothing half-written"
    )
    func concurrentRegistriesIntoOneRoot() async throws {
        try await withRecordingFixture { root, server in
            let registries = [StubRegistry(), StubRegistry()]
            let issues = registries.map(DiagnosticLog.init)
            for registry in registries {
                #expect(
                    try registry.replay(root.path, mode: .once) == .once,
                    "both start before the root exists, as parallel tests do"
                )
            }
            let paths = ["/counter", "/users/1", "/search?q=a", "/search?q=b", "/image"]
            try await withThrowingTaskGroup(of: Int.self) { group in
                for registry in registries {
                    let session = registry.makeSession()
                    for path in paths {
                        let request = server.request("GET", path)
                        group.addTask {
                            let (_, response) = try await session.data(for: request)
                            return (response as? HTTPURLResponse)?.statusCode ?? 0
                        }
                    }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }

            let names = root.mappingNames()
            #expect(names.count == 2 * paths.count, "\(names)")
            var counters: [JSONValue] = []
            for name in names {
                let mapping = try JSONValue(parsing: root.text("mappings/\(name)"))
                let bodyFile = try #require(mapping.bodyFileName, "\(name)")
                let body = try Data(
                    contentsOf: URL(fileURLWithPath: root.path).appendingPathComponent("__files/\(bodyFile)")
                )
                #expect(!body.isEmpty, "\(bodyFile) is empty")
                if name.hasPrefix("get-counter-") { counters.append(try JSONValue(parsing: body)) }
            }
            #expect(
                Set(counters) == [["count": 1], ["count": 2]],
                "one registry's /counter answer replaced the other's"
            )
            #expect(try root.unreferencedBodyFiles() == [])
            #expect(root.temporaryFiles() == [])
            let files = registries.map { Set($0.journal.compactMap(\.recordedFile)) }
            #expect(files[0].count == paths.count && files[1].count == paths.count)
            #expect(files[0].isDisjoint(with: files[1]), "both registries claim \(files[0].intersection(files[1]))")
            server.stop()

            let replayer = try root.replayer()
            #expect(replayer.stubs.count == 2 * paths.count)
            let replayed = await complete(replayer.makeSession(), server.request("GET", "/users/1"))
            #expect(replayed.status == 200)
            #expect(issues.allSatisfy { $0.all.isEmpty }, "\(issues.map(\.all))")
        }
    }
}
