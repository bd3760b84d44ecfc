import HTTPStubs

/// A top-level token of a template: text, a comment, or a whole tag with its inner tokens.
struct TemplateToken: Sendable {
    /// What the token is.
    enum Kind: Sendable {
        /// Literal text (whitespace control may trim it).
        case text(String)
        /// `\{{…}}`: the tag printed literally without the backslash (never trimmed).
        case escapedTag(String)
        /// `{{! … }}` or `{{!-- … --}}`, with its full text.
        case comment(String)
        /// A tag: how it opens and the tokens between its delimiters.
        case tag(TemplateTagKind, [TemplateTagLexeme])
    }

    /// What the token is.
    var kind: Kind
    /// The offset of its first scalar in the source.
    let offset: Int
    /// The offset just after it.
    let end: Int
    /// The tag opens with `{{~`: trailing whitespace of the text before it is removed.
    let trimsBefore: Bool
    /// The tag closes with `~}}`: leading whitespace of the text after it is removed.
    let trimsAfter: Bool
}
