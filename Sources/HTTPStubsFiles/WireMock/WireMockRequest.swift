import Foundation
import HTTPStubs

/// Reads a WireMock `request` object into a ``RequestPattern``.
extension WireMockMappingReader {
    static let requestKeys: Set<String> = [
        "method", "url", "urlPattern", "urlPath", "urlPathPattern", "urlPathTemplate", "pathParameters",
        "scheme", "host", "port", "clientIp", "headers", "queryParameters", "formParameters", "cookies",
        "basicAuth", "basicAuthCredentials", "bodyPatterns", "multipartPatterns", "customMatcher",
    ]

    /// The URL keys, in the order WireMock's `UrlPattern.fromOneOf` picks the first present.
    static let urlKeys = ["url", "urlPattern", "urlPath", "urlPathPattern", "urlPathTemplate"]

    func requestPattern(_ value: JSONValue, at jsonPath: JSONPath) -> RequestPattern? {
        guard let request = object(value, at: jsonPath, "'request'") else { return nil }
        warnAboutUnknownKeys(in: request, at: jsonPath, known: Self.requestKeys, what: "'request'")
        let start = mark
        var matchers: [RequestMatcher] = []

        if let method = string("method", in: request, at: jsonPath) {
            if method != method.uppercased() {
                warning(
                    "the method \(quoted(method)) is not upper-case: WireMock compares methods "
                        + "case-sensitively and would never match it; write \(quoted(method.uppercased()))",
                    at: jsonPath.appending(.key("method"))
                )
            }
            switch method.uppercased() {
            case "ANY": break
            case "GET_OR_HEAD": matchers.append(.anyOf([.method(.get), .method(.head)]))
            default: matchers.append(.method(InterceptedRequest.Method(rawValue: method)))
            }
        }
        matchers += urlMatchers(request, at: jsonPath)
        if let scheme = string("scheme", in: request, at: jsonPath) {
            matchers.append(.scheme(scheme))
        }
        if let host = request["host"] {
            let hostPath = jsonPath.appending(.key("host"))
            if let name = host.stringValue {
                matchers.append(.host(.equal(name.lowercased(), caseInsensitive: true)))
            } else if let test = valueTest(host, at: hostPath) {
                matchers.append(single(.host, test) { $0.host })
            }
        }
        if let port = integer("port", in: request, at: jsonPath, in: 1...65_535) {
            matchers.append(.port(port))
        }
        if let clientIP = request["clientIp"], let test = valueTest(clientIP, at: jsonPath.appending(.key("clientIp")))
        {
            // Requests served in-process come from this machine.
            matchers.append(single(RequestMatcher.Part(name: "client IP", weight: 3), test) { _ in "127.0.0.1" })
        }
        for (name, test) in namedMultiValueTests("headers", in: request, at: jsonPath) {
            matchers.append(multi(.header(name), test) { $0.sentValues(ofHeader: name) })
        }
        for (name, test) in namedMultiValueTests("queryParameters", in: request, at: jsonPath) {
            matchers.append(multi(.query(name), test) { $0.queryValues(name) })
        }
        for (name, test) in namedMultiValueTests("formParameters", in: request, at: jsonPath) {
            matchers.append(
                multi(RequestMatcher.Part(name: "form \(name)"), test, readsBody: true) { request in
                    // A byte that is not UTF-8 reads as U+FFFD, as in `BodyMatcher.form`, and keeps
                    // the other fields matchable (a recorded form with such a byte has its secrets redacted).
                    FormURLEncoding.decode(request.body.map { String(decoding: $0, as: UTF8.self) } ?? "")
                        .filter { $0.name == name }.map(\.value)
                }
            )
        }
        for (name, test) in namedValueTests("cookies", in: request, at: jsonPath) {
            // WireMock matches a missing cookie only with `absent`, even for negative operators.
            let cookieTest =
                test.description == Self.absentTest.description
                ? test
                : ValueTest(test.description) { value in
                    value == nil
                        ? MatchVerdict(isMatch: false, detail: "expected \(test.description), but the cookie is absent")
                        : test.test(value)
                }
            matchers.append(
                single(RequestMatcher.Part(name: "cookie \(name)"), cookieTest) { request in
                    Self.cookies(of: request).first { $0.name == name }?.value
                }
            )
        }
        if let credentials = basicAuth(request, at: jsonPath) {
            matchers.append(.header("Authorization", .equal(credentials)))
        }
        if let patterns = request["bodyPatterns"] {
            matchers += bodyMatchers(patterns, at: jsonPath.appending(.key("bodyPatterns")))
        }
        if let multipart = request["multipartPatterns"] {
            matchers += multipartMatchers(multipart, at: jsonPath.appending(.key("multipartPatterns")))
        }
        if let custom = request["customMatcher"] {
            // As in WireMock without the extension: the stub loads, and never matches.
            let name = custom.objectValue?["name"]?.stringValue.map { " \(quoted($0))" } ?? ""
            errorOnUse(
                "'customMatcher'\(name) refers to a Java extension, which swift-http-stubs cannot run: "
                    + "the stub loads and never matches, as in WireMock without the extension; "
                    + "replace it with built-in matchers or write the stub in Swift with .matching(_:_:)",
                at: jsonPath.appending(.key("customMatcher"))
            )
            matchers.append(
                RequestMatcher(
                    part: RequestMatcher.Part(name: "customMatcher"),
                    description: "customMatcher\(name) (a Java extension)",
                    evaluate: { _ in
                        MatchVerdict(isMatch: false, detail: "a Java extension, which swift-http-stubs cannot run")
                    },
                    problems: [],
                    runsUserCode: false
                )
            )
        }
        return hasErrors(since: start) ? nil : RequestPattern(matchers)
    }

