import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Scenarios recorded into a stub root never share their state with scenarios already in it.
extension RecordingTests {
    @Test(
        "two newEpisodes runs each recording a repeated request to one path give distinct scenarios, each replaying its own sequence"
    )
    func scenarioNamesAcrossRuns() async throws {
        try await withRecordingFixture { root, server in

            let first = try root.recorder(.newEpisodes)
            let firstSession = first.makeSession()
            var live: [String: [Answer]] = [:]
            for _ in 1...2 {
                live["1", default: []].append(
                    try Answer(await complete(firstSession, server.request("GET", "/counter?run=1")))
                )
            }
            let afterFirst = root.snapshot()

            let second = try root.recorder(.newEpisodes)
            let secondSession = second.makeSession()
            for _ in 1...2 {
                live["2", default: []].append(
                    try Answer(await complete(secondSession, server.request("GET", "/counter?run=2")))
                )
            }
            #expect(
                live.mapValues { $0.map(\.body) } == [
                    "1": [.json(["count": 1]), .json(["count": 2])],
                    "2": [.json(["count": 3]), .json(["count": 4])],
                ]
            )
            #expect(
                second.journal.allSatisfy { $0.recordedFile != nil },
                "the second run replayed the first run's scenario"
            )
            let afterSecond = root.snapshot()
            for (path, data) in afterFirst {
                #expect(afterSecond[path] == data, "\(path) changed")
            }

            let names = root.mappingNames()
            try #require(names.count == 2, "\(names)")
            var scenarios: Set<String> = []
            for name in names {
                let mappings = try #require(
                    JSONValue(parsing: root.text("mappings/\(name)")).objectValue?["mappings"]?.arrayValue,
                    "\(name) is no scenario"
                )
                let scenario = Set(mappings.compactMap { $0.objectValue?["scenarioName"]?.stringValue })
                #expect(scenario == ["scenario-\(name.dropLast(".json".count))"], "\(name): \(scenario)")
                scenarios.formUnion(scenario)
            }
            #expect(scenarios.count == 2, "\(scenarios)")
            server.stop()

            // Interleaved: a shared scenario state would hand one run's requests the other's answers.
            let issues = DiagnosticLog()
            let replayer = try root.replayer(reporting: issues)
            let replaySession = replayer.makeSession()
            for (run, index) in [("1", 0), ("2", 0), ("1", 1), ("2", 1), ("2", 1), ("1", 1)] {
                let replayed = try Answer(await complete(replaySession, server.request("GET", "/counter?run=\(run)")))
                #expect(replayed.body == live[run]?[index].body, "run \(run), answer \(index + 1)")
            }
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("a recorded scenario never takes the name of a scenario a hand-written mapping in the root uses")
    func scenarioNamesAvoidHandWrittenScenarios() async throws {
        try await withRecordingFixture { root, server in
            // Learn the name a recording of GET /counter?run=x, twice, gives its scenario.
            let scratch = try RecordingRoot()
            defer { scratch.remove() }
            let probe = try scratch.recorder(.once)
            for _ in 1...2 { _ = await complete(probe.makeSession(), server.request("GET", "/counter?run=x")) }
            let stem = try #require(scratch.mappingNames().first).dropLast(".json".count)

            // A hand-written mapping, in a subfolder, already uses that name for a scenario of its own.
            let handWritten = """
                {"mappings": [
                  {"scenarioName": "scenario-\(stem)", "requiredScenarioState": "Started", "newScenarioState": "done",
                   "request": {"method": "GET", "urlPath": "/toggle"}, "response": {"status": 200, "body": "on"}},
                  {"scenarioName": "scenario-\(stem)", "requiredScenarioState": "done",
                   "request": {"method": "GET", "urlPath": "/toggle"}, "response": {"status": 200, "body": "off"}}
                ]}
                """
            try FileManager.default.createDirectory(
                atPath: root.path + "/mappings/hand",
                withIntermediateDirectories: true
            )
            try root.write(handWritten, to: "mappings/hand/toggle.json")

            let recorder = try root.recorder(.newEpisodes)
            let session = recorder.makeSession()
            var live: [Answer] = []
            for _ in 1...2 { live.append(try Answer(await complete(session, server.request("GET", "/counter?run=x")))) }
            let recorded = root.mappingNames().filter { $0.hasSuffix(".json") }
            try #require(recorded.count == 1, "\(recorded)")
            #expect(recorded[0] != "\(stem).json", "the recording took the name whose scenario is in use")
            #expect(
                try root.text("mappings/\(recorded[0])").contains("\"scenario-\(recorded[0].dropLast(".json".count))\"")
            )
            server.stop()

            let issues = DiagnosticLog()
            let replayer = try root.replayer(reporting: issues)
            let replaySession = replayer.makeSession()
            #expect(
                try Answer(await complete(replaySession, server.request("GET", "/counter?run=x"))).body == live[0].body
            )
            #expect(
                await complete(replaySession, server.request("GET", "/toggle")).text == "on",
                "the recording moved the hand-written scenario"
            )
            #expect(
                try Answer(await complete(replaySession, server.request("GET", "/counter?run=x"))).body == live[1].body
            )
            #expect(await complete(replaySession, server.request("GET", "/toggle")).text == "off")
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }
}
