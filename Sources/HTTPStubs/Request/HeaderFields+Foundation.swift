import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one place header fields are converted from Foundation's dictionaries.
extension HeaderFields {
    /// The header fields of a response (`allHeaderFields`), sorted by name so the order is stable;
    /// none without a response.
    package init(of response: HTTPURLResponse?) {
        var headers = HeaderFields()
        for (name, value) in (response?.allHeaderFields ?? [:]).sorted(by: { "\($0.key)" < "\($1.key)" }) {
            headers.add("\(name)", "\(value)")
        }
        self = headers
    }

    /// The fields in order, each value replaced by `transform(name, value)`.
    package func mappingValues(_ transform: (_ name: String, _ value: String) -> String) -> HeaderFields {
        HeaderFields(fields.map { Field(name: $0.name, value: transform($0.name, $0.value)) })
    }
}
