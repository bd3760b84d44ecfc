/// A response worked out anew for each request it answers, without the user's code: the response
/// templates of the stub-file module (WireMock's `response-template`, and
/// `StubResponse.template(_:status:headers:fileID:line:column:)`). The core only asks it for the
/// response to one request; parsing and rendering are the template engine's.
package protocol RenderedResponse: Sendable {
    /// The status it answers with when rendering succeeds, for descriptions.
    var status: Int { get }

    /// The response for `request`, given the registry's clock and generator and the stub's path
    /// template in `environment`; and, when rendering failed, what to report (the response is then
    /// the 500 WireMock answers with).
    func render(
        _ request: InterceptedRequest,
        environment: TemplateEnvironment
    ) -> (content: StubResponse.Content, failure: (any Error & CustomStringConvertible)?)
}
