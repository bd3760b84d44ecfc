import HTTPStubs
import HTTPStubsLanguages

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
/// ``bytes(for:pathTemplate:)`` gives the bytes the general render gives for the same request, or
/// `nil` whenever it cannot be sure of them, and the caller renders the general way: a segment of a
/// non-ASCII path, a path segment a path variable of the same name would shadow, a body
/// that is not UTF-8, a scan that is unsure, output beyond the render's byte limit.
struct TemplateShortcut: Sendable {
    /// One top-level piece of the template.
    private enum Piece: Sendable {
        /// Text: the range of its UTF-8 bytes in ``literalBytes`` (a range, so that reading a piece
        /// retains nothing).
        case text(Range<Int>)
        /// `request.path.[index]`; `key` is the segment as written, which a path variable of that
        /// name would answer instead.
        case pathSegment(Int, key: String, escaped: Bool)
        case path(escaped: Bool)
        case url(escaped: Bool)
        case method(escaped: Bool)
        case jsonPathOfBody([JSONKeyPathScanner.Key], escaped: Bool)
    }

    private let pieces: [Piece]
    /// The text pieces' bytes, one after the other.
    private let literalBytes: [UInt8]
    private let outputCapacity: Int
    private let maximumOutputBytes: Int

    /// The shortcut of `template` (prepared with WireMock's helpers), rendered within `limits`;
    /// `nil` when a piece has another shape, or the template is too long for the limits.
    init?(_ template: Template, limits: TemplateRenderLimits) {
        // The general render takes one step for the body and one per node, at depth 1.
        guard template.nodes.count < limits.maximumSteps, limits.maximumDepth >= 1 else { return nil }
        var pieces: [Piece] = []
        var literalBytes: [UInt8] = []
        for node in template.nodes {
            switch node {
            case .text(let text):
                let start = literalBytes.count
                literalBytes.append(contentsOf: text.utf8)
                pieces.append(.text(start..<literalBytes.count))
            case .comment: continue
            case .mustache(let expression, let escaped):
                guard let piece = Self.piece(expression, escaped: escaped) else { return nil }
                pieces.append(piece)
            case .block: return nil
            }
        }
        self.pieces = pieces
        self.literalBytes = literalBytes
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
                case .jsonPath(let compiled)? = expression.prepared, let path = compiled.keysFromRoot,
                let keys = JSONKeyPathScanner.keys(path)
            else { return nil }
            return .jsonPathOfBody(keys, escaped: escaped)
        case nil:
            return nil
        }
    }

    /// The UTF-8 of the template rendered for `request`, whose stub's path template is
    /// `pathTemplate`, written into one buffer; `nil` when the general render must decide.
    func bytes(for request: InterceptedRequest, pathTemplate: URITemplate?) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(outputCapacity)
        for piece in pieces {
            switch piece {
            case .text(let range):
                literalBytes.withUnsafeBufferPointer {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range]))
                }
            case .pathSegment(let index, let key, let escaped):
                // `request.path` carries the path variables as properties, read before the segments.
                if let variables = pathTemplate?.variables {
                    guard !variables.contains(key) else { return nil }
                } else if request.pathParameters.contains(where: { $0.key == key }) {
                    // Compared one by one: a stub captures a few variables, and hashing the key
                    // cost more than comparing it with each.
                    return nil
                }
                guard Self.appendSegment(index, of: request.path, escaped: escaped, to: &output) else { return nil }
            case .path(let escaped):
                Self.append(PercentDecoding.decode(request.path) ?? request.path, escaped: escaped, to: &output)
            case .url(let escaped):
                Self.append(request.pathAndQuery, escaped: escaped, to: &output)
            case .method(let escaped):
                Self.append(request.method.rawValue, escaped: escaped, to: &output)
            case .jsonPathOfBody(let keys, let escaped):
                guard Self.appendJSONPath(keys, ofBodyOf: request, escaped: escaped, to: &output) else { return nil }
            }
        }
        return output.count > maximumOutputBytes ? nil : output
    }

    /// Appends `bytes`, HTML-escaped when `escaped`.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, escaped: Bool, to output: inout [UInt8]) {
        if escaped {
            TemplateEscaping.appendHTML(bytes, to: &output)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Appends the UTF-8 of `text`, HTML-escaped when `escaped`.
    private static func append(_ text: String, escaped: Bool, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, escaped: escaped, to: &output) }
    }

    /// Appends the `index`-th segment of `path` as the request model splits an ASCII path
    /// (``TemplateRequestModel/forEachSegment(of:_:)``), percent-decoded (as written when it does not
    /// decode); nothing when there is no such segment. `false` for a path with other characters,
    /// which the model splits by characters (a `/` may join what follows it in one).
    private static func appendSegment(
        _ index: Int,
        of path: String,
        escaped: Bool,
        to output: inout [UInt8]
    ) -> Bool {
        var path = path
        return path.withUTF8 { bytes -> Bool in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            var found = 0
            TemplateRequestModel.forEachSegment(of: bytes) { segment in
                guard found == index else {
                    found += 1
                    return true
                }
                if segment.contains(UInt8(ascii: "%")) {
                    append(
                        TemplateRequestModel.decoded(String(decoding: segment, as: UTF8.self)),
                        escaped: escaped,
                        to: &output
                    )
                } else {
                    append(segment, escaped: escaped, to: &output)
                }
                return false
            }
            return true
        }
    }

    /// Appends what `jsonPath request.body` prints for `keys`: nothing without a body, otherwise
    /// the scan of the body, printed as the request model's `jsonPath` prints a scalar. `false`
    /// when the scan is unsure. A body the scan accepts is UTF-8 without a byte order mark, so
    /// the model's text of it (`bodyText`) holds the same bytes.
    private static func appendJSONPath(
        _ keys: [JSONKeyPathScanner.Key],
        ofBodyOf request: InterceptedRequest,
        escaped: Bool,
        to output: inout [UInt8]
    ) -> Bool {
        guard let body = request.body, !body.isEmpty else { return true }
        return body.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch JSONKeyPathScanner.find(keys, in: bytes) {
            case .string(let range):
                append(UnsafeBufferPointer(rebasing: bytes[range]), escaped: escaped, to: &output)
            case .integer(let range):
                // Jackson reads `-0` as the integer 0.
                if range.count == 2, bytes[range.lowerBound] == UInt8(ascii: "-"),
                    bytes[range.lowerBound + 1] == UInt8(ascii: "0")
                {
                    output.append(UInt8(ascii: "0"))
                } else {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                }
            case .bool(let flag):
                output.append(contentsOf: (flag ? "true" : "false").utf8)
            case .null, .notFound:
                break
            case .unsure:
                return false
            }
            return true
        }
    }
}
