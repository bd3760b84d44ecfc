/// Which stubs of a load render their responses as templates (WireMock's Handlebars response
/// templating):
///
/// - ``perStub`` (the default): only the stubs that ask for it with
///   `"transformers": ["response-template"]`, as WireMock started with `--local-response-templating`
///   (WireMock 3's default).
/// - ``global``: every stub, as WireMock started with `--global-response-templating` (2.x's default
///   when started without either flag is neither: templates off unless a stub asks).
///
/// ```swift
/// try stubs.load("Fixtures/Orders", relativeTo: #filePath, templating: .global)
/// ```
public struct StubTemplating: Sendable, Hashable, CustomStringConvertible {
    /// Whether every stub is templated.
    let isGlobal: Bool

    /// Only the stubs whose response has `"transformers": ["response-template"]`.
    public static let perStub = StubTemplating(isGlobal: false)
    /// Every stub of the load, as WireMock's `--global-response-templating`.
    public static let global = StubTemplating(isGlobal: true)

    public var description: String { isGlobal ? "global" : "perStub" }
}
