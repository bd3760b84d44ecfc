import Foundation

/// A regular expression that must match a whole value, as WireMock's Java `matches()` does.
///
/// The syntax is ICU's (`NSRegularExpression`), which agrees with Java's for everything stub files
/// commonly use. A pattern that does not compile never matches; the registry reports why and where
/// it was written, as a ``StubDiagnostic``, when the stub is added.
public struct RegularExpression: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// Why the pattern cannot be used, with the place it was written; `nil` when it compiled.
    package let problem: String?
    private let compiled: CompiledRegex?

    /// Compiles a pattern. The location parameters record where it was written, for error messages.
    public init(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(pattern, writtenAt: "\(fileID):\(line):\(column)")
    }

    /// Compiles a pattern; `place` names where it was written (a source line, a file and JSON path).
    package init(_ pattern: String, writtenAt place: String) {
        self.pattern = pattern
        do {
            self.compiled = try CompiledRegex(pattern, extent: .wholeText)
            self.problem = nil
        } catch {
            self.compiled = nil
            self.problem = error.message(pattern: pattern, at: place)
        }
    }

    /// Whether the pattern matches the whole of `value`.
    public func matches(_ value: String) -> Bool {
        compiled?.matches(value) ?? false
    }

    /// The literal text every match starts with (`/users/` for `/users/[0-9]+`); `nil` when there
    /// is none or when it cannot be told safely (alternation, a leading anchor or escape).
    var literalPrefix: String? {
        guard !pattern.contains("|") else { return nil }
        var prefix = ""
        for character in pattern {
            if character.isLetter || character.isNumber || "/-_~%=&,;:@!'".contains(character) {
                prefix.append(character)
                continue
            }
            // A quantifier may make the last literal character optional or repeated.
            if "?*{".contains(character), !prefix.isEmpty { prefix.removeLast() }
            break
        }
        return prefix.isEmpty ? nil : prefix
    }

    /// The capture groups of a whole-value match, or `nil` when the pattern does not match.
    func captures(in value: String) -> [String]? {
        compiled?.groups(in: value).map { Array($0.dropFirst()) }
    }

    /// The pattern in quotes, as in `"[0-9]+"` (between slashes, a pattern that starts with `/`
    /// would read `//v1/.*/`).
    public var description: String { quoted(pattern) }

    /// Two expressions are equal when their patterns are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.pattern == rhs.pattern }

    /// Hashes the pattern.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// The first group that is repeated without bound (`*`, `+`, `{n,}`) while containing an
    /// unbounded repetition itself, such as `(a+)+` or `(\\w+\\s?)*`; `nil` when there is none.
    /// Possessive repetitions (`a++`, `a*+`, `a{2,}+`, `(…)++`) and atomic groups (`(?>…)`) never
    /// give back what they matched, so they cannot backtrack and do not count.
    static func repeatedRepetition(in pattern: String) -> String? {
        let characters = Array(pattern)
        var groups: [(start: Int, repeats: Bool, atomic: Bool)] = []
        var index = 0
        var inClass = false
        /// Where an unbounded quantifier starting at `position` ends (its last character), if there is one.
        func unboundedQuantifier(at position: Int) -> Int? {
            guard position < characters.count else { return nil }
            switch characters[position] {
            case "*", "+": return position
            case "{":
                guard let close = characters[position...].firstIndex(of: "}"),
                    String(characters[position...close]).hasSuffix(",}")
                else { return nil }
                return close
            default: return nil
            }
        }
        /// Whether the quantifier ending at `end` is possessive (followed by `+`).
        func isPossessive(after end: Int) -> Bool {
            end + 1 < characters.count && characters[end + 1] == "+"
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                index += 1
                continue
            }
            switch character {
            case "[":
                inClass = true
            case "(":
                let atomic =
                    index + 2 < characters.count && characters[index + 1] == "?" && characters[index + 2] == ">"
                groups.append((index, false, atomic))
            case ")":
                guard let group = groups.popLast() else { break }
                let repeatsInside = group.repeats && !group.atomic
                if let end = unboundedQuantifier(at: index + 1) {
                    if isPossessive(after: end) {
                        // `(…)++` matches once and keeps it: neither it nor its content backtracks.
                        index = end + 2
                        continue
                    }
                    if repeatsInside { return String(characters[group.start...index + 1]) }
                    if !groups.isEmpty { groups[groups.count - 1].repeats = true }
                } else if repeatsInside, !groups.isEmpty {
                    groups[groups.count - 1].repeats = true
                }
            case "*", "+", "{":
                guard let end = unboundedQuantifier(at: index) else { break }
                if isPossessive(after: end) {
                    index = end + 2
                    continue
                }
                if !groups.isEmpty { groups[groups.count - 1].repeats = true }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
