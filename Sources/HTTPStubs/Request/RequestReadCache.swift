import Foundation

/// The parts of the URL and the header fields of the request a registry read last, handed to the
/// next request whose URL text and header dictionary are the same.
///
/// Tests ask one endpoint again and again (the endpoint under test, polling, retries), and
/// splitting the URL and turning the header dictionary into fields were about a seventh of the
/// toolkit's own instructions per request (BENCHMARKS.md, issue 19). Both are functions of the
/// text and the dictionary alone, and immutable, so handing out the last ones again is
/// indistinguishable from making them again. Comparing is cheap: a request sent again, or copied by
/// URLSession, shares its URL's text and its dictionary's storage, which compare by identity; any
/// other compares by content, as short as the URL and the fields are.
final class RequestReadCache: Sendable {
    // Invariant: `parts` is the split of `urlText`, and `headers` the fields of `headerDictionary`;
    // both are immutable once made, so handing them to any thread is safe. Nothing under the lock
    // but comparing and assigning strings and dictionaries: no user code.
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
                state.urlText == text ? state.parts : nil,
                state.headerDictionary == headerDictionary ? state.headers : nil
            )
        }
        if let keptParts, let keptHeaders { return (keptParts, keptHeaders) }
        let parts = keptParts ?? URLParts(url, text: text)
        let headers = keptHeaders ?? HeaderFields(headerDictionary)
        state.withLock { state in
            state.urlText = text
            state.parts = parts
            state.headerDictionary = headerDictionary
            state.headers = headers
        }
        return (parts, headers)
    }
}
