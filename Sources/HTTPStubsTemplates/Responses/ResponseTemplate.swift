import Foundation
import HTTPStubs

/// A response template (WireMock's Handlebars dialect) parsed once, rendered per request.
///
/// Only the span between the first `{{` and the last `}}` is Handlebars, as in WireMock's
/// `HandlebarsOptimizedTemplate`; the helpers are handlebars.java's built-ins and WireMock's own
/// (``WireMockHelpers/all``), with the request model of ``TemplateRequestModel``.
///
/// A class (immutable, so `Sendable`), so that a response copying its parts for each request
/// retains one reference rather than each part of the parsed template.
package final class ResponseTemplate: Sendable {
    /// The parsed template.
    let template: Template
    /// Whether the template may read `request.id`: its text mentions `id`, or it reads names it
    /// does not spell out (`each`, `lookup`). Otherwise the render skips drawing the UUID.
    let mayReadRequestID: Bool
    /// The template rendered by reading the request directly, when every tag has a shape that
    /// allows it (``TemplateShortcut``); `nil` otherwise.
    let shortcut: TemplateShortcut?

    private init(template: Template, mayReadRequestID: Bool, shortcut: TemplateShortcut?) {
        self.template = template
        self.mayReadRequestID = mayReadRequestID
        self.shortcut = shortcut
    }

    /// The helpers every response template may call.
    static let helpers: [String: TemplateHelper] = WireMockHelpers.all

    /// The renderer shared by all response templates (it holds no mutable state).
    private static let renderer = TemplateRenderer(helpers: helpers)

    /// Parses `text` as WireMock does (only the span between the first `{{` and the last `}}` is
    /// Handlebars) and checks that every helper it calls exists. Throws ``TemplateSyntaxError``
    /// located within `text` (line and column), for an unknown helper too. Without `escapesHTML`,
    /// `{{ }}` prints values unescaped (`StubTemplating.withoutEscaping`, HTTPStubsFiles).
    package static func parse(_ text: String, escapesHTML: Bool = true) throws(TemplateSyntaxError) -> ResponseTemplate
    {
        let template = try TemplateParser.parse(text, literalOuterText: true, escapesHTML: escapesHTML)
        for call in template.helperCalls where helpers[call.name] == nil {
            throw TemplateSyntaxError(
                location: call.location,
                message:
                    "helper '\(call.name)' is not implemented; the supported helpers are "
                    + helpers.keys.sorted().joined(separator: ", ")
            )
        }
        let prepared = template.prepared(with: helpers)
        return ResponseTemplate(
            template: prepared,
            mayReadRequestID: mayReadRequestID(text),
            shortcut: TemplateShortcut(prepared, limits: renderer.limits)
        )
    }

    /// Whether a tag of `text` (what lies between `{{` and `}}`) mentions `id`, `each` or `lookup`.
    private static func mayReadRequestID(_ text: String) -> Bool {
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else { return false }
            let tag = rest[open.upperBound..<close.lowerBound]
            if tag.contains("id") || tag.contains("each") || tag.contains("lookup") { return true }
            rest = rest[close.upperBound...]
        }
        return false
    }

    /// Whether `text` contains a template at all (a `{{` with a `}}` after it), so that literal
    /// bodies skip rendering.
    package static func isTemplate(_ text: String) -> Bool {
        guard let open = text.range(of: "{{") else { return false }
        return text.range(of: "}}", range: open.upperBound..<text.endIndex) != nil
    }

    /// The template rendered against `request`, with `parameters` as `parameters.*` (WireMock's
    /// `transformerParameters`) and the path template of `environment`. Throws
    /// ``TemplateRenderError`` when a helper fails or a limit is reached (WireMock answers 500 then).
    func render(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment,
        parameters: TemplateObject = TemplateObject()
    ) throws(TemplateRenderError) -> String {
        var budget: WorkBudget?
        return try render(
            request,
            environment: environment,
            pathTemplate: environment.pathTemplate,
            parameters: parameters,
            budget: &budget
        )
    }

    /// ``render(_:environment:parameters:)`` with `pathTemplate` as the stub's path template in
    /// place of the environment's (a response renders without copying its environment to set it).
    /// The helpers charge `budget`, made when a template of the response first needs it (see
    /// ``installing(_:_:)``).
    func render(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment,
        pathTemplate: URITemplate?,
        parameters: TemplateObject,
        budget: inout WorkBudget?
    ) throws(TemplateRenderError) -> String {
        if let bytes = shortcutBytes(request, environment: environment, pathTemplate: pathTemplate) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var environment = environment
        environment.pathTemplate = pathTemplate
        return try installing(&budget) { () throws(TemplateRenderError) in
            try renderInGeneral(request, environment: environment, parameters: parameters)
        }
    }

    /// ``render(_:environment:pathTemplate:parameters:budget:)`` as the UTF-8 bytes of a body.
    func renderData(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment,
        pathTemplate: URITemplate?,
        parameters: TemplateObject,
        budget: inout WorkBudget?
    ) throws(TemplateRenderError) -> Data {
        if let bytes = shortcutBytes(request, environment: environment, pathTemplate: pathTemplate) {
            return bytes.withUnsafeBufferPointer { Data(buffer: $0) }
        }
        var environment = environment
        environment.pathTemplate = pathTemplate
        let text = try installing(&budget) { () throws(TemplateRenderError) in
            try renderInGeneral(request, environment: environment, parameters: parameters)
        }
        return Data(utf8Of: text)
    }

    /// `body` run with `budget` as the ``WorkBudget/current`` budget, made first when it is `nil`:
    /// the templates of one response (its header values, body and body file name) share one budget,
    /// made only when one of them renders in general (a shortcut's work needs none).
    private func installing(
        _ budget: inout WorkBudget?,
        _ body: () throws(TemplateRenderError) -> String
    ) throws(TemplateRenderError) -> String {
        let installed = budget ?? WorkBudget()
        budget = installed
        return try installed.install { Result { () throws(TemplateRenderError) in try body() } }.get()
    }

    /// The shortcut's output for `request`, `nil` when there is no shortcut or it leaves the
    /// request to the general render.
    private func shortcutBytes(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment,
        pathTemplate: URITemplate?
    ) -> [UInt8]? {
        guard let shortcut, let bytes = shortcut.bytes(for: request, pathTemplate: pathTemplate) else { return nil }
        // The general render draws `request.id` first when the template may read it, and later
        // random helpers (in this render or the next) continue from there.
        if mayReadRequestID { _ = TemplateRequestModel.uuid(environment.random) }
        return bytes
    }

    /// ``render(_:environment:parameters:)`` without the shortcut: every tag through the request
    /// model and a render session. The shortcut must give the same bytes; tests compare the two.
    func renderInGeneral(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment,
        parameters: TemplateObject = TemplateObject()
    ) throws(TemplateRenderError) -> String {
        let context = TemplateRequestModel.context(
            for: request,
            environment: environment,
            parameters: parameters,
            includeID: mayReadRequestID
        )
        return try Self.renderer.render(template, context: context, environment: environment)
    }
}
