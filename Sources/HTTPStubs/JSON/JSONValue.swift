import Foundation

/// A JSON value as defined by RFC 8259.
///
/// Numbers keep their literal text and compare numerically; objects keep their
/// members in source order and compare without regard to order.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number, kept exactly as written.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An ordered array of values.
    case array([JSONValue])
    /// An object whose members keep their source order.
    case object(JSONObject)
}

extension JSONValue {
    /// Parses a UTF-8 encoded JSON document (a leading byte order mark is skipped).
    package init(parsing data: Data) throws(JSONParseError) {
        var recorder: JSONLocationRecorder?
        self = try JSONParser.parse(data, recorder: &recorder).value
    }

    /// Parses a JSON document held in a string (its UTF-8, without copying it to `Data`).
    package init(parsing string: String) throws(JSONParseError) {
        var string = string
        var recorder: JSONLocationRecorder?
        self = try string.withUTF8 { bytes in
            Result { () throws(JSONParseError) in try JSONParser.parse(bytes: bytes, recorder: &recorder).value }
        }.get()
    }

    /// Encodes `value` with `encoder` and parses the result.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        try self.init(parsing: encoder.encode(value))
    }

    /// Parses `data` in `dialect` and records the source location of every value and object key.
    package static func parseDocument(
        _ data: Data,
        dialect: JSONParser.Dialect = .strict
    ) throws(JSONParseError) -> JSONDocument {
        var recorder: JSONLocationRecorder? = JSONLocationRecorder(reservingFor: data.count)
        let (root, unreadOffset) = try JSONParser.parse(data, dialect: dialect, recorder: &recorder)
        return JSONDocument(
            root: root,
            data: data,
            recorder: recorder ?? JSONLocationRecorder(reservingFor: 0),
            unreadOffset: unreadOffset
        )
    }
}

extension JSONValue {
    /// The string, when this value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The object, when this value is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The elements, when this value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The Boolean, when this value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The number, when this value is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { value } else { nil }
    }

    /// A scalar's text: a string as it is, a number as written, `true` or `false`; `nil` for null,
    /// arrays and objects. It is how WireMock (Jackson) reads a scalar where it expects text.
    package var scalarText: String? {
        switch self {
        case let .string(text): text
        case let .number(number): number.text
        case let .bool(flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The JSON type name used in messages: "object", "array", "string", "number", "boolean" or "null".
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an integral number.
    public init(integerLiteral value: Int) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number from a floating-point literal, which is always finite.
    public init(floatLiteral value: Double) {
        self = .number(JSONNumber(uncheckedText: value.description))
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements.map { JSONMember(key: $0.0, value: $0.1) }))
    }
}
