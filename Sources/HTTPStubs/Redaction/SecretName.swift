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
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return splitASCII(Array(name.utf8)) }
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

    /// ``split(_:)`` for a name of ASCII characters (nearly every name), byte by byte: a
    /// `Character`'s properties are looked up in Unicode's tables, which showed when a large body's
    /// every member name was read.
    private static func splitASCII(_ bytes: [UInt8]) -> [String] {
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var words: [String] = []
        var current: [UInt8] = []
        func endWord() {
            guard !current.isEmpty else { return }
            words.append(String(decoding: current.map { isUpper($0) ? $0 + 0x20 : $0 }, as: UTF8.self))
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                endWord()
                continue
            }
            if isUpper(byte), let previous = current.last {
                let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                if isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower) { endWord() }
            }
            current.append(byte)
        }
        endWord()
        return words
    }
}

/// Secret words and phrases (`token`, `api key`) as every name is compared with them, prepared
/// once: a name holds one when some run of its words is the phrase, or one of its words is the
/// phrase written as one (`apikey`) or ends with it when it has five letters or more
/// (`accesstoken` ends with `token`, `jsessionid` with `sessionid`); a plural `s` on the last word
/// is allowed.
struct SecretVocabulary: Hashable, Sendable {
    /// Every term written as one word (`token`, `apikey`).
    private let joined: Set<String>
    /// The terms of five letters or more written as one word: those a longer word may end with.
    private let suffixes: Set<String>
    /// The shortest of ``suffixes``, in bytes (at least 5).
    private let shortestSuffix: Int
    /// The terms of more than one word, split into their words (`api`, `key`).
    private let phrases: [[String]]

    /// The vocabulary of `terms`, each written as words separated by spaces.
    init(_ terms: Set<String>) {
        let split = terms.map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
        joined = Set(split.map { $0.joined() })
        suffixes = joined.filter { $0.count >= 5 }
        shortestSuffix = suffixes.map(\.utf8.count).min() ?? 5
        phrases = split.filter { $0.count > 1 }
    }

    /// Whether `name` holds one of the terms.
    func matches(_ name: SecretName) -> Bool {
        for word in name.words {
            for candidate in word.hasSuffix("s") ? [word, String(word.dropLast())] : [word] {
                if joined.contains(candidate) { return true }
                let utf8 = candidate.utf8
                guard utf8.count > shortestSuffix else { continue }
                for length in shortestSuffix..<utf8.count
                where suffixes.contains(String(decoding: utf8.suffix(length), as: UTF8.self)) {
                    return true
                }
            }
        }
        let words = name.words
        for phrase in phrases where words.count >= phrase.count {
            for start in 0...(words.count - phrase.count) {
                let (last, lastTerm) = (words[start + phrase.count - 1], phrase[phrase.count - 1])
                if words[start..<(start + phrase.count - 1)].elementsEqual(phrase.dropLast()),
                    last == lastTerm || last == lastTerm + "s"
                {
                    return true
                }
            }
        }
        return false
    }
}
