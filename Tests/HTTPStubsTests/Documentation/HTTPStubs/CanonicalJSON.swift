import Foundation

/// JSON text with its object members sorted, to compare bodies that `JSONEncoder` writes in an
/// unspecified member order; `nil` for text that is not JSON.
func canonicalJSON(_ text: String?) -> String? {
    guard let text,
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed),
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
}
