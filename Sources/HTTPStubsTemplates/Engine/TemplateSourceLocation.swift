import HTTPStubs

/// Where something is in a template's source: the 1-based line and the 1-based column counted in
/// Unicode scalars (a tab is one column). `\n`, `\r\n` and a lone `\r` each end a line.
package struct TemplateSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line.
    package let line: Int
    /// The 1-based column, counted in Unicode scalars.
    package let column: Int

    /// `line:column`, as compilers print it.
    package var description: String { "\(line):\(column)" }
}
