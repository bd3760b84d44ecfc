/// Finds, in a `WWW-Authenticate` value, a `Basic` challenge as swift-corelibs-foundation finds
/// it: the one scheme corelibs acts on. A 401 carrying one makes corelibs start an authentication
/// challenge, which hangs a task served by a protocol or re-sends it over the real network;
/// `Bearer`, `Digest`, `Negotiate` and other schemes pass through it untouched.
///
/// corelibs does not parse the list as RFC 9110 §11.6.1 does. It looks for a scheme token at the
/// start of the value and after every comma, even one inside a quoted string, skipping spaces but
/// stopping at a tab; and it takes a `Basic` token for a challenge only when a `realm` parameter
/// follows it. This type reads the value the same way, so that exactly the challenges corelibs
/// acts on are found: `Bearer error_description="a, Basic realm=x"` has one, `Basic` alone has none.
enum BasicChallenge {
    /// Whether corelibs would find a `Basic` challenge with a realm in `value`.
    static func isPresent(in value: String) -> Bool {
        let scalars = Array(value.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let schemeEnd = tokenEnd(scalars, from: index)
            guard schemeEnd > index else { return false }  // corelibs stops reading here
            if String(String.UnicodeScalarView(scalars[index..<schemeEnd])).lowercased() == "basic",
                hasRealm(scalars, from: schemeEnd)
            {
                return true
            }
            guard let comma = scalars[index...].firstIndex(of: ",") else { return false }
            index = comma + 1
            while index < scalars.count, scalars[index] == " " { index += 1 }
        }
        return false
    }

    /// Whether the auth-params from `start` (`realm="api", charset=UTF-8`) name a realm with a
    /// readable value, reading no further than corelibs does.
    private static func hasRealm(_ scalars: [Unicode.Scalar], from start: Int) -> Bool {
        var index = start
        while true {
            while index < scalars.count, scalars[index] == " " { index += 1 }
            let nameEnd = tokenEnd(scalars, from: index)
            guard nameEnd > index else { return false }
            let name = String(String.UnicodeScalarView(scalars[index..<nameEnd])).lowercased()
            index = skipSpacesAndTabs(scalars, from: nameEnd)
            guard index < scalars.count, scalars[index] == "=" else { return false }
            index = skipSpacesAndTabs(scalars, from: index + 1)
            guard let valueEnd = valueEnd(scalars, from: index) else { return false }
            if name == "realm" { return true }
            index = valueEnd
            while index < scalars.count, scalars[index] == " " { index += 1 }
            guard index < scalars.count, scalars[index] == "," else { return false }
            index += 1
        }
    }

    /// The end of the token or quoted string that starts at `start`; `nil` when there is none.
    private static func valueEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start < scalars.count else { return nil }
        guard scalars[start] == "\"" else {
            let end = tokenEnd(scalars, from: start)
            return end > start ? end : nil
        }
        var index = start + 1
        while index < scalars.count {
            switch scalars[index] {
            case "\"":
                return index + 1
            case "\\":
                guard index + 1 < scalars.count, isQuotable(scalars[index + 1]) else { return nil }
                index += 2
            case let scalar where isQuotable(scalar):
                index += 1
            default:
                return nil
            }
        }
        return nil  // no closing quote
    }

    private static func skipSpacesAndTabs(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        return index
    }

    /// The end of the run of token characters (RFC 9110 `tchar`) that starts at `start`.
    private static func tokenEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count, isTokenCharacter(scalars[index]) { index += 1 }
        return index
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~":
            return true
        default:
            return false
        }
    }

    /// A character a quoted string may hold (tab, space, visible ASCII or beyond).
    private static func isQuotable(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F)
    }
}
