import Foundation

/// The parts of a `multipart/*` request body: what WireMock's `multipartPatterns` match and what
/// response templates read as `request.parts`.
package enum MultipartBody {
    package struct Part {
        package let headers: HeaderFields
        package let body: Data
    }

    /// The parts, or none when the request is not multipart or its body cannot be split. The body
    /// is split at its delimiters in one pass (see ``BytePattern``), however many parts it has.
    package static func parts(of request: InterceptedRequest) -> [Part] {
        guard let contentType = request.header("Content-Type"), contentType.lowercased().hasPrefix("multipart/"),
            let boundary = boundary(in: contentType), let body = request.body
        else { return [] }
        let delimiter = BytePattern("--\(boundary)".utf8)
        let headerEnd = BytePattern("\r\n\r\n".utf8)
        return body.withUnsafeBytes { bytes -> [Part] in
            var parts: [Part] = []
            guard var current = delimiter.firstRange(in: bytes) else { return [] }
            while let next = delimiter.firstRange(in: bytes, from: current.upperBound) {
                var chunk = current.upperBound..<next.lowerBound
                if chunk.count >= 2, bytes[chunk.lowerBound] == 0x0D, bytes[chunk.lowerBound + 1] == 0x0A {
                    chunk = (chunk.lowerBound + 2)..<chunk.upperBound
                }
                if chunk.count >= 2, bytes[chunk.upperBound - 2] == 0x0D, bytes[chunk.upperBound - 1] == 0x0A {
                    chunk = chunk.lowerBound..<(chunk.upperBound - 2)
                }
                parts.append(part(from: UnsafeRawBufferPointer(rebasing: bytes[chunk]), headerEnd: headerEnd))
                current = next
            }
            return parts
        }
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

    private static func part(from chunk: UnsafeRawBufferPointer, headerEnd: BytePattern) -> Part {
        guard let split = headerEnd.firstRange(in: chunk) else { return Part(headers: [:], body: Data(chunk)) }
        var headers = HeaderFields()
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: chunk[..<split.lowerBound]), as: UTF8.self)
        for line in head.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        return Part(headers: headers, body: Data(UnsafeRawBufferPointer(rebasing: chunk[split.upperBound...])))
    }
}
