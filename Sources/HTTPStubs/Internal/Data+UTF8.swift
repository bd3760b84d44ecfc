import Foundation

extension Data {
    /// The UTF-8 bytes of `string`, copied from its contiguous storage at once: `Data(string.utf8)`
    /// goes through the generic sequence initializer, whose dynamic casts cost more than the copy
    /// for the short texts of a rendered template or a JSON document.
    package init(utf8Of string: String) {
        var string = string
        self = string.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }
}
