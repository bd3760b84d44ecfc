import Foundation
import HTTPStubs

/// Reads a WireMock `response` object into a ``StubResponse``.
extension WireMockMappingReader {
    static let responseKeys: Set<String> = [
        "status", "statusMessage", "headers", "additionalProxyRequestHeaders", "body", "jsonBody", "base64Body",
        "bodyFileName", "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "fault", "transformers",
        "transformerParameters", "proxyBaseUrl", "proxyUrlPrefixToRemove", "removeProxyRequestHeaders",
        "fromConfiguredStub", extensionKey,
    ]

    /// The namespace of this toolkit's own response fields, which WireMock ignores:
    /// `"swiftHTTPStubs": {"urlError": "notConnectedToInternet"}` fails the request with that `URLError`
    /// (a name from `URLError.Code`, or its number).
    static let extensionKey = "swiftHTTPStubs"

    /// WireMock's faults and the `URLError` a URLSession client sees for each.
    static let faults: [String: URLError.Code] = [
        "EMPTY_RESPONSE": .networkConnectionLost,
        "CONNECTION_RESET_BY_PEER": .networkConnectionLost,
        "MALFORMED_RESPONSE_CHUNK": .cannotParseResponse,
        "RANDOM_DATA_THEN_CLOSE": .cannotParseResponse,
    ]

    /// Reads a response; `filesRoot` is the stub root's `__files` folder.
    /// `pathTemplate` is the request's `urlPathTemplate`, which templates read as `request.path.<name>`.
    func response(
        _ value: JSONValue,
        at jsonPath: JSONPath,
        filesRoot: URL,
        pathTemplate: URITemplate? = nil
    ) -> StubResponse? {
        guard let object = object(value, at: jsonPath, "'response'") else { return nil }
        warnAboutUnknownKeys(in: object, at: jsonPath, known: Self.responseKeys, what: "'response'")
        let start = mark
        let templated = isTemplated(object, at: jsonPath)
        var response = answer(
            object,
            at: jsonPath,
            filesRoot: filesRoot,
            templated: templated,
            pathTemplate: pathTemplate
        )
        if let delay = delay(object, at: jsonPath) {
            response = response?.delayed(delay)
        }
        if let dribble = object["chunkedDribbleDelay"] {
            let dribblePath = jsonPath.appending(.key("chunkedDribbleDelay"))
            if let settings = self.object(dribble, at: dribblePath, "'chunkedDribbleDelay'"),
                let chunks = integer("numberOfChunks", in: settings, at: dribblePath, in: 1...1_000_000),
                let total = integer("totalDuration", in: settings, at: dribblePath, in: 0...Int64(Int32.max))
            {
                response = response?.dribbled(chunks: chunks, over: .milliseconds(total))
            } else if !hasErrors(since: start) {
                error(
                    "'chunkedDribbleDelay' needs \"numberOfChunks\" and \"totalDuration\" (milliseconds)",
                    at: dribblePath
                )
            }
        }
        return hasErrors(since: start) ? nil : response
    }

