/// A response template whose tags all read the request in shapes known when it is parsed, rendered
/// by reading the intercepted request directly: no request model, no render session, and for
/// `jsonPath` on the body no JSON tree (``JSONKeyPathScanner``). The shapes, each in `{{ }}`
/// (HTML-escaped) or `{{{ }}}`:
///
/// - `request.path.[n]` (or `request.path.n`): the n-th non-empty segment of an ASCII path, decoded;
/// - `request.path`, `request.url`, `request.method`;
/// - `jsonPath request.body '<path>'` with a literal path of member names and indexes from `$`
///   (``JSONPathExpression/keysFromRoot``), no `default=`.
///
/// ``render(_:pathTemplate:)`` gives the bytes the general render gives for the same request, or
/// `nil` whenever it cannot be sure of them, and the caller renders the general way: a segment of a
/// non-ASCII path, a path segment a path variable of the same name would shadow, a body
/// that is not UTF-8, a scan that is unsure, output beyond the render's byte limit.
struct TemplateShortcut: Sendable {
    /// One top-level piece of the template.
    private enum Piece: Sendable {
        case text(String)
        /// `request.path.[index]`; `key` is the segment as written, which a path variable of that
        /// name would answer instead.
        case pathSegment(Int, key: String, escaped: Bool)
        case path(escaped: Bool)
        case url(escaped: Bool)
        case method(escaped: Bool)
        case jsonPathOfBody([JSONPathKey], escaped: Bool)
    }

    /// What one tag reads from a request.
    private enum Reading {
        /// Text to print (then HTML-escaped when the tag escapes).
        case text(String)
        /// A missing value or `null`: the tag prints nothing.
        case nothing
        /// Not decided here: render the general way.
        case unsure
    }

    private let pieces: [Piece]
    private let outputCapacity: Int
    private let maximumOutputBytes: Int

    /// The shortcut of `template` (prepared with WireMock's helpers), rendered within `limits`;
    /// `nil` when a piece has another shape, or the template is too long for the limits.
    init?(_ template: Template, limits: TemplateRenderLimits) {
        // The general render takes one step for the body and one per node, at depth 1.
        guard template.nodes.count < limits.maximumSteps, limits.maximumDepth >= 1 else { return nil }
        var pieces: [Piece] = []
        for node in template.nodes {
            switch node {
            case .text(let text): pieces.append(.text(text))
            case .comment: continue
            case .mustache(let expression, let escaped):
                guard let piece = Self.piece(expression, escaped: escaped) else { return nil }
                pieces.append(piece)
            case .block: return nil
            }
        }
        self.pieces = pieces
        self.outputCapacity = template.outputCapacity
        self.maximumOutputBytes = limits.maximumOutputBytes
    }

    private static let request = TemplatePath.Segment.property("request")

    /// The piece a tag of `expression` is, when it has one of the shapes.
    private static func piece(_ expression: TemplateExpression, escaped: Bool) -> Piece? {
        switch expression.binding {
        case .path?:
            guard !expression.requiresHelper else { return nil }
            let segments = expression.name.segments
            guard segments.count >= 2, segments[0] == request, case .property(let field) = segments[1] else {
                return nil
            }
            switch (field, segments.count) {
            case ("path", 2): return .path(escaped: escaped)
            case ("url", 2): return .url(escaped: escaped)
            case ("method", 2): return .method(escaped: escaped)
            case ("path", 3):
                guard case .index(let index, let key) = segments[2], index >= 0 else { return nil }
                return .pathSegment(index, key: key, escaped: escaped)
            default: return nil
            }
        case .helper?:
            guard expression.name.text == "jsonPath", expression.params.count == 2, expression.hash.isEmpty,
                case .path(let input) = expression.params[0], input.segments == [request, .property("body")],
                case .jsonPath(let compiled)? = expression.prepared, let keys = compiled.keysFromRoot
            else { return nil }
            return .jsonPathOfBody(keys, escaped: escaped)
        case nil:
            return nil
        }
    }

    /// The template rendered for `request`, whose stub's path template is `pathTemplate`; `nil`
    /// when the general render must decide.
    func render(_ request: InterceptedRequest, pathTemplate: URITemplate?) -> String? {
        var output = ""
        if outputCapacity > 15 { output.reserveCapacity(outputCapacity) }
        for piece in pieces {
            let reading: Reading
            let escaped: Bool
            switch piece {
            case .text(let text):
                output += text
                continue
            case .pathSegment(let index, let key, let escapes):
                escaped = escapes
                // `request.path` carries the path variables as properties, read before the segments.
                let shadowed = pathTemplate.map { $0.variables.contains(key) } ?? (request.pathParameters[key] != nil)
                reading = shadowed ? .unsure : Self.segment(index, of: request.path)
            case .path(let escapes):
                escaped = escapes
                reading = .text(PercentDecoding.decode(request.path) ?? request.path)
            case .url(let escapes):
                escaped = escapes
                reading = .text(request.pathAndQuery)
            case .method(let escapes):
                escaped = escapes
                reading = .text(request.method.rawValue)
            case .jsonPathOfBody(let keys, let escapes):
                escaped = escapes
                reading = Self.jsonPath(keys, ofBodyOf: request)
            }
            switch reading {
            case .text(let text): output += escaped ? TemplateEscaping.html(text) : text
            case .nothing: continue
            case .unsure: return nil
            }
        }
        return output.utf8.count > maximumOutputBytes ? nil : output
    }

    /// The `index`-th non-empty segment between the `/`s of `path`, percent-decoded (as written when
    /// it does not decode), as the request model splits an ASCII path.
    private static func segment(_ index: Int, of path: String) -> Reading {
        var path = path
        return path.withUTF8 { bytes -> Reading in
            // A path with other characters splits by characters, which may join a `/` to what follows.
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .unsure }
            var start = 0
            var found = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                defer { start = end + 1 }
                guard end > start else { continue }
                if found < index {
                    found += 1
                    continue
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                return .text(PercentDecoding.decode(text) ?? text)
            }
            return .nothing
        }
    }

    /// What `jsonPath request.body` prints for `keys`: nothing without a body, otherwise the scan
    /// of the body's UTF-8 text, printed as the request model's `jsonPath` prints a scalar.
    private static func jsonPath(_ keys: [JSONPathKey], ofBodyOf request: InterceptedRequest) -> Reading {
        guard let body = request.body, !body.isEmpty else { return .nothing }
        guard var text = request.bodyText else { return .unsure }
        return text.withUTF8 { bytes -> Reading in
            switch JSONKeyPathScanner.find(keys, in: bytes) {
            case .string(let range):
                return .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
            case .integer(let range):
                // Jackson reads `-0` as the integer 0.
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                return .text(text == "-0" ? "0" : text)
            case .bool(let flag): return .text(flag ? "true" : "false")
            case .null, .notFound: return .nothing
            case .unsure: return .unsure
            }
        }
    }
}
