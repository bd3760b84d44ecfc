import Foundation
import HTTPStubs

/// Reads one stub file's JSON, keeping what a diagnostic needs to point at the right place: the
/// core each format's reader shares (``WireMockMappingReader``, ``HARReader``). A format's own
/// reading rules belong to its reader type, never to a flag another format could set here.
class StubFileReader {
    /// The file's path as given to the loader, for diagnostics.
    let path: String
    /// The parsed file.
    let document: JSONDocument
    /// What was found wrong so far.
    private(set) var diagnostics: [StubDiagnostic] = []
    /// Whether integers may be written as strings (`"201"`); a format's reader says so for all its files.
    var readsIntegerStrings: Bool { false }

    init(path: String, document: JSONDocument) {
        self.path = path
        self.document = document
    }

    /// Whether an error that refuses the stub (not a warning, nor an error on use) was reported since
    /// `count` diagnostics were recorded.
    func hasErrors(since count: Int) -> Bool {
        diagnostics[count...].contains { $0.severity == .error && !$0.stubLoadsAnyway }
    }

    /// How many diagnostics there are; pass to ``hasErrors(since:)``.
    var mark: Int { diagnostics.count }

    /// Reports an error at the value at `jsonPath`.
    func error(_ message: String, at jsonPath: JSONPath) {
        report(.error, message, at: jsonPath, key: false)
    }

    /// Reports an error about the value at `jsonPath` at a place inside it (a template's tag in a
    /// string), or at the value's start when `location` is `nil`.
    func error(_ message: String, at jsonPath: JSONPath, location: JSONSourceLocation?) {
        guard let location else { return error(message, at: jsonPath) }
        diagnostics.append(
            StubDiagnostic(
                severity: .error,
                path: path,
                line: location.line,
                column: location.column,
                jsonPath: jsonPath.description,
                message: message
            )
        )
    }

    /// Reports an error at the value at `jsonPath` that fails only the requests its stub answers:
    /// the stub loads all the same.
    func errorOnUse(_ message: String, at jsonPath: JSONPath) {
        let location = document.location(of: jsonPath)
        diagnostics.append(
            StubDiagnostic(
                severity: .error,
                path: path,
                line: location?.line,
                column: location?.column,
                jsonPath: jsonPath.description,
                message: message,
                stubLoadsAnyway: true
            )
        )
    }

    /// Reports a warning at the value at `jsonPath`.
    func warning(_ message: String, at jsonPath: JSONPath) {
        report(.warning, message, at: jsonPath, key: false)
    }

    /// Reports a warning at the key of the member at `jsonPath`.
    func warning(key jsonPath: JSONPath, _ message: String) {
        report(.warning, message, at: jsonPath, key: true)
    }

    /// Reports a warning at a place in the file that no JSON path names (after the value).
    func warning(_ message: String, at location: JSONSourceLocation) {
        diagnostics.append(
            StubDiagnostic(
                severity: .warning,
                path: path,
                line: location.line,
                column: location.column,
                message: message
            )
        )
    }

    /// The line and column of the value at `jsonPath`.
    func location(of jsonPath: JSONPath) -> JSONSourceLocation? {
        document.location(of: jsonPath)
    }

    private func report(_ severity: StubDiagnostic.Severity, _ message: String, at jsonPath: JSONPath, key: Bool) {
        let location =
            key
            ? (document.keyLocation(of: jsonPath) ?? document.location(of: jsonPath)) : document.location(of: jsonPath)
        diagnostics.append(
            StubDiagnostic(
                severity: severity,
                path: path,
                line: location?.line,
                column: location?.column,
                jsonPath: jsonPath.description,
                message: message
            )
        )
    }

    // MARK: Typed access

    /// The object at `jsonPath`, or an error saying what was found instead.
    func object(_ value: JSONValue, at jsonPath: JSONPath, _ what: String) -> JSONObject? {
        guard let object = value.objectValue else {
            error("\(what) must be a JSON object, found \(value.article)", at: jsonPath)
            return nil
        }
        return object
    }

    /// The string member `key` of `object`, if present; an error if it is not a string.
    func string(_ key: String, in object: JSONObject, at jsonPath: JSONPath) -> String? {
        guard let value = object[key] else { return nil }
        guard let string = value.stringValue else {
            error("'\(key)' must be a string, found \(value.article)", at: jsonPath.appending(.key(key)))
            return nil
        }
        return string
    }

    /// The integer member `key` of `object`, if present; an error if it is not an integer in `range`.
    func integer(
        _ key: String,
        in object: JSONObject,
        at jsonPath: JSONPath,
        in range: ClosedRange<Int64> = Int64.min...Int64.max
    ) -> Int? {
        guard let value = object[key] else { return nil }
        let number =
            value.numberValue?.int64Value ?? (readsIntegerStrings ? value.stringValue.flatMap { Int64($0) } : nil)
        guard let number, range.contains(number) else {
            let bounds =
                range.lowerBound == Int64.min
                ? "an integer"
                : "an integer from "
                    + "\(range.lowerBound)\(range.upperBound == Int64.max ? " up" : " to \(range.upperBound)")"
            error("'\(key)' must be \(bounds), found \(value.article)", at: jsonPath.appending(.key(key)))
            return nil
        }
        return Int(number)
    }

    /// The boolean member `key` of `object`, or `false`; an error if it is not a boolean.
    func flag(_ key: String, in object: JSONObject, at jsonPath: JSONPath) -> Bool {
        guard let value = object[key] else { return false }
        guard let flag = value.boolValue else {
            error("'\(key)' must be true or false, found \(value.article)", at: jsonPath.appending(.key(key)))
            return false
        }
        return flag
    }

    /// Warns about the members of `object` not in `known`, which are ignored (as WireMock ignores them).
    func warnAboutUnknownKeys(in object: JSONObject, at jsonPath: JSONPath, known: Set<String>, what: String) {
        for key in object.keys where !known.contains(key) && !key.hasPrefix("$") {
            warning(
                key: jsonPath.appending(.key(key)),
                "unknown key '\(key)' in \(what) is ignored; "
                    + "check its spelling (known keys: \(known.sorted().joined(separator: ", ")))"
            )
        }
    }
}
