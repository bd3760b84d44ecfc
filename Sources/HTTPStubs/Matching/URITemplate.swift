/// A path template such as `/users/{id}/posts/{postID}` (the RFC 6570 subset WireMock's
/// `urlPathTemplate` and OpenAPI use).
///
/// `{name}` captures one non-empty path segment; `{+name}` captures the rest of the path,
/// slashes included (up to a line break). Captured values are percent-decoded.
///
/// A template matches as the regular expression it spells would (`/users/([^/]+)` for
/// `/users/{id}`, anchored at both ends, each variable as long as it can be), but on the path's
/// UTF-8 bytes by a small backtracking matcher: through `NSRegularExpression` matching a template
/// cost more than the rest of choosing a stub.
package struct URITemplate: Sendable {
    let template: String
    package let variables: [String]
    package let problem: String?
    /// The template cut into literal text and variables; empty when there is a ``problem``.
    private let pieces: [Piece]

    /// A piece of a template.
    private enum Piece: Sendable {
        /// Text the path carries as written, as UTF-8.
        case literal([UInt8])
        /// `{name}`: one or more bytes, none of them `/`.
        case segment
        /// `{+name}`: one or more bytes, none of them a line break.
        case rest
    }

    package init(_ template: String) {
        self.template = template
        var pieces: [Piece] = []
        var variables: [String] = []
        var named: Set<String> = []
        var problem: String?
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.literal(Array(rest[..<open].utf8))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                problem = "path template \(quoted(template)) has a '{' that is never closed; write variables as {name}"
                break
            }
            var name = String(rest[rest.index(after: open)..<close])
            let greedy = name.hasPrefix("+")
            if greedy { name.removeFirst() }
            if name.isEmpty
                || name.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
            {
                problem =
                    "path template \(quoted(template)) has an invalid variable {\(name)}; "
                    + "use letters, digits, '_', '-' or '.'"
                break
            }
            if !named.insert(name).inserted {
                problem =
                    "path template \(quoted(template)) uses the variable {\(name)} twice; "
                    + "give each variable its own name"
                break
            }
            variables.append(name)
            pieces.append(greedy ? .rest : .segment)
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(Array(rest.utf8))) }
        self.variables = variables
        self.problem = problem
        self.pieces = problem == nil ? pieces : []
    }

    /// Whether `path` fits the template: ``match(_:)`` without building the captured variables.
    func matches(_ path: String) -> Bool {
        guard problem == nil else { return false }
        var path = path
        return path.withUTF8 { bytes in
            var matcher = Matcher(pieces: pieces, bytes: bytes)
            return matcher.matchesWhole()
        }
    }

    /// The captured variables when `path` fits the template, otherwise `nil`.
    package func match(_ path: String) -> [String: String]? {
        guard problem == nil else { return nil }
        var path = path
        return path.withUTF8 { bytes -> [String: String]? in
            var matcher = Matcher(pieces: pieces, bytes: bytes)
            guard matcher.matchesWhole() else { return nil }
            var result: [String: String] = [:]
            for (name, range) in zip(variables, matcher.captures) {
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                result[name] = PercentDecoding.decode(value) ?? value
            }
            return result
        }
    }

    /// One attempt to match a path: a depth-first search that tries each variable's longest extent
    /// first, remembering the (piece, offset) pairs that failed so that no pair is tried twice
    /// (templates with several `{+rest}` variables stay polynomial). Iterative, with the pieces
    /// being tried on a stack of its own: a template of many thousands of variables would
    /// overflow a thread's stack one call a piece.
    private struct Matcher {
        let pieces: [Piece]
        let bytes: UnsafeBufferPointer<UInt8>
        /// The byte ranges of the variables matched so far, in order.
        var captures: [Range<Int>] = []
        /// `piece * (bytes.count + 1) + offset` for each pair known not to match.
        var failed: Set<Int> = []

        /// A piece being tried at an offset; for a variable, the end it extends to now.
        private struct Attempt {
            let piece: Int
            let offset: Int
            let isVariable: Bool
            /// A variable's shortest end.
            let shortest: Int
            var end: Int
            /// Whether the variable's extent is in ``captures`` now.
            var captured = false
        }

        /// Whether the pieces match the whole path; ``captures`` then holds the variables' extents.
        mutating func matchesWhole() -> Bool {
            var attempts: [Attempt] = []
            // Where to go on next: a piece and an offset to try, or `nil` to go back to the last attempt.
            var next: (piece: Int, offset: Int)? = (0, 0)
            while true {
                guard let (piece, offset) = next else {
                    guard !attempts.isEmpty else { return false }
                    next = advance(&attempts)
                    continue
                }
                if piece == pieces.count {
                    if offset == bytes.count { return true }
                    next = nil
                    continue
                }
                if failed.contains(key(piece, offset)) {
                    next = nil
                    continue
                }
                switch pieces[piece] {
                case let .literal(text):
                    guard hasLiteral(text, at: offset) else {
                        failed.insert(key(piece, offset))
                        next = nil
                        continue
                    }
                    attempts.append(
                        Attempt(
                            piece: piece,
                            offset: offset,
                            isVariable: false,
                            shortest: offset,
                            end: offset + text.count
                        )
                    )
                    next = (piece + 1, offset + text.count)
                case .segment, .rest:
                    let stopsAtSlash = if case .segment = pieces[piece] { true } else { false }
                    var limit = offset
                    while limit < bytes.count,
                        !(stopsAtSlash ? bytes[limit] == UInt8(ascii: "/") : isLineBreak(at: limit))
                    {
                        limit += 1
                    }
                    // The last piece takes everything or nothing.
                    let shortest = piece == pieces.count - 1 ? bytes.count : offset + 1
                    attempts.append(
                        Attempt(piece: piece, offset: offset, isVariable: true, shortest: shortest, end: limit + 1)
                    )
                    next = advance(&attempts)
                }
            }
        }

        /// Moves the last attempt on: a variable to its next shorter extent (where to go on then);
        /// a literal, or a variable with no extent left, fails its piece at its offset and is
        /// dropped (`nil`: go back further).
        private mutating func advance(_ attempts: inout [Attempt]) -> (piece: Int, offset: Int)? {
            var attempt = attempts.removeLast()
            if attempt.isVariable {
                if attempt.captured { captures.removeLast() }
                var end = attempt.end - 1
                // A variable ends between characters, never inside one.
                while end >= attempt.shortest, end > attempt.offset, end < bytes.count, bytes[end] & 0xC0 == 0x80 {
                    end -= 1
                }
                if end >= attempt.shortest, end > attempt.offset {
                    attempt.end = end
                    attempt.captured = true
                    captures.append(attempt.offset..<end)
                    attempts.append(attempt)
                    return (attempt.piece + 1, end)
                }
            }
            failed.insert(key(attempt.piece, attempt.offset))
            return nil
        }

        private func key(_ piece: Int, _ offset: Int) -> Int {
            piece * (bytes.count + 1) + offset
        }

        private func hasLiteral(_ text: [UInt8], at offset: Int) -> Bool {
            guard bytes.count - offset >= text.count else { return false }
            for index in text.indices where bytes[offset + index] != text[index] { return false }
            return true
        }

        /// Whether a line break (which `.` does not match) starts at `offset`: `\n`, VT, FF,
        /// `\r`, U+0085, U+2028 or U+2029.
        private func isLineBreak(at offset: Int) -> Bool {
            switch bytes[offset] {
            case 0x0A...0x0D: return true
            case 0xC2: return offset + 1 < bytes.count && bytes[offset + 1] == 0x85
            case 0xE2:
                return offset + 2 < bytes.count && bytes[offset + 1] == 0x80
                    && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9)
            default: return false
            }
        }
    }
}
