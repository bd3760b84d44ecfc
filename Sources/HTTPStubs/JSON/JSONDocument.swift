import Foundation

/// A parsed JSON document that remembers where each value and object key was written.
struct JSONDocument: Sendable {
    /// The parsed value.
    let root: JSONValue
    /// Paths of object members whose key already appeared in the same object;
    /// the last occurrence wins, so linters should warn about these.
    let duplicateKeys: [JSONPath]
    /// The source, for computing columns on demand.
    private let data: Data
    /// The line breaks of `data`.
    private let lineTable: JSONLineTable
    /// The byte offset at which each value starts.
    private let valueOffsets: [JSONPath: Int]
    /// The byte offset of the key of each object member.
    private let keyOffsets: [JSONPath: Int]
    /// The offset of text after the value that the parser did not read (WireMock's dialect).
    private let unreadOffset: Int?

    /// Creates a document from the parser's output.
    init(root: JSONValue, data: Data, recorder: JSONLocationRecorder, unreadOffset: Int? = nil) {
        self.root = root
        self.unreadOffset = unreadOffset
        self.duplicateKeys = recorder.duplicateKeys
        self.data = data
        self.lineTable = data.withUnsafeBytes { JSONLineTable($0) }
        self.valueOffsets = recorder.valueOffsets
        self.keyOffsets = recorder.keyOffsets
    }

    /// Where the value at `path` starts, or `nil` when the document has no such value.
    /// For a duplicated key this is its last occurrence, the one that `root` holds.
    func location(of path: JSONPath) -> JSONSourceLocation? {
        valueOffsets[path].map(location(ofOffset:))
    }

    /// Where the key of the object member at `path` is written, or `nil` when there is no such member.
    func keyLocation(of path: JSONPath) -> JSONSourceLocation? {
        keyOffsets[path].map(location(ofOffset:))
    }

    /// Where the text after the value starts, when the WireMock dialect left some unread, with its
    /// first characters (at most 20) to quote in a message.
    var unreadText: (location: JSONSourceLocation, start: String)? {
        guard let unreadOffset else { return nil }
        let start = String(decoding: data[(data.startIndex + unreadOffset)...].prefix(20), as: UTF8.self)
        return (location(ofOffset: unreadOffset), start)
    }

    /// The byte offset at which the value at `path` starts.
    func offset(of path: JSONPath) -> Int? {
        valueOffsets[path]
    }

    /// Runs `body` with the document's bytes.
    func withRawBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        data.withUnsafeBytes(body)
    }

    /// The line and column of a byte offset.
    func location(ofOffset offset: Int) -> JSONSourceLocation {
        data.withUnsafeBytes { lineTable.location(ofOffset: offset, in: $0) }
    }
}

/// Collects the byte offsets of values and keys, by path, while parsing.
struct JSONLocationRecorder {
    /// The path of the value being parsed.
    private var path: [JSONPath.Component] = []
    /// The keys seen so far in each open object, innermost last.
    private var keysInOpenObjects: [Set<String>] = []
    /// The byte offset at which each value starts.
    private(set) var valueOffsets: [JSONPath: Int] = [:]
    /// The byte offset of each member key.
    private(set) var keyOffsets: [JSONPath: Int] = [:]
    /// Members whose key repeats an earlier key of the same object.
    private(set) var duplicateKeys: [JSONPath] = []

    /// Records that the current value starts at `offset`.
    mutating func recordValue(at offset: Int) {
        valueOffsets[JSONPath(path)] = offset
    }

    /// Enters an object whose first member comes next.
    mutating func enterObject() {
        path.append(.key(""))
        keysInOpenObjects.append([])
    }

    /// Moves to the member named `key`, written at `offset`.
    mutating func enterMember(_ key: String, at offset: Int) {
        path[path.count - 1] = .key(key)
        let memberPath = JSONPath(path)
        keyOffsets[memberPath] = offset
        if !keysInOpenObjects[keysInOpenObjects.count - 1].insert(key).inserted {
            duplicateKeys.append(memberPath)
        }
    }

    /// Leaves the innermost object.
    mutating func leaveObject() {
        path.removeLast()
        keysInOpenObjects.removeLast()
    }

    /// Enters an array whose first element comes next.
    mutating func enterArray() {
        path.append(.index(0))
    }

    /// Moves to the element at `index`.
    mutating func enterElement(_ index: Int) {
        path[path.count - 1] = .index(index)
    }

    /// Leaves the innermost array.
    mutating func leaveArray() {
        path.removeLast()
    }
}
