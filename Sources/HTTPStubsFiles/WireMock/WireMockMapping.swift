import Foundation
import HTTPStubs

/// Reads WireMock stub mapping files: one mapping object, or `{"mappings": [ … ]}`.
extension WireMockMappingReader {
    static let mappingKeys: Set<String> = [
        "id", "uuid", "name", "request", "response", "priority", "scenarioName", "requiredScenarioState",
        "newScenarioState", "persistent", "metadata", "postServeActions", "serveEventListeners", "insertionIndex",
    ]

    /// The stubs of a mapping file; `filesRoot` is the stub root's `__files` folder.
    func mappingStubs(filesRoot: URL) -> [Stub] {
        let root = document.root
        if let object = root.objectValue, let list = object["mappings"] {
            let listPath = JSONPath.root.appending(.key("mappings"))
            warnAboutUnknownKeys(
                in: object,
                at: .root,
                known: ["mappings", "meta", "importOptions"],
                what: "a mappings file"
            )
            guard let mappings = list.arrayValue else {
                error("'mappings' must be an array of stub mappings, found \(list.article)", at: listPath)
                return []
            }
            return mappings.enumerated().compactMap { index, mapping in
                stub(mapping, at: listPath.appending(.index(index)), index: index, filesRoot: filesRoot)
            }
        }
        if let object = root.objectValue, object["request"] == nil, object["response"] == nil {
            error(
                "this file is neither a WireMock stub mapping (it has no \"request\" or \"response\"), "
                    + "nor a mappings file (no \"mappings\" array), nor a HAR capture (no \"log\")",
                at: .root
            )
            return []
        }
        return stub(root, at: .root, index: nil, filesRoot: filesRoot).map { [$0] } ?? []
    }

    private func stub(_ value: JSONValue, at jsonPath: JSONPath, index: Int?, filesRoot: URL) -> Stub? {
        guard let mapping = object(value, at: jsonPath, "a stub mapping") else { return nil }
        warnAboutUnknownKeys(in: mapping, at: jsonPath, known: Self.mappingKeys, what: "a stub mapping")
        let start = mark
        let pattern =
            mapping["request"].map { requestPattern($0, at: jsonPath.appending(.key("request"))) } ?? RequestPattern()
        let response: StubResponse?
        if let value = mapping["response"] {
            let pathTemplate = mapping["request"]?.objectValue?["urlPathTemplate"]?.stringValue.map(URITemplate.init)
            response = self.response(
                value,
                at: jsonPath.appending(.key("response")),
                filesRoot: filesRoot,
                pathTemplate: pathTemplate
            )
        } else {
            warning("the mapping has no 'response'; it answers 200 with no body, as WireMock does", at: jsonPath)
            response = .ok
        }
        let priority = integer("priority", in: mapping, at: jsonPath) ?? 5
        if mapping["postServeActions"] != nil || mapping["serveEventListeners"] != nil {
            warning(
                "webhooks ('postServeActions', 'serveEventListeners') are not supported and are ignored",
                at: jsonPath
            )
        }
        let scenario = scenarioRule(mapping, at: jsonPath)
        _ = string("id", in: mapping, at: jsonPath)
        let name = string("name", in: mapping, at: jsonPath)
        guard let pattern, let response, !hasErrors(since: start) else { return nil }
        let location = self.location(of: jsonPath)
        var stub = Stub(
            pattern,
            responses: [response],
            priority: priority,
            source: .file(path, index: index, line: location?.line, column: location?.column)
        )
        stub.name = name
        stub.scenario = scenario
        return stub
    }

    private func scenarioRule(_ mapping: JSONObject, at jsonPath: JSONPath) -> ScenarioRule? {
        let required = string("requiredScenarioState", in: mapping, at: jsonPath)
        let new = string("newScenarioState", in: mapping, at: jsonPath)
        guard let name = string("scenarioName", in: mapping, at: jsonPath) else {
            if required != nil || new != nil {
                warning(
                    "'requiredScenarioState' and 'newScenarioState' are ignored without a 'scenarioName'",
                    at: jsonPath
                )
            }
            return nil
        }
        return ScenarioRule(name, requiredState: required, newState: new)
    }
}