    private func urlMatchers(_ request: JSONObject, at jsonPath: JSONPath) -> [RequestMatcher] {
        let present = Self.urlKeys.filter { request[$0] != nil }
        guard let key = present.first else { return [] }
        for ignored in present.dropFirst() {
            warning(
                key: jsonPath.appending(.key(ignored)),
                "'\(ignored)' is ignored because '\(key)' is also given (WireMock uses "
                    + "the first of \(Self.urlKeys.joined(separator: ", "))); keep only one"
            )
        }
        let keyPath = jsonPath.appending(.key(key))
        guard let text = string(key, in: request, at: jsonPath) else { return [] }
        switch key {
        case "url":
            return [.pathAndQuery(.equal(text))]
        case "urlPattern":
            return regex(text, at: keyPath).map { [.pathAndQuery(.matches($0))] } ?? []
        case "urlPath":
            return [.path(.equal(text))]
        case "urlPathPattern":
            return regex(text, at: keyPath).map { [.path(.matches($0))] } ?? []
        default:  // urlPathTemplate
            let template = URITemplate(text)
            if let problem = template.problem {
                error(problem, at: keyPath)
                return []
            }
            var matchers = [RequestMatcher.pathTemplate(text)]
            for (name, test) in namedValueTests("pathParameters", in: request, at: jsonPath) {
                if !template.variables.contains(name) {
                    error(
                        "the path parameter '\(name)' is not a variable of the template "
                            + "\(quoted(text)) (its variables: \(template.variables.joined(separator: ", ")))",
                        at: jsonPath.appending(.key("pathParameters")).appending(.key(name))
                    )
                }
                matchers.append(
                    single(RequestMatcher.Part(name: "path parameter \(name)"), test) { template.match($0.path)?[name] }
                )
            }
            return matchers
        }
    }

    private func namedValueTests(_ key: String, in request: JSONObject, at jsonPath: JSONPath) -> [(String, ValueTest)]
    {
        guard let value = request[key] else { return [] }
        let keyPath = jsonPath.appending(.key(key))
        guard let map = object(value, at: keyPath, "'\(key)'") else { return [] }
        return map.members.compactMap { member in
            valueTest(member.value, at: keyPath.appending(.key(member.key))).map { (member.key, $0) }
        }
    }

    private func namedMultiValueTests(
        _ key: String,
        in request: JSONObject,
        at jsonPath: JSONPath
    ) -> [(String, MultiValueTest)] {
        guard let value = request[key] else { return [] }
        let keyPath = jsonPath.appending(.key(key))
        guard let map = object(value, at: keyPath, "'\(key)'") else { return [] }
        return map.members.compactMap { member in
            multiValueTest(member.value, at: keyPath.appending(.key(member.key))).map { (member.key, $0) }
        }
    }

