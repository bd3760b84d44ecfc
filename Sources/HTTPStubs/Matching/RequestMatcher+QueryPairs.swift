import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// The decoded query parameters are exactly `expected` as a multiset: in any order, each
    /// name/value pair as many times as in `expected`, and no other pair.
    static func queryPairs(exactly expected: [(name: String, value: String)]) -> RequestMatcher {
        let wanted = Self.multiset(expected)
        let rendered = Self.render(wanted)
        return RequestMatcher(
            part: .query("(all)"),
            description: wanted.isEmpty ? "no query parameters" : "query exactly \(rendered) (any order)"
        ) { request in
            let actual = Self.multiset(request.queryParameters)
            if actual == wanted {
                return MatchVerdict(isMatch: true, detail: actual.isEmpty ? "no query" : Self.render(actual))
            }
            let missing = wanted.reduce(into: [QueryPair: Int]()) { result, item in
                let shortfall = item.value - (actual[item.key] ?? 0)
                if shortfall > 0 { result[item.key] = shortfall }
            }
            let extra = actual.reduce(into: [QueryPair: Int]()) { result, item in
                let surplus = item.value - (wanted[item.key] ?? 0)
                if surplus > 0 { result[item.key] = surplus }
            }
            var parts: [String] = []
            if !missing.isEmpty { parts.append("missing \(Self.render(missing))") }
            if !extra.isEmpty { parts.append("unexpected \(Self.render(extra))") }
            let total = wanted.values.reduce(0, +) + actual.values.reduce(0, +)
            let differing = missing.values.reduce(0, +) + extra.values.reduce(0, +)
            return MatchVerdict(
                isMatch: false,
                distance: Double(differing) / Double(max(total, 1)),
                detail: parts.joined(separator: "; ")
            )
        }
    }

    /// How many times each pair occurs.
    private static func multiset(_ pairs: [(name: String, value: String)]) -> [QueryPair: Int] {
        pairs.reduce(into: [:]) { counts, pair in
            counts[QueryPair(name: pair.name, value: pair.value), default: 0] += 1
        }
    }

    /// `a=1&b=2 (×2)`, sorted.
    private static func render(_ counts: [QueryPair: Int]) -> String {
        counts.sorted { $0.key < $1.key }
            .map { $0.value > 1 ? "\($0.key) (×\($0.value))" : "\($0.key)" }
            .joined(separator: "&")
    }
}
