import HTTPStubs

/// One piece of a parsed template. Indirect, so that a render stepping through the nodes copies
/// one reference per node rather than every part of its expression.
indirect enum TemplateNode: Sendable, Hashable {
    /// Literal text, after whitespace control (`~`) has trimmed it.
    case text(String)
    /// `{{expression}}` (`escaped`: HTML-escaped), `{{{expression}}}` or `{{& expression}}`.
    case mustache(TemplateExpression, escaped: Bool)
    /// A block or inverted section.
    case block(TemplateBlock)
    /// `{{! … }}` or `{{!-- … --}}`: renders nothing.
    case comment(TemplateSourceLocation)
}
