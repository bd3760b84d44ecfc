import Foundation

/// The parts of a `multipart/*` request body: what WireMock's `multipartPatterns` match and what
/// response templates read as `request.parts`.
enum MultipartBody {
    struct Part {
        let headers: HeaderFields
        let body: Data
    }

    /// The parts, or none when the request is not multipart or its body cannot be split.
    static func parts(of request: InterceptedRequest) -> [Part] {
        guard let contentType = request.header("Content-Type"), contentType.lowercased().hasPrefix("multipart/"),
            let boundary = boundary(in: contentType), let body = request.body
        else { return [] }
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var searchStart = body.startIndex
        guard var current = body.range(of: delimiter, in: searchStart..<body.endIndex) else { return [] }
        while true {
            searchStart = current.upperBound
            guard let next = body.range(of: delimiter, in: searchStart..<body.endIndex) else { break }
            var chunk = body[searchStart..<next.lowerBound]
            if chunk.starts(with: Data("\r\n".utf8)) { chunk = chunk.dropFirst(2) }
            if chunk.suffix(2) == Data("\r\n".utf8) { chunk = chunk.dropLast(2) }
            parts.append(part(from: Data(chunk)))
            current = next
        }
        return parts
    }

    private static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"")
                )
            }
        }
        return nil
    }

    private static func part(from chunk: Data) -> Part {
        guard let split = chunk.range(of: Data("\r\n\r\n".utf8)) else { return Part(headers: [:], body: chunk) }
        var headers = HeaderFields()
        for line in String(decoding: chunk[chunk.startIndex..<split.lowerBound], as: UTF8.self).components(
            separatedBy: "\r\n"
        ) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        return Part(headers: headers, body: Data(chunk[split.upperBound...]))
    }
}
