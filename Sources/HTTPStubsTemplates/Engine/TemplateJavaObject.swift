import Foundation
import HTTPStubs

/// A Java object of WireMock's request model that is neither a plain string, list nor map, so that
/// it prints, indexes and compares as WireMock's does: `request.path` (a `UrlPath`: a list of
/// decoded segments that prints as the decoded path), `request.query.x` and `request.headers.x`
/// (a `ListOrSingle`: a list that prints as its first value), `request.method` (an enum that prints
/// as its name). `eq` compares such a value with a string as Java's `equals` does: never equal.
package struct TemplateJavaObject: Sendable, Hashable {
    /// What `toString()` gives: what a tag prints.
    let printed: String
    /// The elements when the object is a Java `List` (iterated by `#each`, indexed by `.[n]`,
    /// counted by `size`); `nil` when it is not a list.
    let items: [TemplateValue]?
    /// Properties a path can read (`request.path.contactId`); keys are lower-cased when
    /// ``caseInsensitive``.
    let properties: TemplateObject
    /// Whether property names are matched ignoring case (WireMock's headers map).
    let caseInsensitive: Bool

    /// An object printing `printed`, a list of `items` when given, with `properties`.
    init(
        printed: String,
        items: [TemplateValue]? = nil,
        properties: TemplateObject = TemplateObject(),
        caseInsensitive: Bool = false
    ) {
        self.printed = printed
        self.items = items
        self.properties = properties
        self.caseInsensitive = caseInsensitive
    }

    /// The property `name`, honouring ``caseInsensitive``.
    func property(_ name: String) -> TemplateValue? {
        if let exact = properties[name] { return exact }
        guard caseInsensitive else { return nil }
        return properties.entries.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
