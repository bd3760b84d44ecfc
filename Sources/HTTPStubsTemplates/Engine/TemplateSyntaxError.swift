import HTTPStubs

/// A template that cannot be loaded: it does not parse, or it calls a helper the toolkit does not
/// implement. The message says what is wrong and how to fix it; `description` is
/// `line:column: message`, ready to be prefixed with a file name and a JSON path.
package struct TemplateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem starts (for an unclosed tag or block: where it was opened).
    package let location: TemplateSourceLocation
    /// What is wrong and how to fix it.
    package let message: String

    /// `line:column: message`.
    package var description: String { "\(location): \(message)" }
}
