import Foundation

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// A secret planted in a request, a response or a stub, unique to one place: its text is
/// `hunter2-` and 16 hex digits, and its ``jwt`` carries it in its payload (the marker then shows
/// only once the token's second segment is base64url-decoded).
struct PlantedSecret: Sendable, Hashable, CustomStringConvertible {
    /// The place the secret was planted, as a failure names it (`query access_key`).
    let place: String
    /// `hunter2-` and 16 hex digits.
    let marker: String

    /// A new marker for `place`.
    init(_ place: String) {
        self.place = place
        let digits = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        marker = "hunter2-" + digits.prefix(16)
    }

    /// A JWT (`alg: HS256`) whose payload's `sub` is the marker, base64url without padding.
    var jwt: String {
        func segment(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return segment(#"{"alg":"HS256","typ":"JWT"}"#) + "." + segment(#"{"sub":"\#(marker)","admin":true}"#) + "."
            + segment("signature \(place)")
    }

    /// The parts of the marker a leak shows: its first and last 8 hex digits, so a marker cut
    /// short by a message still counts.
    var traces: [String] {
        let digits = marker.dropFirst("hunter2-".count)
        return [String(digits.prefix(8)), String(digits.suffix(8))]
    }

    var description: String { "\(place) (\(marker))" }
}

/// Looks for planted secrets in what the toolkit wrote or printed: in the bytes as they are, and
/// in every decoding of them a reader could undo: percent-encoding, JSON string escapes, base64
/// (standard and URL-safe, so the segments of a JWT too), gzip (wherever a gzip member starts),
/// and each of those inside another, a few levels deep.
enum SecretScanner {
    /// How many decodings deep the scanner looks (base64 of JSON holding a percent-encoded URL…).
    private static let depth = 3

    /// The secrets of `planted` whose marker (or a trace of it) shows in `data` or a decoding of it.
    static func leaks(of planted: [PlantedSecret], in data: Data) -> [PlantedSecret] {
        let texts = decodings(of: data)
        return planted.filter { secret in
            texts.contains { text in secret.traces.contains { text.contains($0) } }
        }
    }

    /// The secrets of `planted` that show in `text` or a decoding of it.
    static func leaks(of planted: [PlantedSecret], in text: String) -> [PlantedSecret] {
        leaks(of: planted, in: Data(text.utf8))
    }

    /// `data` read leniently as UTF-8, and every decoding of it, to ``depth``.
    static func decodings(of data: Data) -> [String] {
        var found: [String] = []
        var seen: Set<Data> = []
        var frontier = [data]
        for _ in 0...depth {
            var next: [Data] = []
            for bytes in frontier where seen.insert(bytes).inserted {
                found.append(String(decoding: bytes, as: UTF8.self))
                next += decoded(bytes)
            }
            frontier = next
        }
        return found
    }

    /// The decodings of `bytes` one level deep.
    private static func decoded(_ bytes: Data) -> [Data] {
        var results: [Data] = []
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("%"), let unescaped = percentDecoded(text) { results.append(Data(unescaped.utf8)) }
        if text.contains("\\") { results.append(Data(jsonUnescaped(text).utf8)) }
        results += base64Runs(in: bytes)
        results += gzipMembers(in: bytes)
        return results.filter { $0 != bytes && !$0.isEmpty }
    }

    /// `%XX` sequences decoded, the invalid ones kept as written.
    private static func percentDecoded(_ text: String) -> String? {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        var changed = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue
            {
                output.append(high << 4 | low)
                index += 3
                changed = true
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : nil
    }

    /// JSON string escapes (`\"`, `\\`, `\/`, `\n`, `\uXXXX`) decoded wherever they are.
    private static func jsonUnescaped(_ text: String) -> String {
        var output = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let next = scalars.next() else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch next {
            case "n": output += "\n"
            case "t": output += "\t"
            case "r": output += "\r"
            case "u":
                var hex = ""
                for _ in 0..<4 { if let digit = scalars.next() { hex.unicodeScalars.append(digit) } }
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) {
                    output.unicodeScalars.append(decoded)
                } else {
                    output += "\\u" + hex
                }
            default: output.unicodeScalars.append(next)
            }
        }
        return output
    }

    /// The bytes of every run of 16 or more base64 characters (standard or URL-safe, padding
    /// optional) that decodes.
    private static func base64Runs(in bytes: Data) -> [Data] {
        var runs: [Data] = []
        var current: [UInt8] = []
        func flush() {
            defer { current = [] }
            guard current.count >= 16 else { return }
            var text = String(decoding: current, as: UTF8.self)
            while text.hasSuffix("=") { text.removeLast() }
            text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            // A run may start inside a longer word: try each alignment.
            for offset in 0..<4 {
                var aligned = String(text.dropFirst(offset))
                guard aligned.count >= 12 else { break }
                aligned.removeLast(aligned.count % 4 == 1 ? 1 : 0)
                aligned += String(repeating: "=", count: (4 - aligned.count % 4) % 4)
                if let decoded = Data(base64Encoded: aligned) { runs.append(decoded) }
            }
        }
        for byte in bytes {
            let isBase64 =
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+/-_=".utf8.contains(byte)
            if isBase64 { current.append(byte) } else { flush() }
        }
        flush()
        return runs
    }

    /// The payload of every gzip member (`1f 8b 08`) in `bytes` that inflates.
    private static func gzipMembers(in bytes: Data) -> [Data] {
        let array = [UInt8](bytes)
        var members: [Data] = []
        var index = 0
        while index + 3 <= array.count {
            if array[index] == 0x1F, array[index + 1] == 0x8B, array[index + 2] == 0x08,
                case let .success(inflated) = Inflate.decompress(Data(array[index...]), contentEncoding: "gzip")
            {
                members.append(inflated)
            }
            index += 1
        }
        return members
    }
}
