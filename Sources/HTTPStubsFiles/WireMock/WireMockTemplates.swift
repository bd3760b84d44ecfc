import Foundation
import HTTPStubs
import HTTPStubsLanguages
import HTTPStubsTemplates

/// Reads a WireMock response whose parts are response templates (`"transformers":
/// ["response-template"]`, or every response under global templating): the templates are parsed
/// here, when the stub loads, and rendered for each request.
extension WireMockMappingReader {
    /// WireMock's name for its Handlebars transformer.
    static let templateTransformer = "response-template"

    /// Whether the response `object` renders as a template; warns about transformers other than
    /// WireMock's own, which are ignored.
    func isTemplated(_ object: JSONObject, at jsonPath: JSONPath) -> Bool {
        var asked = false
        if let value = object["transformers"] {
            let path = jsonPath.appending(.key("transformers"))
            guard let names = value.arrayValue else {
                error("'transformers' must be an array of names, found \(value.article)", at: path)
                return false
            }
            for (index, name) in names.enumerated() {
                if name.stringValue == Self.templateTransformer {
                    asked = true
                } else {
                    warning(
                        "the transformer \(name.stringValue.map(quoted) ?? name.article) is not supported and is "
                            + "ignored; only \(quoted(Self.templateTransformer)) (response templates) is",
                        at: path.appending(.index(index))
                    )
                }
            }
        }
        return asked || templating.isGlobal
    }

    /// The response `object` with its status, headers and body as templates.
    func templatedAnswer(
        _ object: JSONObject,
        at jsonPath: JSONPath,
        filesRoot: URL,
        pathTemplate: URITemplate?
    ) -> StubResponse? {
        let start = mark
        if let status = object["status"]?.stringValue, ResponseTemplate.isTemplate(status) {
            error(
                "'status' cannot be a template: WireMock refuses a status that is not a number, "
                    + "so the stub would not load there either; write the number, or compute the response in "
                    + "code with .computed { request in … }",
                at: jsonPath.appending(.key("status"))
            )
            return nil
        }
        let status = integer("status", in: object, at: jsonPath, in: 0...999) ?? 0
        var parameters = TemplateObject()
        var templatedFiles = true
        if let value = object["transformerParameters"] {
            let path = jsonPath.appending(.key("transformerParameters"))
            if let settings = self.object(value, at: path, "'transformerParameters'") {
                parameters = TemplateObject(settings.members.map { ($0.key, TemplateValue(json: $0.value)) })
                templatedFiles = !flag("disableBodyFileTemplating", in: settings, at: path)
            }
        }
        var headers: [(name: String, value: TemplatedResponse.Part)] = []
        if let declared = object["headers"] {
            let headersPath = jsonPath.appending(.key("headers"))
            guard let map = self.object(declared, at: headersPath, "'headers'") else { return nil }
            for member in map.members {
                let valuePath = headersPath.appending(.key(member.key))
                let values: [(JSONValue, JSONPath)] =
                    member.value.arrayValue.map { $0.enumerated().map { ($1, valuePath.appending(.index($0))) } }
                    ?? [(member.value, valuePath)]
                for (value, path) in values {
                    guard let text = value.scalarText else {
                        error(
                            "a header value must be a string or an array of strings, found \(value.article)",
                            at: path
                        )
                        return nil
                    }
                    if let part = templatePart(text, at: path) { headers.append((member.key, part)) }
                }
            }
        }
        let body = templatedBody(object, at: jsonPath, filesRoot: filesRoot, templatedFiles: templatedFiles)
        guard let body, !hasErrors(since: start) else { return nil }
        let response = TemplatedResponse(
            status: status > 0 ? status : 200,
            reason: string("statusMessage", in: object, at: jsonPath),
            headers: headers,
            body: body,
            pathTemplate: pathTemplate,
            parameters: parameters
        )
        return StubResponse(.rendered(response, modifiers: []))
    }

    private func templatedBody(
        _ object: JSONObject,
        at jsonPath: JSONPath,
        filesRoot: URL,
        templatedFiles: Bool
    ) -> TemplatedResponse.Body? {
        let key = ["body", "jsonBody", "base64Body", "bodyFileName"].first { object[$0] != nil }
        let keyPath = jsonPath.appending(.key(key ?? "body"))
        switch key {
        case "body":
            guard let text = object["body"]?.stringValue else { return literalBody(object, at: jsonPath, filesRoot) }
            return templatePart(text, at: keyPath).map(TemplatedResponse.Body.text)
        case "jsonBody":
            return jsonBodyTemplate(object["jsonBody"]!, at: keyPath).map(TemplatedResponse.Body.text)
        case "bodyFileName":
            guard let name = object["bodyFileName"]?.stringValue else {
                return literalBody(object, at: jsonPath, filesRoot)
            }
            return bodyFileTemplate(name, at: keyPath, filesRoot: filesRoot, templatedContents: templatedFiles)
        default:  // base64Body (binary, never templated) or no body
            return literalBody(object, at: jsonPath, filesRoot)
        }
    }

