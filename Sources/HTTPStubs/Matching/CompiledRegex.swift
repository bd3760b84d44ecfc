import Foundation

/// A regular expression compiled for use: the only place the toolkit compiles a pattern, so every
/// pattern (``RegularExpression``, JSONPath's `=~`, XMLUnit's `${xmlunit.matchesRegex(…)}`, the
/// JSON schema `pattern`) passes the same checks before it can run.
///
/// The checks: the pattern compiles (ICU's syntax, `NSRegularExpression`), and it holds no group
/// repeated without bound that itself repeats (``RegularExpression/repeatedRepetition(in:)``), on
/// which ICU's backtracking takes exponential time.
///
/// Patterns those checks cannot tell apart (overlapping alternations such as `(a|aa)+`, bounded
/// repetitions such as `(.*a){20}`) are bounded when they run: every search charges the request's
/// ``WorkBudget`` as ICU reports its progress (every few thousand steps), and gives up, finding
/// no match, once the budget is spent.
package struct CompiledRegex: @unchecked Sendable {
    // Invariant (why `@unchecked Sendable` holds): `expression` is an immutable NSRegularExpression,
    // documented as safe to use from several threads, and never exposed.

    /// How much of a text a match must cover.
    package enum Extent: Sendable {
        /// The whole text, as Java's `Matcher.matches()`.
        case wholeText
        /// Any part of the text, as Java's `Matcher.find()`.
        case anywhere
    }

    /// Why a pattern was refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// The group (as written) is repeated without bound while repeating inside itself.
        case backtracking(group: String)
        /// The pattern does not compile; `reason` says why, as far as can be told.
        case invalid(reason: String)

        /// What is wrong and what to do, after `the regular expression PATTERN` (backtracking)
        /// or after `invalid regular expression PATTERN:` (invalid).
        package var explanation: String {
            switch self {
            case let .backtracking(group):
                "repeats a group that itself repeats ('\(group)'), which can make matching take exponential "
                    + "time (catastrophic backtracking); rewrite it without the nested repetition, "
                    + "for example '(a+)+' as 'a+'"
            case let .invalid(reason):
                "it does not compile (\(reason)); escape special characters such as ( [ { * + ? with a backslash"
            }
        }

        /// The whole message for `pattern`, written at `place` (a source line, a file and JSON path).
        package func message(pattern: String, at place: String) -> String {
            switch self {
            case .backtracking: "the regular expression '\(pattern)' at \(place) \(explanation)"
            case .invalid: "invalid regular expression '\(pattern)' at \(place): \(explanation)"
            }
        }
    }

    /// The pattern as written.
    package let pattern: String
    private let expression: NSRegularExpression

    /// Compiles `pattern` after the safety checks.
    /// - Throws: ``Refusal`` when the pattern does not compile or could backtrack for ever.
    package init(_ pattern: String, extent: Extent, ignoringCase: Bool = false) throws(Refusal) {
        let written = extent == .wholeText ? "\\A(?:\(pattern))\\z" : pattern
        let options: NSRegularExpression.Options = ignoringCase ? [.caseInsensitive] : []
        guard let expression = try? NSRegularExpression(pattern: written, options: options) else {
            throw .invalid(reason: Self.reason(for: pattern))
        }
        if let group = RegularExpression.repeatedRepetition(in: pattern) {
            throw .backtracking(group: group)
        }
        self.pattern = pattern
        self.expression = expression
    }

    /// Whether the pattern matches `text` (the whole of it for ``Extent/wholeText``); `false` when
    /// the search spent the work budget first.
    package func matches(_ text: String) -> Bool {
        firstMatch(in: text) != nil
    }

    /// The groups of the first match in `text` (group 0 is the whole match; an unmatched group
    /// is empty), or `nil` when there is none (or the search spent the work budget first).
    package func groups(in text: String) -> [String]? {
        guard let match = firstMatch(in: text) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }

    /// The groups of every match in `text`, in order, as ``groups(in:)`` gives them for the first
    /// (Java's `Matcher.find()` in a loop: an empty match moves on by one character). Each match is
    /// charged to ``WorkBudget/current`` for what it holds, as a long search is: the search stops
    /// when the budget is spent, with the matches found so far.
    package func allGroups(in text: String) -> [[String]] {
        var found: [[String]] = []
        var budget: WorkBudget?
        let range = NSRange(text.startIndex..., in: text)
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { match, _, stop in
            if budget == nil { budget = WorkBudget.current ?? WorkBudget() }
            guard let match else {
                let searching = "the regular expression \(quoted(pattern))"
                if budget?.spend(WorkBudget.Cost.regexTick, on: searching) == false { stop.pointee = true }
                return
            }
            let groups = (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            let units = WorkBudget.Cost.listElement * groups.count + groups.reduce(0) { $0 + $1.utf8.count }
            guard budget?.spend(units, on: "the matches of the regular expression \(quoted(pattern))") == true else {
                stop.pointee = true
                return
            }
            found.append(groups)
        }
        return found
    }

    /// The first match in `text`, charging ``WorkBudget/current`` (or, outside a request's budget,
    /// one of its own) for each progress report of a long search, which stops when it is spent. A
    /// search that ends before ICU's first report, as nearly all do, never looks the budget up.
    private func firstMatch(in text: String) -> NSTextCheckingResult? {
        var found: NSTextCheckingResult?
        var budget: WorkBudget?
        let range = NSRange(text.startIndex..., in: text)
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { match, _, stop in
            if let match {
                found = match
                stop.pointee = true
                return
            }
            if budget == nil { budget = WorkBudget.current ?? WorkBudget() }
            if budget?.spend(WorkBudget.Cost.regexTick, on: "the regular expression \(quoted(pattern))") == false {
                stop.pointee = true
            }
        }
        return found
    }

    /// Why ICU may have rejected `pattern`, as far as a quick look can tell.
    private static func reason(for pattern: String) -> String {
        var depth = 0
        for character in pattern {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth < 0 { return "a ')' has no matching '('" }
        }
        if depth > 0 { return "a '(' is never closed" }
        if pattern.filter({ $0 == "[" }).count > pattern.filter({ $0 == "]" }).count { return "a '[' is never closed" }
        return "ICU rejected the syntax"
    }
}
