import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Inputs the random garbage test found: a path ending in `../` or `./` at the very end of the text.
@Suite("Templating: lexer edge cases")
struct TemplateLexerEdgeTests {
    @Test func pathEndingAtTheEndOfTheText() {
        for text in ["{{../", "{{./", "{{a ../", "{{#if ./"] {
            _ = try? TemplateParser.parse(text)
            _ = try? TemplateParser.parse(text, literalOuterText: true)
        }
    }
}
