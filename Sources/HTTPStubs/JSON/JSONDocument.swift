import Foundation

/// A parsed JSON document that remembers where each value and object key was written.
package struct JSONDocument: Sendable {
    /// The parsed value.
    package let root: JSONValue
    /// Paths of object members whose key already appeared in the same object;
    /// the last occurrence wins, so linters should warn about these.
    package let duplicateKeys: [JSONPath]
    /// The source, for computing columns on demand.
    private let data: Data
    /// The line breaks of `data`.
    private let lineTable: JSONLineTable
    /// Where each value and member key was written.
    private let offsets: JSONLocationRecorder
    /// The offset of text after the value that the parser did not read (WireMock's dialect).
    private let unreadOffset: Int?

    /// Creates a document from the parser's output.
    init(root: JSONValue, data: Data, recorder: JSONLocationRecorder, unreadOffset: Int? = nil) {
        self.root = root
        self.unreadOffset = unreadOffset
        self.duplicateKeys = recorder.duplicateKeys
        self.data = data
        self.lineTable = data.withUnsafeBytes { JSONLineTable($0) }
        self.offsets = recorder
    }

    /// Where the value at `path` starts, or `nil` when the document has no such value.
    /// For a duplicated key this is its last occurrence, the one that `root` holds.
    package func location(of path: JSONPath) -> JSONSourceLocation? {
        offsets.value(at: path).map { location(ofOffset: $0.valueOffset) }
    }

    /// Where the key of the object member at `path` is written, or `nil` when there is no such member.
    package func keyLocation(of path: JSONPath) -> JSONSourceLocation? {
        offsets.value(at: path)?.keyOffset.map(location(ofOffset:))
    }

    /// Where the text after the value starts, when the WireMock dialect left some unread, with its
    /// first characters (at most 20) to quote in a message.
    package var unreadText: (location: JSONSourceLocation, start: String)? {
        guard let unreadOffset else { return nil }
        let start = String(decoding: data[(data.startIndex + unreadOffset)...].prefix(20), as: UTF8.self)
        return (location(ofOffset: unreadOffset), start)
    }

    /// The byte offset at which the value at `path` starts.
    func offset(of path: JSONPath) -> Int? {
        offsets.value(at: path)?.valueOffset
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

/// Collects the byte offsets of values and keys while parsing, and finds them again by path.
///
/// Each value is one entry in a table, in the order parsed, and is found from its container's entry
/// and its key or index: recording a value costs an append and one insertion keyed by a single
/// step, where keying every value by its whole path copied the path and hashed every step of it
/// (a quarter of loading a folder of mapping files).
struct JSONLocationRecorder: Sendable {
    /// Where one value was written: its first byte and, for an object member, its key's.
    struct Written: Sendable {
        let valueOffset: Int
        let keyOffset: Int?
    }

    /// A value's place in the document: its container's entry and the step from there.
    private struct Step: Hashable, Sendable {
        let container: Int
        let component: JSONPath.Component
    }

    /// Every value, in the order parsed: the root first.
    private var values: [Written] = []
    /// The entry of the value each step leads to; for a repeated key, its last occurrence, the one
    /// that the parsed document holds.
    private var steps: [Step: Int] = [:]
    /// For a repeated key, the entries of its earlier occurrences, in order: what is written inside
    /// them keeps its location (a key repeated there is warned about at its place).
    private var earlierOccurrences: [Step: [Int]] = [:]
    /// The open containers, innermost last: each one's entry, and the step to the value it reads
    /// next, with that member's key offset.
    private var open: [(container: Int, component: JSONPath.Component, keyOffset: Int?)] = []
    /// Members whose key repeats an earlier key of the same object.
    private(set) var duplicateKeys: [JSONPath] = []

    /// A recorder for a document of `byteCount` bytes, with room for its values at once: a
    /// mapping file's values are a dozen or more bytes apart, and growing the table of steps one
    /// doubling at a time was half of recording them. Large documents get room for 4,096 values
    /// at first, and grow from there.
    init(reservingFor byteCount: Int) {
        let expected = min(byteCount / 12, 4_096)
        values.reserveCapacity(expected)
        steps.reserveCapacity(expected)
    }

    /// Records that the current value starts at `offset`.
    mutating func recordValue(at offset: Int) {
        guard let current = open.last else {
            values.append(Written(valueOffset: offset, keyOffset: nil))
            return
        }
        let step = Step(container: current.container, component: current.component)
        if let earlier = steps.updateValue(values.count, forKey: step) {
            earlierOccurrences[step, default: []].append(earlier)
            duplicateKeys.append(JSONPath(open.map(\.component)))
        }
        values.append(Written(valueOffset: offset, keyOffset: current.keyOffset))
    }

    /// Enters the object just recorded, whose first member comes next.
    mutating func enterObject() {
        open.append((values.count - 1, .key(""), nil))
    }

    /// Moves to the member named `key`, written at `offset`.
    mutating func enterMember(_ key: String, at offset: Int) {
        open[open.count - 1].component = .key(key)
        open[open.count - 1].keyOffset = offset
    }

    /// Leaves the innermost object.
    mutating func leaveObject() {
        open.removeLast()
    }

    /// Enters the array just recorded, whose first element comes next.
    mutating func enterArray() {
        open.append((values.count - 1, .index(0), nil))
    }

    /// Moves to the element at `index`.
    mutating func enterElement(_ index: Int) {
        open[open.count - 1].component = .index(index)
    }

    /// Leaves the innermost array.
    mutating func leaveArray() {
        open.removeLast()
    }

    /// Where the value at `path` was written, or `nil` when the document has no such value. Under
    /// a repeated key, the path is followed through every occurrence, and the value written last
    /// wins: the one the parsed document holds when the path leads through the last occurrences.
    func value(at path: JSONPath) -> Written? {
        guard !values.isEmpty else { return nil }
        var entries = [0]
        for component in path.components {
            entries = entries.flatMap { entry -> [Int] in
                let step = Step(container: entry, component: component)
                guard let last = steps[step] else { return [] }
                return (earlierOccurrences[step] ?? []) + [last]
            }
        }
        return entries.max().map { values[$0] }
    }
}
