/// The words of a header, query parameter, JSON member, form field, multipart field or XML name,
/// as ``Redaction`` compares them: however the name is spelled, `clientSecret`, `client_secret`,
/// `Client-Secret` and `user[client_secret]` are the words `client secret`.
///
/// The innermost bracket key that is not empty and not an index is the name (`user[password]` is
/// `password`, `items[0][token]` is `token`, `password[0]` and `password[]` are `password`), a
/// namespace prefix goes (`wsse:Password` is `password`), and
/// the name is split into lower-case words at every character that is not a letter or digit and
/// at camel-case boundaries (`accessToken`, `XMLHttpRequest` → `xml http request`, `APIKey` →
/// `api key`).
struct SecretName: Equatable {
    /// The lower-cased words, in order.
    let words: [String]

    /// The words of `name`.
    init(_ name: String) {
        words = Self.split(Self.innermostKey(of: name))
    }

    /// The words joined by single spaces (`client secret`): how a name list compares names.
    var spelled: String { words.joined(separator: " ") }

    /// Whether some run of these words is the phrase `term` (its words separated by spaces), or
    /// one word is the phrase written as one (`apikey`) or ends with it when it has five letters or
    /// more (`accesstoken` ends with `token`); a plural `s` on the last word is allowed.
    func contains(_ term: String) -> Bool {
        let termWords = term.split(separator: " ").map(String.init)
        guard !termWords.isEmpty else { return false }
        let joined = termWords.joined()
        for word in words {
            let singular = word.hasSuffix("s") ? String(word.dropLast()) : word
            if word == joined || singular == joined { return true }
            if joined.count >= 5, word.hasSuffix(joined) || singular.hasSuffix(joined) { return true }
        }
        guard words.count >= termWords.count else { return false }
        for start in 0...(words.count - termWords.count) {
            let run = Array(words[start..<(start + termWords.count)])
            let (last, lastTerm) = (run[run.count - 1], termWords[termWords.count - 1])
            if run.dropLast() == termWords.dropLast(), last == lastTerm || last == lastTerm + "s" {
                return true
            }
        }
        return false
    }

    /// The innermost `[key]` of a bracketed form key that is neither empty nor an index (all
    /// digits), else the name before the brackets, without its namespace prefix (`wsse:Password`).
    private static func innermostKey(of name: String) -> Substring {
        var innermost: Substring?
        var rest = Substring(name)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let key = rest[rest.index(after: open)..<close]
            if !key.isEmpty, !key.allSatisfy(\.isNumber) { innermost = key }
            rest = rest[rest.index(after: close)...]
        }
        let key = innermost ?? Substring(name).prefix { $0 != "[" }
        if let colon = key.lastIndex(of: ":") { return key[key.index(after: colon)...] }
        return key
    }

    /// Lower-case words: a new word at every non-alphanumeric character, before an upper-case
    /// letter that follows a lower-case letter or digit, and before the last capital of a run of
    /// capitals that a lower-case letter follows (`APIKey` → `api key`).
    private static func split(_ name: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                continue
            }
            if character.isUppercase, let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true)
                if startsWord {
                    words.append(current.lowercased())
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }
}
