import Foundation

/// A path template such as `/users/{id}/posts/{postID}` (the RFC 6570 subset WireMock's
/// `urlPathTemplate` and OpenAPI use).
///
/// `{name}` captures one non-empty path segment; `{+name}` captures the rest of the path,
/// slashes included. Captured values are percent-decoded.
struct URITemplate: Sendable {
    let template: String
    let variables: [String]
    let problem: String?
    private let expression: RegularExpression?

    init(_ template: String) {
        self.template = template
        var pattern = ""
        var variables: [String] = []
        var problem: String?
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
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
            if variables.contains(name) {
                problem =
                    "path template \(quoted(template)) uses the variable {\(name)} twice; "
                    + "give each variable its own name"
                break
            }
            variables.append(name)
            pattern += greedy ? "(.+)" : "([^/]+)"
            rest = rest[rest.index(after: close)...]
        }
        if problem == nil {
            pattern += NSRegularExpression.escapedPattern(for: String(rest))
        }
        self.variables = variables
        self.problem = problem
        self.expression =
            problem == nil ? RegularExpression(pattern, writtenAt: "path template \(quoted(template))") : nil
    }

    /// The captured variables when `path` fits the template, otherwise `nil`.
    func match(_ path: String) -> [String: String]? {
        guard let expression, let groups = expression.captures(in: path) else { return nil }
        var result: [String: String] = [:]
        for (name, value) in zip(variables, groups) {
            result[name] = value.removingPercentEncoding ?? value
        }
        return result
    }
}
