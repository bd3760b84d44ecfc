import HTTPStubs

/// How a tag opens.
enum TemplateTagKind: Sendable, Hashable {
    /// `{{name}}`: printed HTML-escaped.
    case variable
    /// `{{{name}}}`: printed as is.
    case triple
    /// `{{&name}}`: printed as is.
    case ampersand
    /// `{{#name}}`: opens a block.
    case block
    /// `{{^name}}`: opens an inverted section, or `{{^}}` (else).
    case inverted
    /// `{{/name}}`: closes a block.
    case close
}
