/// One piece of a parsed template.
enum TemplateNode: Sendable, Hashable {
    /// Literal text, after whitespace control (`~`) has trimmed it.
    case text(String)
    /// `{{expression}}` (`escaped`: HTML-escaped), `{{{expression}}}` or `{{& expression}}`.
    case mustache(TemplateExpression, escaped: Bool)
    /// A block or inverted section.
    case block(TemplateBlock)
    /// `{{! … }}` or `{{!-- … --}}`: renders nothing.
    case comment(TemplateSourceLocation)
}
