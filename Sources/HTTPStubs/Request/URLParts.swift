import Foundation

/// The parts of a URL that matchers read, split from its text by RFC 3986's generic syntax
/// (`scheme:[//authority]path[?query][#fragment]`), as `URLComponents` splits them but without
/// building one for every request.
///
/// A class: a request's parts are handed from one request to the next by ``RequestReadCache`` as
/// one reference, not four strings and an array to retain one by one.
final class URLParts: Sendable {
    let scheme: String
    let host: String
    /// The port as the URL text writes it, when a plain authority (see `colonOfPlainAuthority`) tells.
    private let writtenPort: WrittenPort
    let path: String
    let pathAndQuery: String
    let queryParameters: [(name: String, value: String)]

    /// Splits `url`.
    convenience init(_ url: URL) {
        self.init(url, text: url.absoluteString)
    }

    /// Splits `url`, whose `absoluteString` is `text` (read once by the caller).
    init(_ url: URL, text: String) {
        var text = text
        let plainHost: String?
        (scheme, plainHost, writtenPort, path, pathAndQuery, queryParameters) = text.withUTF8 { bytes in
            var start = 0
            var scheme = ""
            var host: String?
            var port = WrittenPort.askURL
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), Self.isScheme(bytes[..<colon]) {
                scheme = Self.scheme(bytes[..<colon])
                start = colon + 1
                // Compared byte by byte: the generic `starts(with:)` showed in the profile.
                if start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
                    let authority = start + 2
                    start =
                        bytes[authority...].firstIndex {
                            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                        } ?? bytes.endIndex
                    var needsLowercasing = false
                    if let colon = Self.colonOfPlainAuthority(
                        bytes[authority..<start],
                        needsLowercasing: &needsLowercasing
                    ) {
                        let hostEnd = colon ?? start
                        if hostEnd > authority {
                            let hostBytes = bytes[authority..<hostEnd]
                            host = needsLowercasing ? Self.lowercased(hostBytes) : Self.string(hostBytes)
                            port = colon.map { Self.port(bytes[($0 + 1)..<start]) } ?? .absent
                        }
                    }
                }
            }
            let fragment = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            let question = bytes[start..<fragment].firstIndex(of: UInt8(ascii: "?"))
            let pathEnd = question ?? fragment
            let path = pathEnd > start ? Self.string(bytes[start..<pathEnd]) : "/"
            guard let question else { return (scheme, host, port, path, path, []) }
            let query = Self.string(bytes[(question + 1)..<fragment])
            return (scheme, host, port, path, "\(path)?\(query)", FormURLEncoding.decode(query))
        }
        // `URL.host` decodes percent-escapes and unwraps IPv6 literals; only such hosts need it.
        host = plainHost ?? url.host?.lowercased() ?? ""
    }

    /// What the URL text says about the port.
    private enum WrittenPort: Sendable {
        /// No port: the authority has no colon, or nothing after it.
        case absent
        case number(Int)
        /// Only `URL.port` can tell.
        case askURL
    }

    /// The port the URL writes, if any.
    func port(of url: URL) -> Int? {
        switch writtenPort {
        case .absent: nil
        case let .number(port): port
        case .askURL: url.port
        }
    }

    private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// The scheme, lower-cased: `http` and `https`, as almost every request writes them, are the
    /// literals themselves, without building (and checking) a string from the bytes.
    private static func scheme(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let start = bytes.startIndex
        if bytes.count >= 4, bytes.count <= 5, bytes[start] == UInt8(ascii: "h"), bytes[start + 1] == UInt8(ascii: "t"),
            bytes[start + 2] == UInt8(ascii: "t"), bytes[start + 3] == UInt8(ascii: "p")
        {
            if bytes.count == 4 { return "http" }
            if bytes[start + 4] == UInt8(ascii: "s") { return "https" }
        }
        return lowercased(bytes)
    }

    /// The bytes as a string, lower-cased: ASCII letters by hand, anything else by `lowercased()`.
    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 && !Self.isUpperCaseLetter($0) }) {
            return string(bytes)
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(
                decoding: bytes.map { Self.isUpperCaseLetter($0) ? $0 | 0x20 : $0 },
                as: UTF8.self
            )
        }
        return string(bytes).lowercased()
    }

    /// Where the first colon of an authority made of a registered name or IPv4 address and maybe a
    /// port is (`.some(nil)` without one); `nil` for any other authority (user information, an IPv6
    /// literal or a percent-escape). An empty host (`http://:80`) is the caller's to refuse.
    /// `needsLowercasing` is set when the authority has an upper-case ASCII letter or a non-ASCII
    /// byte, so that most hosts become strings without a second look at their bytes. One pass, by
    /// hand: the generic `contains(where:)`, `firstIndex(of:)` and `allSatisfy` it replaces took four.
    private static func colonOfPlainAuthority(
        _ authority: Slice<UnsafeBufferPointer<UInt8>>,
        needsLowercasing: inout Bool
    ) -> Int?? {
        var colon: Int?
        var index = authority.startIndex
        while index < authority.endIndex {
            let byte = authority[index]
            index += 1
            // Lower-case letters (and `{|}~`, DEL), most of a host, need no other test.
            if byte &- UInt8(ascii: "a") < 0x80 - UInt8(ascii: "a") { continue }
            switch byte {
            case UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "%"): return .none
            case UInt8(ascii: ":"): if colon == nil { colon = index - 1 }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...: needsLowercasing = true
            default: break
            }
        }
        return .some(colon)
    }

    /// The port written after an authority's colon: none when nothing follows it, the number when
    /// 1 to 5 digits do; anything else is left to `URL.port`.
    private static func port(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> WrittenPort {
        if digits.isEmpty { return .absent }
        guard digits.count <= 5, digits.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) else {
            return .askURL
        }
        return .number(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
    }

    /// Whether `bytes` spell a scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first, Self.isLetter(first) else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `byte` is `A` to `Z` (compared by hand: a `ClosedRange` test is not always inlined).
    private static func isUpperCaseLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }
}
