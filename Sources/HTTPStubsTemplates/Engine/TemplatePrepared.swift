import HTTPStubs
import HTTPStubsLanguages

/// What a helper made of a tag's constant arguments when the template was parsed, so that
/// rendering does not redo it for every request. See ``TemplateHelper/prepare``.
///
/// It is derived from the expression it belongs to, so it takes no part in comparing or hashing
/// expressions: two tags written alike are equal whether or not they were prepared.
enum TemplatePrepared: Sendable, Hashable {
    /// `jsonPath`'s literal JSONPath, compiled.
    case jsonPath(JSONPathExpression)

    static func == (lhs: TemplatePrepared, rhs: TemplatePrepared) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