    /// With `templated`, the status, headers and body are templates (see ``templatedAnswer``).
    private func answer(
        _ object: JSONObject,
        at jsonPath: JSONPath,
        filesRoot: URL,
        templated: Bool,
        pathTemplate: URITemplate?
    ) -> StubResponse? {
        if object["proxyBaseUrl"] != nil {
            // The stub loads and answers 500, as WireMock does when it cannot reach the proxy target.
            let message =
                "proxying ('proxyBaseUrl') is not supported by swift-http-stubs: "
                + "the stub loads and answers its requests with status 500, as WireMock does when it "
                + "cannot reach the proxy target; record the real answers into stubs instead"
            errorOnUse(message, at: jsonPath.appending(.key("proxyBaseUrl")))
            return .http(
                status: 500,
                headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: .text(
                    "The stub proxies to another server, which swift-http-stubs does not do; "
                        + "record the real answers into stubs instead.\n"
                )
            )
        }
        if let custom = object[Self.extensionKey] {
            return extensionAnswer(custom, at: jsonPath.appending(.key(Self.extensionKey)))
        }
        if let fault = object["fault"] {
            let faultPath = jsonPath.appending(.key("fault"))
            guard let name = fault.stringValue, let code = Self.faults[name] else {
                error(
                    "unknown fault \(fault.article); use one of \(Self.faults.keys.sorted().joined(separator: ", "))",
                    at: faultPath
                )
                return nil
            }
            return .failure(
                URLError(
                    code,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "The stub simulates WireMock's \(name) fault, which a URLSession client "
                            + "sees as URLError .\(URLErrorNames.name(of: code)) (\(code.rawValue))."
                    ]
                )
            )
        }
        if templated {
            return templatedAnswer(object, at: jsonPath, filesRoot: filesRoot, pathTemplate: pathTemplate)
        }
        let status = integer("status", in: object, at: jsonPath, in: 0...999) ?? 0
        var headers = HeaderFields()
        if let declared = object["headers"] {
            let headersPath = jsonPath.appending(.key("headers"))
            guard let map = self.object(declared, at: headersPath, "'headers'") else { return nil }
            for member in map.members {
                let valuePath = headersPath.appending(.key(member.key))
                switch member.value {
                case let .array(values):
                    for (index, value) in values.enumerated() {
                        guard let text = headerText(value, at: valuePath.appending(.index(index))) else { return nil }
                        headers.add(member.key, text)
                    }
                default:
                    guard let text = headerText(member.value, at: valuePath) else { return nil }
                    headers.add(member.key, text)
                }
            }
        }
        guard let body = body(object, at: jsonPath, filesRoot: filesRoot) else { return nil }
        var response = StubResponse.http(status: status > 0 ? status : 200, headers: headers, body: body)
        if let message = string("statusMessage", in: object, at: jsonPath) {
            response = response.reason(message)
        }
        return response
    }

    private func headerText(_ value: JSONValue, at jsonPath: JSONPath) -> String? {
        guard let text = value.scalarText else {
            error("a header value must be a string or an array of strings, found \(value.article)", at: jsonPath)
            return nil
        }
        return text
    }

    func body(_ object: JSONObject, at jsonPath: JSONPath, filesRoot: URL) -> ResponseBody? {
        let present = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { object[$0] != nil }
        for ignored in present.dropFirst() {
            warning(
                key: jsonPath.appending(.key(ignored)),
                "'\(ignored)' is ignored because '\(present[0])' is also given; a response has one body"
            )
        }
        guard let key = present.first else { return .empty }
        let keyPath = jsonPath.appending(.key(key))
        let value = object[key]!
        switch key {
        case "body":
            guard let text = value.stringValue else {
                error("'body' must be a string (for JSON, use 'jsonBody'), found \(value.article)", at: keyPath)
                return nil
            }
            return .text(text)
        case "jsonBody":
            return .text(value.serialized())
        case "base64Body":
            guard let text = value.stringValue, let data = Data(base64Encoded: text) else {
                error("'base64Body' must be base64 text, found \(value.article)", at: keyPath)
                return nil
            }
            return .data(data)
        default:
            guard let name = value.stringValue else {
                error("'bodyFileName' must be a string, found \(value.article)", at: keyPath)
                return nil
            }
            return bodyFile(name, at: keyPath, filesRoot: filesRoot).map(ResponseBody.stubRootFile)
        }
    }

    /// The body file's URL, refusing names that would leave the `__files` folder.
    func bodyFile(_ name: String, at jsonPath: JSONPath, filesRoot: URL) -> URL? {
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            error(
                "'bodyFileName' \(quoted(name)) contains a control character, "
                    + "which no file name here may hold; refused",
                at: jsonPath
            )
            return nil
        }
        if name.contains("\\") {
            error(
                "'bodyFileName' \(quoted(name)) uses '\\', which is not a path separator here; "
                    + "refused: write the path relative to \(filesRoot.path) with '/' (and without '..')",
                at: jsonPath
            )
            return nil
        }
        if name.hasPrefix("~") {
            error(
                "'bodyFileName' \(quoted(name)) must be a path relative to \(filesRoot.path); '~' is refused",
                at: jsonPath
            )
            return nil
        }
        let resolved: String
        switch BodyFilePath(name, in: filesRoot) {
        case let .inside(file):
            resolved = file.path
        case .parentReference:
            error("'bodyFileName' \(quoted(name)) must stay inside \(filesRoot.path); '..' is refused", at: jsonPath)
            return nil
        case .folderItself:
            error(
                "'bodyFileName' \(quoted(name)) names the __files folder itself; give the path of a file inside it",
                at: jsonPath
            )
            return nil
        case .outside:
            error(
                "'bodyFileName' \(quoted(name)) leads outside \(filesRoot.path) through a symbolic link; refused",
                at: jsonPath
            )
            return nil
        }
        if let kind = RegularFile.kind(atPath: resolved) {
            error(
                "'bodyFileName' \(quoted(name)) is \(kind) in \(filesRoot.path), not a regular file; "
                    + RegularFile.advice(forKind: kind),
                at: jsonPath
            )
            return nil
        }
        if !FileManager.default.fileExists(atPath: resolved) {
            errorOnUse(
                "'bodyFileName' \(quoted(name)) does not exist in \(filesRoot.path); "
                    + "the stub loads, and answers its requests with "
                    + "status 500 as WireMock does, until you add the file or fix the name",
                at: jsonPath
            )
        }
        return URL(fileURLWithPath: resolved)
    }

    /// `fixedDelayMilliseconds` plus `delayDistribution`, as WireMock adds them.
    private func delay(_ object: JSONObject, at jsonPath: JSONPath) -> StubDelay? {
        let fixed = integer("fixedDelayMilliseconds", in: object, at: jsonPath, in: 0...Int64(Int32.max))
        guard let distribution = object["delayDistribution"] else {
            return fixed.map { .fixed(.milliseconds($0)) }
        }
        let distributionPath = jsonPath.appending(.key("delayDistribution"))
        guard let settings = self.object(distribution, at: distributionPath, "'delayDistribution'") else { return nil }
        let type = string("type", in: settings, at: distributionPath)
        let milliseconds: (String) -> Double? = { key in settings[key]?.numberValue?.doubleValue }
        // Delays beyond Int32.max milliseconds (about 24 days) are refused, as WireMock's int fields refuse them.
        for key in ["milliseconds", "lower", "upper", "median", "maxValue"] {
            if let value = milliseconds(key), !(value.isFinite && value >= 0 && value <= Double(Int32.max)) {
                error(
                    "'\(key)' must be a number of milliseconds from 0 to \(Int32.max)",
                    at: distributionPath.appending(.key(key))
                )
                return nil
            }
        }
        if let sigma = settings["sigma"]?.numberValue?.doubleValue, !(sigma.isFinite && sigma >= 0 && sigma <= 100) {
            error("'sigma' must be a number from 0 to 100", at: distributionPath.appending(.key("sigma")))
            return nil
        }
        let delay: StubDelay
        switch type {
        case "fixed":
            guard let value = milliseconds("milliseconds") else {
                return missing("milliseconds", for: "fixed", at: distributionPath)
            }
            delay = .fixed(.milliseconds(value))
        case "uniform":
            guard let lower = milliseconds("lower"), let upper = milliseconds("upper"), lower <= upper else {
                return missing("lower\" and \"upper", for: "uniform", at: distributionPath)
            }
            delay = .uniform(.milliseconds(lower) ... .milliseconds(upper))
        case "lognormal":
            guard let median = milliseconds("median"), let sigma = settings["sigma"]?.numberValue?.doubleValue else {
                return missing("median\" and \"sigma", for: "lognormal", at: distributionPath)
            }
            delay = .logNormal(
                median: .milliseconds(median),
                sigma: sigma,
                maximum: milliseconds("maxValue").map { .milliseconds($0) }
            )
        default:
            error(
                "unknown delay distribution type \(type.map(quoted) ?? "(none)"); "
                    + "use \"fixed\", \"uniform\" or \"lognormal\"",
                at: distributionPath
            )
            return nil
        }
        return delay.adding(.milliseconds(fixed ?? 0))
    }

    private func missing(_ keys: String, for type: String, at jsonPath: JSONPath) -> StubDelay? {
        error("a \"\(type)\" delay distribution needs \"\(keys)\" (milliseconds)", at: jsonPath)
        return nil
    }

    private func extensionAnswer(_ value: JSONValue, at jsonPath: JSONPath) -> StubResponse? {
        guard let object = object(value, at: jsonPath, "'\(Self.extensionKey)'") else { return nil }
        warnAboutUnknownKeys(in: object, at: jsonPath, known: ["urlError"], what: "'\(Self.extensionKey)'")
        guard let error = object["urlError"] else {
            self.error(
                "'\(Self.extensionKey)' needs \"urlError\": a URLError.Code name such as \"notConnectedToInternet\" "
                    + "or its number such as -1009; remove '\(Self.extensionKey)' for an ordinary response",
                at: jsonPath
            )
            return nil
        }
        let errorPath = jsonPath.appending(.key("urlError"))
        if let number = error.numberValue?.int64Value, let code = URLError.Code(rawValue: Int(number)) {
            return .error(code)
        }
        guard let name = error.stringValue, let code = URLErrorNames.code(named: name) else {
            self.error(
                "'urlError' must be a URLError.Code name such as \"notConnectedToInternet\" "
                    + "or its number such as -1009, found \(error.article)",
                at: errorPath
            )
            return nil
        }
        return .error(code)
    }
}
