import HTTPStubs

/// Which stubs of a load render their responses as templates (WireMock's Handlebars response
/// templating), and whether `{{ }}` tags HTML-escape what they print:
///
/// - ``perStub`` (the default): only the stubs that ask for it with
///   `"transformers": ["response-template"]`, as WireMock started with `--local-response-templating`
///   (WireMock 3's default).
/// - ``global``: every stub, as WireMock started with `--global-response-templating` (2.x's default
///   when started without either flag is neither: templates off unless a stub asks).
/// - ``withoutEscaping``, after either: `{{ }}` prints values as they are, as `{{{ }}}` does.
///
/// ```swift
/// try stubs.load("Fixtures/Orders", relativeTo: #filePath, templating: .global)
/// ```
public struct StubTemplating: Sendable, Hashable, CustomStringConvertible {
    /// Whether every stub is templated.
    let isGlobal: Bool
    /// Whether `{{ }}` tags HTML-escape what they print (``withoutEscaping`` turns it off).
    let escapesHTML: Bool

    private init(isGlobal: Bool, escapesHTML: Bool = true) {
        self.isGlobal = isGlobal
        self.escapesHTML = escapesHTML
    }

    /// Only the stubs whose response has `"transformers": ["response-template"]`.
    public static let perStub = StubTemplating(isGlobal: false)
    /// Every stub of the load, as WireMock's `--global-response-templating`.
    public static let global = StubTemplating(isGlobal: true)

    /// The same stubs templated, with `{{ }}` printing values as they are instead of HTML-escaped
    /// (`&` stays `&` rather than `&amp;`, `'` rather than `&#x27;`, `=` rather than `&#x3D;`).
    ///
    /// By default `{{ }}` escapes as WireMock 2.x does. WireMock 3 turned that off by default
    /// (`WireMockConfiguration.withTemplateEscapingDisabled(true)`, the only behaviour of its
    /// standalone server), so stub files written for WireMock 3 answer the same bytes here with
    /// `.perStub.withoutEscaping` or `.global.withoutEscaping`. `{{{ }}}` never escapes either way.
    ///
    /// ```swift
    /// try stubs.load("Fixtures/WireMock3", relativeTo: #filePath, templating: .perStub.withoutEscaping)
    /// ```
    public var withoutEscaping: StubTemplating { StubTemplating(isGlobal: isGlobal, escapesHTML: false) }

    public var description: String {
        (isGlobal ? "global" : "perStub") + (escapesHTML ? "" : ".withoutEscaping")
    }
}
