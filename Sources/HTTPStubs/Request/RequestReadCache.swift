import Foundation

/// The parts of the URL and the header fields of the request a registry read last, handed to the
/// next request whose URL text and header dictionary are the same, byte for byte.
///
/// Tests ask one endpoint again and again (the endpoint under test, polling, retries), and
/// splitting the URL and turning the header dictionary into fields were about a seventh of the
/// toolkit's own instructions per request (BENCHMARKS.md, "Kept from the request before"). Both are made from the URL's
/// text (``URLParts`` asks `URL` for the host only of an authority with user information, an IPv6
/// literal or a percent-escape, which it parses from that same text) and from the dictionary, and
/// they are immutable, so handing out the last ones again is indistinguishable from making them
/// again.
///
/// "The same" means the same bytes: `String`'s `==` also calls canonically equivalent texts equal
/// (`é` written as one scalar, or as `e` and a combining accent), and a request must see the bytes it
/// sent. Comparing is cheap: a request sent again, or copied by URLSession on Linux, shares its
/// dictionary's storage with the one before (compared as one reference); texts are compared with
/// `memcmp`, and a new dictionary field by field.
final class RequestReadCache: Sendable {
    // Invariant: `parts` is the split of `urlText`, and `headers` the fields of `headerDictionary`;
    // both are immutable once made, so handing them to any thread is safe. Under the lock only
    // comparisons of bytes and assignments run (no user code, no other lock); what a request
    // replaces is released after it.
    private let state = Locked(State())

    private struct State {
        var urlText = ""
        var parts: URLParts?
        var headerDictionary: [String: String] = [:]
        var headers = HeaderFields()
    }

    /// The parts of `url` and the fields of `headerDictionary`, kept from the request before when
    /// they are the same, made (and kept) when not.
    func read(_ url: URL, headers headerDictionary: [String: String]) -> (URLParts, HeaderFields) {
        let text = url.absoluteString
        let (keptParts, keptHeaders) = state.withLock { state in
            (
                state.urlText.hasSameUTF8(as: text) ? state.parts : nil,
                Self.sameFields(state.headerDictionary, headerDictionary) ? state.headers : nil
            )
        }
        if let keptParts, let keptHeaders { return (keptParts, keptHeaders) }
        let parts = keptParts ?? URLParts(url, text: text)
        let headers = keptHeaders ?? HeaderFields(headerDictionary)
        // What is replaced is handed out of the lock, and released after it.
        _ = state.withLock { state -> State in
            let replaced = state
            state = State(urlText: text, parts: parts, headerDictionary: headerDictionary, headers: headers)
            return replaced
        }
        return (parts, headers)
    }

    /// Whether two header dictionaries hold the same names and values, byte for byte.
    private static func sameFields(_ first: [String: String], _ second: [String: String]) -> Bool {
        // One storage shared (the same bits) holds the same fields.
        let shared = withUnsafeBytes(of: first) { first in
            withUnsafeBytes(of: second) { memcmp(first.baseAddress!, $0.baseAddress!, first.count) == 0 }
        }
        if shared { return true }
        guard first.count == second.count else { return false }
        for (name, value) in first {
            // The lookup finds a name `==` to this one; its bytes must be the same too.
            guard let index = second.index(forKey: name), second[index].key.hasSameUTF8(as: name),
                second[index].value.hasSameUTF8(as: value)
            else { return false }
        }
        return true
    }
}