    /// `basicAuth` (the Java creator's name) or `basicAuthCredentials` (the schema's): the
    /// `Authorization` header value they stand for.
    private func basicAuth(_ request: JSONObject, at jsonPath: JSONPath) -> String? {
        guard let key = ["basicAuthCredentials", "basicAuth"].first(where: { request[$0] != nil }) else { return nil }
        let keyPath = jsonPath.appending(.key(key))
        guard let credentials = object(request[key]!, at: keyPath, "'\(key)'") else { return nil }
        guard let username = string("username", in: credentials, at: keyPath),
            let password = string("password", in: credentials, at: keyPath)
        else {
            error("'\(key)' needs a \"username\" and a \"password\"", at: keyPath)
            return nil
        }
        return "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    private func bodyMatchers(_ value: JSONValue, at jsonPath: JSONPath) -> [RequestMatcher] {
        guard let patterns = value.arrayValue else {
            error("'bodyPatterns' must be an array of matchers, found \(value.article)", at: jsonPath)
            return []
        }
        return patterns.enumerated().compactMap { index, pattern in
            valueTest(pattern, at: jsonPath.appending(.index(index))).map { test in
                RequestMatcher(
                    part: .body,
                    description: "body \(test.description)",
                    evaluate: { test.testBody(of: $0) },
                    problems: [],
                    readsBody: true
                )
            }
        }
    }

    /// `multipartPatterns`: each pattern must be matched by any (`ANY`, the default) or every
    /// (`ALL`) part of a `multipart/*` body.
    private func multipartMatchers(_ value: JSONValue, at jsonPath: JSONPath) -> [RequestMatcher] {
        guard let patterns = value.arrayValue else {
            error("'multipartPatterns' must be an array, found \(value.article)", at: jsonPath)
            return []
        }
        return patterns.enumerated().compactMap { index, pattern -> RequestMatcher? in
            let patternPath = jsonPath.appending(.index(index))
            guard let object = object(pattern, at: patternPath, "a multipart pattern") else { return nil }
            warnAboutUnknownKeys(
                in: object,
                at: patternPath,
                known: ["matchingType", "headers", "bodyPatterns", "name", "fileName"],
                what: "a multipart pattern"
            )
            let all = (string("matchingType", in: object, at: patternPath) ?? "ANY").uppercased() == "ALL"
            let headers = namedMultiValueTests("headers", in: object, at: patternPath)
            let bodies: [ValueTest] = (object["bodyPatterns"]?.arrayValue ?? []).enumerated().compactMap {
                bodyIndex,
                body in
                valueTest(body, at: patternPath.appending(.key("bodyPatterns")).appending(.index(bodyIndex)))
            }
            let description =
                "multipart (\(all ? "every" : "some") part: "
                + (headers.map { "header \($0.0) \($0.1.description)" } + bodies.map { "body \($0.description)" })
                .joined(separator: ", ") + ")"
            return RequestMatcher(
                part: RequestMatcher.Part(name: "multipart"),
                description: description,
                evaluate: { request in
                    let parts = MultipartBody.parts(of: request)
                    let passes: (MultipartBody.Part) -> Bool = { part in
                        headers.allSatisfy { $0.1.test(part.headers.values(for: $0.0)).isMatch }
                            && bodies.allSatisfy { $0.testBody(part.body).isMatch }
                    }
                    let isMatch = !parts.isEmpty && (all ? parts.allSatisfy(passes) : parts.contains(where: passes))
                    return isMatch
                        ? MatchVerdict(isMatch: true, detail: "\(parts.count) parts")
                        : MatchVerdict(
                            isMatch: false,
                            detail: parts.isEmpty ? "expected a multipart body" : "no part satisfies \(description)"
                        )
                },
                problems: [],
                readsBody: true
            )
        }
    }

    private func single(
        _ part: RequestMatcher.Part,
        _ test: ValueTest,
        _ extract: @escaping @Sendable (InterceptedRequest) -> String?
    ) -> RequestMatcher {
        RequestMatcher(
            part: part,
            description: "\(part) \(test.description)",
            evaluate: { test.test(extract($0)) },
            problems: []
        )
    }

    private func multi(
        _ part: RequestMatcher.Part,
        _ test: MultiValueTest,
        readsBody: Bool = false,
        _ extract: @escaping @Sendable (InterceptedRequest) -> [String]
    ) -> RequestMatcher {
        var matcher = RequestMatcher(
            part: part,
            description: "\(part) \(test.description)",
            evaluate: { test.test(extract($0)) },
            problems: [],
            readsBody: readsBody
        )
        matcher.subject = part.name
        return matcher
    }

    /// The cookies a request carries in its `Cookie` headers.
    static func cookies(of request: InterceptedRequest) -> [(name: String, value: String)] {
        request.headers.values(for: "Cookie").flatMap { header in
            header.split(separator: ";").compactMap { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
                return (name, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }
        }
    }
}