    private func literalBody(_ object: JSONObject, at jsonPath: JSONPath, _ filesRoot: URL) -> TemplatedResponse.Body? {
        body(object, at: jsonPath, filesRoot: filesRoot).map(TemplatedResponse.Body.fixed)
    }

    /// `jsonBody` as WireMock templates it: its compact JSON text is the template, so tags work
    /// inside string values (and are HTML-escaped there as anywhere).
    private func jsonBodyTemplate(_ value: JSONValue, at jsonPath: JSONPath) -> TemplatedResponse.Part? {
        let text = value.serialized()
        do {
            return try .parsing(text, origin: origin(of: jsonPath), escapesHTML: templating.escapesHTML)
        } catch {
            // Point at the string whose template does not parse, when one does not on its own.
            if let (string, path) = strings(in: value, at: jsonPath).first(where: {
                ResponseTemplate.isTemplate($0.0) && (try? ResponseTemplate.parse($0.0)) == nil
            }) {
                _ = templatePart(string, at: path)
            } else {
                report(
                    error,
                    at: jsonPath,
                    inString: false,
                    what: "the JSON body's text (compact, as WireMock writes it)"
                )
            }
            return nil
        }
    }

    private func strings(in value: JSONValue, at jsonPath: JSONPath) -> [(String, JSONPath)] {
        switch value {
        case let .string(text): return [(text, jsonPath)]
        case let .array(items):
            return items.enumerated().flatMap { strings(in: $1, at: jsonPath.appending(.index($0))) }
        case let .object(object):
            return object.members.flatMap { strings(in: $0.value, at: jsonPath.appending(.key($0.key))) }
        default: return []
        }
    }

    private func bodyFileTemplate(
        _ name: String,
        at jsonPath: JSONPath,
        filesRoot: URL,
        templatedContents: Bool
    ) -> TemplatedResponse.Body? {
        if ResponseTemplate.isTemplate(name) {
            guard let part = templatePart(name, at: jsonPath) else { return nil }
            return .file(
                name: part,
                filesRoot: filesRoot,
                templatedContents: templatedContents,
                escapesHTML: templating.escapesHTML,
                origin: origin(of: jsonPath)
            )
        }
        guard let url = bodyFile(name, at: jsonPath, filesRoot: filesRoot) else { return nil }
        guard templatedContents, let data = try? RegularFile.read(url.path, followingLinks: false) else {
            return .fixed(.stubRootFile(url))
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            return .text(try .parsing(text, origin: url.path, escapesHTML: templating.escapesHTML))
        } catch {
            self.error(
                "the body file \(url.path) is a template that cannot be loaded, at its line "
                    + "\(error.location.line), column \(error.location.column) (\(url.path):\(error.location)): "
                    + "\(error.message); fix it, or set \"transformerParameters\": "
                    + "{\"disableBodyFileTemplating\": true} to serve it as written",
                at: jsonPath
            )
            return nil
        }
    }

    /// `text` (the string value at `jsonPath`) as a template part, or a located load error.
    func templatePart(_ text: String, at jsonPath: JSONPath) -> TemplatedResponse.Part? {
        do {
            return try .parsing(text, origin: origin(of: jsonPath), escapesHTML: templating.escapesHTML)
        } catch {
            report(error, at: jsonPath, inString: true, what: "the template")
            return nil
        }
    }

    private func report(_ error: TemplateSyntaxError, at jsonPath: JSONPath, inString: Bool, what: String) {
        let location =
            inString
            ? document.location(inString: jsonPath, line: error.location.line, column: error.location.column)
            : nil
        self.error(
            "\(what) cannot be loaded, at its line \(error.location.line), column \(error.location.column): "
                + "\(error.message)",
            at: jsonPath,
            location: location
        )
    }

    /// `path:line:column ($.json.path)`, naming a template in messages about its renders.
    private func origin(of jsonPath: JSONPath) -> String {
        let location = self.location(of: jsonPath).map { ":\($0.line):\($0.column)" } ?? ""
        return "\(path)\(location) (\(jsonPath))"
    }
}
