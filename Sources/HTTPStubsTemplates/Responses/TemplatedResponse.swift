import Foundation
import HTTPStubs

/// A response whose parts are response templates, parsed when the stub loads and rendered for
/// each request it answers: WireMock's `"transformers": ["response-template"]`, global templating,
/// and `StubResponse.template(_:status:headers:fileID:line:column:)` (HTTPStubsFiles).
package final class TemplatedResponse: RenderedResponse {
    /// A piece of the response: text served as written, or a template rendered per request.
    package enum Part: Sendable {
        case literal(String)
        case template(ResponseTemplate, origin: String)

        /// `text` parsed as a template when it has tags, else as written; without `escapesHTML`,
        /// its `{{ }}` tags print values unescaped.
        package static func parsing(
            _ text: String,
            origin: String,
            escapesHTML: Bool = true
        ) throws(TemplateSyntaxError) -> Part {
            guard ResponseTemplate.isTemplate(text) else { return .literal(text) }
            return .template(try ResponseTemplate.parse(text, escapesHTML: escapesHTML), origin: origin)
        }

        /// The part's text for `request`; `pathTemplate` is the stub's, `budget` the response's
        /// (made when a template first needs it).
        func rendered(
            _ request: InterceptedRequest,
            _ environment: TemplateEnvironment,
            _ pathTemplate: URITemplate?,
            _ parameters: TemplateObject,
            _ budget: inout WorkBudget?
        ) throws -> String {
            switch self {
            case let .literal(text):
                return text
            case let .template(template, origin):
                do {
                    return try template.render(
                        request,
                        environment: environment,
                        pathTemplate: pathTemplate,
                        parameters: parameters,
                        budget: &budget
                    )
                } catch {
                    throw TemplateRenderFailure(origin: origin, error: "\(error)")
                }
            }
        }

        /// The part as a body for `request`: its text's UTF-8, which a template writes directly.
        func renderedBody(
            _ request: InterceptedRequest,
            _ environment: TemplateEnvironment,
            _ pathTemplate: URITemplate?,
            _ parameters: TemplateObject,
            _ budget: inout WorkBudget?
        ) throws -> ResponseBody {
            switch self {
            case let .literal(text):
                return .text(text)
            case let .template(template, origin):
                do {
                    return .data(
                        try template.renderData(
                            request,
                            environment: environment,
                            pathTemplate: pathTemplate,
                            parameters: parameters,
                            budget: &budget
                        )
                    )
                } catch {
                    throw TemplateRenderFailure(origin: origin, error: "\(error)")
                }
            }
        }
    }

    /// Where the body comes from.
    package enum Body: Sendable {
        /// A body that is not templated (`base64Body`, an empty body, a body file served as is).
        case fixed(ResponseBody)
        /// A templated text body.
        case text(Part)
        /// A file of the stub root's `__files` folder whose name is a template; its contents are
        /// rendered too unless `templatedContents` is false, HTML-escaping `{{ }}` as `escapesHTML`
        /// says. Read per request, as WireMock reads it.
        case file(name: Part, filesRoot: URL, templatedContents: Bool, escapesHTML: Bool, origin: String)
    }

    package let status: Int
    let reason: String?
    let headers: [(name: String, value: Part)]
    let body: Body
    /// The stub's `urlPathTemplate`, for `request.path.<name>`.
    let pathTemplate: URITemplate?
    /// WireMock's `transformerParameters`, which templates read as `parameters.*`.
    let parameters: TemplateObject
    /// The header fields, built once, when no header is a template: every response then shares
    /// their storage, which the registry's `HTTPURLResponse` cache recognises without comparing
    /// their bytes.
    private let fixedHeaders: HeaderFields?

    /// A response of these parts. A text body without tags becomes a fixed body here, so that its
    /// bytes are made once rather than per request.
    package init(
        status: Int,
        reason: String? = nil,
        headers: [(name: String, value: Part)],
        body: Body,
        pathTemplate: URITemplate? = nil,
        parameters: TemplateObject = TemplateObject()
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        if case .text(.literal(let text)) = body {
            self.body = .fixed(.text(text))
        } else {
            self.body = body
        }
        self.pathTemplate = pathTemplate
        self.parameters = parameters
        var fixed: HeaderFields? = HeaderFields()
        for header in headers {
            guard case .literal(let value) = header.value else {
                fixed = nil
                break
            }
            fixed?.add(header.name, value)
        }
        fixedHeaders = fixed
    }

    /// The response for `request`: an HTTP response, or WireMock's 500 naming the template that
    /// failed (with the failure to report as a diagnostic). Its templates, header values, body and
    /// body file name alike, share one ``WorkBudget``, which a helper that would work or make too
    /// much fails on with a located error.
    package func render(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment
    ) -> (content: StubResponse.Content, failure: (any Error & CustomStringConvertible)?) {
        var budget: WorkBudget?
        do {
            let fields = try fixedHeaders ?? renderedHeaders(request, environment, &budget)
            let rendered: ResponseBody
            switch body {
            case let .fixed(body):
                rendered = body
            case let .text(part):
                rendered = try part.renderedBody(request, environment, pathTemplate, parameters, &budget)
            case let .file(name, filesRoot, templatedContents, escapesHTML, origin):
                rendered = try file(
                    name.rendered(request, environment, pathTemplate, parameters, &budget),
                    in: filesRoot,
                    templatedContents: templatedContents,
                    escapesHTML: escapesHTML,
                    origin: origin,
                    request,
                    environment,
                    &budget
                )
            }
            return (.http(status: status, reason: reason, headers: fields, body: rendered), nil)
        } catch let failure as TemplateRenderFailure {
            let body = "The response template failed: \(failure.description)\n"
            return (
                .http(
                    status: 500,
                    reason: nil,
                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: .text(body)
                ),
                failure
            )
        } catch {
            return (.failure(error), nil)
        }
    }

    /// The header fields for `request`, each template rendered, in the order they were written.
    private func renderedHeaders(
        _ request: InterceptedRequest,
        _ environment: TemplateEnvironment,
        _ budget: inout WorkBudget?
    ) throws -> HeaderFields {
        var fields = HeaderFields()
        for header in headers {
            fields.add(header.name, try header.value.rendered(request, environment, pathTemplate, parameters, &budget))
        }
        return fields
    }

    private func file(
        _ name: String,
        in filesRoot: URL,
        templatedContents: Bool,
        escapesHTML: Bool,
        origin: String,
        _ request: InterceptedRequest,
        _ environment: TemplateEnvironment,
        _ budget: inout WorkBudget?
    ) throws -> ResponseBody {
        guard case let .inside(file) = BodyFilePath(name, in: filesRoot) else {
            throw TemplateRenderFailure(
                origin: origin,
                error:
                    "the rendered file name \(quoted(name)) leads outside \(filesRoot.path); "
                    + "make the template give a path inside it"
            )
        }
        let resolved = file.path
        if let kind = RegularFile.kind(atPath: resolved) {
            throw TemplateRenderFailure(
                origin: origin,
                error:
                    "the rendered file name \(quoted(name)) leads to \(resolved), which is \(kind), "
                    + "not a regular file; \(RegularFile.advice(forKind: kind))"
            )
        }
        guard templatedContents else { return .stubRootFile(file) }
        let data: Data
        do {
            data = try RegularFile.read(resolved, followingLinks: false)
        } catch {
            throw TemplateRenderFailure(
                origin: origin,
                error: "the body file \(resolved) cannot be read (\(error.reason)); add it or fix the name"
            )
        }
        let text = String(decoding: data, as: UTF8.self)
        let part: Part
        do {
            part = try Part.parsing(text, origin: resolved, escapesHTML: escapesHTML)
        } catch {
            throw TemplateRenderFailure(origin: "\(resolved):\(error.location)", error: error.message)
        }
        return try part.renderedBody(request, environment, pathTemplate, parameters, &budget)
    }
}

/// A template that failed to render for a request: where it was written and what went wrong.
struct TemplateRenderFailure: Error, Sendable, CustomStringConvertible {
    /// The template's place: `path:line:column ($.response.body)` or `fileID:line:column`.
    let origin: String
    /// The renderer's error.
    let error: String

    var description: String { "\(origin): \(error)" }
}
