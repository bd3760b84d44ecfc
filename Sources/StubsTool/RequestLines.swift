import Foundation
import HTTPStubs
import HTTPStubsFiles

/// One line of the JSON Lines requests of `stubs match --requests`.
enum RequestLines {
    struct Problem: Error {
        let message: String
    }

    /// The most bytes a request line may hold: 16 MiB. Input is read one line at a time, so this
    /// bounds the memory `--requests` needs however long the input is.
    static let maximumLineLength = 16 << 20

    /// The request written on line `number` of `file`; `nil` for a blank line; or the problem as
    /// `file:line: error: …`.
    static func request(in bytes: [UInt8], number: Int, file: String) -> Result<InterceptedRequest?, Problem> {
        func problem(_ message: String) -> Result<InterceptedRequest?, Problem> {
            .failure(Problem(message: "\(file):\(number): error: \(message)"))
        }
        guard let line = validUTF8(bytes) else {
            return problem(
                "the line is not valid UTF-8; a requests file is UTF-8 text (give a binary body as \"bodyBase64\")"
            )
        }
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .success(nil) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: String(text))
        } catch {
            return problem("invalid JSON at column \(error.column): \(error.message)")
        }
        guard let object = value.objectValue else {
            return problem(
                "each line must be a JSON object such as {\"method\": \"GET\", \"url\": \"https://host/path\"}"
            )
        }
        guard let urlText = object["url"]?.stringValue, let url = URL(string: urlText), url.scheme != nil,
            url.host != nil
        else {
            return problem("\"url\" must be an absolute URL string such as \"https://api.example.com/users\"")
        }
        if let method = object["method"] {
            guard let name = method.stringValue else { return problem("\"method\" must be a string such as \"GET\"") }
            guard InterceptedRequest.Method(rawValue: name).isToken else {
                return problem(
                    "\"method\" \(quoted(name)) is not an HTTP method: "
                        + "one word of letters, digits and !#$%&'*+-.^_`|~, such as \"GET\""
                )
            }
        }
        var headers = HeaderFields()
        if let declared = object["headers"] {
            guard let map = declared.objectValue else {
                return problem("\"headers\" must be an object of names to string values")
            }
            for member in map.members {
                let values = member.value.arrayValue ?? [member.value]
                for value in values {
                    guard let text = value.stringValue else {
                        return problem("the header \(member.key) must have a string value")
                    }
                    headers.add(member.key, text)
                }
            }
        }
        var body: Data?
        if let text = object["body"] {
            guard let string = text.stringValue else {
                return problem("\"body\" must be a string (use \"bodyBase64\" for binary)")
            }
            body = Data(string.utf8)
        }
        if let encoded = object["bodyBase64"] {
            guard let string = encoded.stringValue, let data = Data(base64Encoded: string) else {
                return problem("\"bodyBase64\" must be base64 text")
            }
            body = data
        }
        let method = InterceptedRequest.Method(rawValue: object["method"]?.stringValue ?? "GET")
        return .success(InterceptedRequest(method: method, url: url, headers: headers, body: body))
    }

    /// `bytes` as a string when they are valid UTF-8. `String(validating:as:)` needs macOS 15,
    /// iOS 18, tvOS 18, watchOS 11, visionOS 2; before those, a decoding that repaired nothing is
    /// the same test (repairing changes the bytes).
    private static func validUTF8(_ bytes: [UInt8]) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }
}
