import HTTPStubs
import HTTPStubsLanguages
import HTTPStubsTemplates

extension StubResponse {
    /// A body rendered for each request from a WireMock-style Handlebars template, with the
    /// same engine, helpers and request model as stub files with
    /// `"transformers": ["response-template"]`; header values may be templates too.
    /// `Content-Type: text/plain; charset=utf-8` unless the headers name one.
    ///
    /// ```swift
    /// .template(#"{"id": "{{request.path.[1]}}", "name": "{{jsonPath request.body '$.name'}}"}"#,
    ///           headers: ["Content-Type": "application/json"])
    /// ```
    ///
    /// The template is parsed here: one that does not parse, or calls a helper that does not
    /// exist, makes a response that fails with `URLError(.cannotParseResponse)` and is reported,
    /// with the line that wrote it, when the stub is added. A template that fails for a request
    /// answers 500 naming the error, as WireMock does, and is reported to the issue handler. For
    /// logic a template cannot express, use `.computed { request in … }`.
    ///
    /// `{{ }}` HTML-escapes what it prints, as WireMock 2.x does; write `{{{ }}}` where a value must
    /// print as it is (WireMock 3's default for `{{ }}`, which stub files get with
    /// ``StubTemplating/withoutEscaping``).
    public static func template(
        _ text: String,
        status: Int = 200,
        headers: HeaderFields = [:],
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> StubResponse {
        let origin = "\(fileID):\(line):\(column)"
        do throws(TemplateSyntaxError) {
            let headers = headers.defaulting("Content-Type", "text/plain; charset=utf-8")
            var parts: [(name: String, value: TemplatedResponse.Part)] = []
            for field in headers.fields {
                parts.append((field.name, try .parsing(field.value, origin: "\(origin) (header \(field.name))")))
            }
            let body = try TemplatedResponse.Part.parsing(text, origin: origin)
            let response = TemplatedResponse(status: status, headers: parts, body: .text(body))
            return StubResponse(.rendered(response, modifiers: []))
        } catch {
            let problem =
                "the template at \(origin) cannot be used (its line:column \(error.location)): \(error.message)"
            return StubResponse(.failure(StubError.brokenStub(problem).urlError(for: nil)), problems: [problem])
        }
    }
}
