import Foundation

extension JSONValue {
    /// `text` read as WireMock reads a value for `matchesJsonSchema` (Jackson, with comments and
    /// single quotes allowed and anything after the first value ignored, except that a number,
    /// `true`, `false` or `null` must be followed by whitespace, as Jackson requires at the root:
    /// `10a` is not JSON); `nil` when it is not JSON.
    package static func jacksonValue(_ text: String) -> JSONValue? {
        let data = Data(text.utf8)
        var recorder: JSONLocationRecorder?
        guard let (value, unread) = try? JSONParser.parse(data, dialect: .wireMock, recorder: &recorder) else {
            return nil
        }
        switch value {
        case .number, .bool, .null:
            if let unread, unread > 0,
                ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(
                    data[data.startIndex + unread - 1]
                )
            {
                return nil
            }
        case .string, .array, .object:
            break
        }
        return value
    }
}
