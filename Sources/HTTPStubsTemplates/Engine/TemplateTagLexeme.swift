import HTTPStubs

/// A token inside a tag (between `{{` and `}}`), as handlebars.java's lexer splits it in its `VAR`
/// mode: the longest match wins, and on a tie the keyword wins over a name (`true`, `false`,
/// `else` and `as` are never names).
struct TemplateTagLexeme: Sendable, Hashable {
    /// What kind of token.
    enum Kind: Sendable, Hashable {
        /// A name or path (handlebars.java's `QID`).
        case name
        /// `"…"` (the text keeps its quotes).
        case doubleQuoted
        /// `'…'` (the text keeps its quotes).
        case singleQuoted
        /// `-1`, `2.5`, `.5`.
        case number
        /// `true` or `false`.
        case boolean
        /// `else`.
        case elseKeyword
        /// `as` (block parameters, not supported).
        case asKeyword
        /// `|` (block parameters, not supported).
        case pipe
        /// `*` (decorators, not supported).
        case star
        /// `=` between a hash key and its value.
        case equals
        /// `(`.
        case openParen
        /// `)`.
        case closeParen
        /// Characters that only a partial's file name may hold (`/x`, `1a`, `a'b`).
        case partialPath
    }

    /// What kind of token.
    let kind: Kind
    /// The token as written.
    let text: String
    /// The offset of its first scalar in the source.
    let offset: Int
}
