import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A temporary folder, removed by ``remove()``, whose `stubs` sub-folder is the stub root (not
/// created: recording in `once` mode needs a missing root).
struct RecordingRoot {
    /// The temporary folder.
    let folder: URL

    /// Creates the temporary folder.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "httpstubs-recording-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The stub root's path.
    var path: String { folder.appendingPathComponent("stubs").path }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The names of the files in `mappings/`, sorted.
    func mappingNames() -> [String] {
        names(in: "mappings")
    }

    /// The names of the files in `__files/`, sorted.
    func bodyFileNames() -> [String] {
        names(in: "__files")
    }

    /// The temporary files (`.<name>.<UUID>.tmp`) left in `mappings/` or `__files/`.
    func temporaryFiles() -> [String] {
        (mappingNames() + bodyFileNames()).filter { $0.hasPrefix(".") || $0.hasSuffix(".tmp") }
    }

    /// The names of the files in a sub-folder of the root, sorted; none when it does not exist.
    private func names(in subfolder: String) -> [String] {
        let url = URL(fileURLWithPath: path).appendingPathComponent(subfolder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// The text of a file, by its path relative to the root.
    func text(_ relativePath: String) throws -> String {
        try String(contentsOf: URL(fileURLWithPath: path).appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// Replaces a file's text, by its path relative to the root.
    func write(_ text: String, to relativePath: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent(relativePath))
    }

    /// The parsed mapping file whose name starts with `prefix` and whose text contains `text`, if
    /// given (there must be exactly one).
    func mapping(prefix: String, containing text: String? = nil) throws -> JSONValue {
        let matching = try mappingNames().filter { name in
            try name.hasPrefix(prefix) && text.map { try self.text("mappings/\(name)").contains($0) } ?? true
        }
        let name = try #require(matching.count == 1 ? matching.first : nil, "no single \(prefix)… in \(mappingNames())")
        return try JSONValue(parsing: self.text("mappings/\(name)"))
    }

    /// Every file under the root, by relative path, with its bytes.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        for subfolder in ["mappings", "__files"] {
            for name in names(in: subfolder) {
                let relativePath = "\(subfolder)/\(name)"
                files[relativePath] = try? Data(
                    contentsOf: URL(fileURLWithPath: path).appendingPathComponent(relativePath)
                )
            }
        }
        return files
    }

    /// Every byte under the root (all files, whatever their folder), decoded leniently as UTF-8, with
    /// the file names: what a secret must never be found in.
    func allText() -> String {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return "" }
        var text = ""
        while let relativePath = enumerator.nextObject() as? String {
            text += relativePath + "\n"
            if let data = FileManager.default.contents(
                atPath: URL(fileURLWithPath: path).appendingPathComponent(relativePath).path
            ) {
                text += String(decoding: data, as: UTF8.self) + "\n"
            }
        }
        return text
    }

    /// The files in `__files/` that no mapping names as its `bodyFileName`.
    func unreferencedBodyFiles() throws -> [String] {
        var referenced: Set<String> = []
        for name in mappingNames() {
            let document = try JSONValue(parsing: text("mappings/\(name)"))
            let mappings = document.objectValue?["mappings"]?.arrayValue ?? [document]
            referenced.formUnion(mappings.compactMap(\.bodyFileName))
        }
        return bodyFileNames().filter { !referenced.contains($0) }
    }
}

extension JSONValue {
    /// A mapping's `response.bodyFileName`.
    var bodyFileName: String? {
        objectValue?["response"]?.objectValue?["bodyFileName"]?.stringValue
    }
}

extension JournalEntry {
    /// The mapping file a recorded request went to, if it was recorded.
    var recordedFile: String? {
        if case let .recorded(file) = outcome { return file }
        return nil
    }
}
