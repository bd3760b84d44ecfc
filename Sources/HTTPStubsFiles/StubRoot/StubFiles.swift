import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// Loads stub files: WireMock stub roots (`mappings/**/*.json` + `__files/`), folders of mapping
/// files, single mapping files, and HAR captures.
///
/// Files load in lexicographic path order, so when two stubs tie on priority the one from the
/// later file wins (WireMock itself leaves the order unspecified).
package enum StubFiles {
    /// Loads every stub file under `paths`. Nothing is thrown: every problem, with its file,
    /// line, column and JSON path, is in the result's ``StubFileLoad/diagnostics``; a file with an
    /// error contributes the stubs that had none.
    /// - Parameter wallClock: Where date-time operators read "now"; the system's calendar time
    ///   unless a test fixes it.
    /// - Parameter templating: Which stubs render their responses as templates.
    static func load(_ paths: [String], wallClock: WallClock, templating: StubTemplating = .perStub) -> StubFileLoad {
        var stubs: [Stub] = []
        var diagnostics: [StubDiagnostic] = []
        var files: [String] = []
        for path in paths {
            let (found, problems) = stubFiles(at: path)
            diagnostics += problems
            for file in found {
                files.append(file.path)
                let result = load(file, wallClock: wallClock, templating: templating)
                stubs += result.stubs
                diagnostics += result.diagnostics
            }
        }
        return StubFileLoad(stubs: stubs, diagnostics: diagnostics, files: files)
    }

    /// Loads every stub file under `paths` (see ``load(_:wallClock:)``), "now" being the system's
    /// calendar time.
    package static func load(_ paths: [String], templating: StubTemplating = .perStub) -> StubFileLoad {
        load(paths, wallClock: .system, templating: templating)
    }

    /// A file to load, and the `__files` folder its body files live in.
    struct File {
        let path: String
        let filesRoot: URL
    }

    /// The files under `path`, sorted, with their `__files` folders.
    static func stubFiles(at path: String) -> ([File], [StubDiagnostic]) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return (
                [],
                [
                    StubDiagnostic(
                        severity: .error,
                        path: path,
                        message:
                            "no such file or directory; give a stub root (a folder with mappings/), "
                            + "a folder of mapping files, a mapping file or a .har file"
                    )
                ]
            )
        }
        let url = URL(fileURLWithPath: path)
        guard isDirectory.boolValue else {
            let directory = url.deletingLastPathComponent()
            return ([File(path: path, filesRoot: filesRoot(for: directory, fallback: directory))], [])
        }
        let mappings = url.appendingPathComponent("mappings")
        var mappingsIsDirectory: ObjCBool = false
        let isStubRoot =
            manager.fileExists(atPath: mappings.path, isDirectory: &mappingsIsDirectory)
            && mappingsIsDirectory.boolValue
        let folder = isStubRoot ? mappings : url
        let prefix = isStubRoot ? (path as NSString).appendingPathComponent("mappings") : path
        let subpaths: [String]
        do {
            subpaths = try manager.subpathsOfDirectory(atPath: folder.path)
        } catch {
            return (
                [],
                [
                    StubDiagnostic(
                        severity: .error,
                        path: folder.path,
                        message: "cannot be listed: \(FileFailure.readProblem(error))"
                    )
                ]
            )
        }
        let (confined, escapes) = linksLeadingOutside(subpaths, of: folder, listedAs: prefix)
        let relative =
            confined
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".har") }
            .filter { !$0.split(separator: "/").contains("__files") }
            .sorted()
        // In a folder of stub roots, each file's body files sit beside its own mappings folder:
        // found once per folder, not once per file.
        let rootFiles = url.appendingPathComponent("__files")
        var filesRoots: [Substring: URL] = [:]
        let separator = prefix.hasSuffix("/") ? "" : "/"
        let files = relative.map { name in
            let file = prefix + separator + name
            guard !isStubRoot else { return File(path: file, filesRoot: rootFiles) }
            let directory = name.lastIndex(of: "/").map { name[..<$0] } ?? ""
            if let known = filesRoots[directory] { return File(path: file, filesRoot: known) }
            let found = filesRoot(
                for: URL(fileURLWithPath: file, isDirectory: false).deletingLastPathComponent(),
                fallback: url
            )
            filesRoots[directory] = found
            return File(path: file, filesRoot: found)
        }
        if files.isEmpty && escapes.isEmpty {
            return (
                [],
                [
                    StubDiagnostic(
                        severity: .warning,
                        path: path,
                        message: "no .json or .har files found\(isStubRoot ? " in mappings/" : "")"
                    )
                ]
            )
        }
        return (files, escapes)
    }

    /// `subpaths` of `folder` without the symbolic links that lead outside it, and an error for
    /// each such link that names a stub file or a folder (which the listing does not enter).
    ///
    /// WireMock follows links in its root; so does the loader, as long as they stay inside the
    /// folder it lists (the stub root's `mappings`, or the folder given), as body files must stay
    /// inside `__files`. A file outside is never read, so no line of it can appear in a message.
    /// A link to a folder inside is skipped: its files are loaded where they really are.
    private static func linksLeadingOutside(
        _ subpaths: [String],
        of folder: URL,
        listedAs prefix: String
    ) -> (confined: [String], errors: [StubDiagnostic]) {
        let base = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var confined: [String] = []
        var errors: [StubDiagnostic] = []
        for subpath in subpaths {
            let path = folder.appendingPathComponent(subpath).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) else {
                confined.append(subpath)
                continue
            }
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            let isFolder = RegularFile.kind(atPath: path) == RegularFile.folderKind
            if target.hasPrefix(base + "/") {
                if !isFolder { confined.append(subpath) }
                continue
            }
            guard isFolder || subpath.hasSuffix(".json") || subpath.hasSuffix(".har") else { continue }
            let listed = prefix + (prefix.hasSuffix("/") ? "" : "/") + subpath
            errors.append(
                StubDiagnostic(
                    severity: .error,
                    path: listed,
                    message:
                        "is a symbolic link to a \(isFolder ? "folder" : "file") outside \(folder.path); "
                        + "refused, and not read: move or copy the \(isFolder ? "files" : "file") into "
                        + "\(folder.path), or link to \(isFolder ? "a folder" : "a file") inside it"
                )
            )
        }
        return (confined, errors)
    }

    /// The `__files` folder for mapping files in `directory`: beside the nearest enclosing
    /// `mappings` folder, else inside `fallback`.
    private static func filesRoot(for directory: URL, fallback: URL) -> URL {
        var current = directory.standardizedFileURL
        while current.pathComponents.count > 1 {
            if current.lastPathComponent == "mappings" {
                return current.deletingLastPathComponent().appendingPathComponent("__files")
            }
            current = current.deletingLastPathComponent()
        }
        return fallback.appendingPathComponent("__files")
    }

    /// The bytes of the mapping file or HAR capture at `path`, or an error saying why it cannot be
    /// read: it is missing or unreadable, or it is not a regular file (a FIFO would block the load).
    private static func readStubFile(_ path: String) throws(StubDiagnostic) -> Data {
        do {
            return try RegularFile.read(path)
        } catch {
            let problem: String
            switch error {
            case .notRegular(RegularFile.folderKind):
                problem = "\(FileFailure.reason(code: EISDIR)); \(FileFailure.readAdvice(code: EISDIR))"
            case let .notRegular(kind): problem = "\(error.reason); \(RegularFile.advice(forKind: kind))"
            case .missing: problem = "\(error.reason); \(FileFailure.readAdvice(code: ENOENT))"
            case let .system(code): problem = "\(error.reason); \(FileFailure.readAdvice(code: code))"
            case .symbolicLink: problem = error.reason
            }
            throw StubDiagnostic(severity: .error, path: path, message: "cannot be read: \(problem)")
        }
    }

    /// Loads one file: a HAR capture (by its `.har` extension or its `log` member) or WireMock mappings.
    static func load(
        _ file: File,
        wallClock: WallClock = .system,
        templating: StubTemplating = .perStub
    ) -> (stubs: [Stub], diagnostics: [StubDiagnostic]) {
        let data: Data
        do {
            data = try readStubFile(file.path)
        } catch {
            return ([], [error])
        }
        // HAR captures are strict JSON; mappings are read as WireMock reads them.
        let harByName = file.path.hasSuffix(".har")
        let document: JSONDocument
        do {
            document = try JSONValue.parseDocument(data, dialect: harByName ? .strict : .wireMock)
        } catch {
            return (
                [],
                [
                    StubDiagnostic(
                        severity: .error,
                        path: file.path,
                        line: error.line,
                        column: error.column,
                        jsonPath: error.jsonPath ?? "$",
                        message: "invalid JSON: \(error.message)"
                    )
                ]
            )
        }
        let isHAR = harByName || document.root.objectValue?["log"] != nil
        let wireMock =
            isHAR
            ? nil
            : WireMockMappingReader(path: file.path, document: document, wallClock: wallClock, templating: templating)
        let reader = wireMock ?? StubFileReader(path: file.path, document: document)
        for duplicate in document.duplicateKeys {
            reader.warning(key: duplicate, "this key appears more than once in its object; the last value wins")
        }
        if let unread = document.unreadText {
            reader.warning(
                "text after the file's JSON value is ignored, as WireMock ignores it (it starts "
                    + "\(quoted(unread.start))); remove it, or put a second mapping in the \"mappings\" array",
                at: unread.location
            )
        }
        let stubs = wireMock?.mappingStubs(filesRoot: file.filesRoot) ?? HARReader(file: reader).stubs()
        return (stubs, reader.diagnostics)
    }
}

extension StubFiles {
    /// A file to write into a stub root.
    package struct OutputFile: Sendable {
        /// The path relative to the stub root (`mappings/get-users-1a2b3c4d.json`).
        package let relativePath: String
        /// The contents.
        package let contents: Data
    }

    /// Converts a HAR capture into WireMock mappings and `__files/` bodies, ready to check in: one
    /// mapping per distinct request, JSON bodies pretty-printed, repeated requests as a scenario.
    /// Secrets are redacted as recording redacts them (``Redaction/default``) unless `redaction`
    /// says otherwise; pass ``Redaction/none`` to keep everything.
    /// - Returns: The files to write, or nothing and the diagnostics when the capture has errors.
    package static func importHAR(
        _ path: String,
        redaction: Redaction = .default
    ) -> (files: [OutputFile], diagnostics: [StubDiagnostic]) {
        let data: Data
        do {
            data = try readStubFile(path)
        } catch {
            return ([], [error])
        }
        let document: JSONDocument
        do {
            document = try JSONValue.parseDocument(data)
        } catch {
            return (
                [],
                [
                    StubDiagnostic(
                        severity: .error,
                        path: path,
                        line: error.line,
                        column: error.column,
                        jsonPath: error.jsonPath ?? "$",
                        message: "invalid JSON: \(error.message)"
                    )
                ]
            )
        }
        let reader = StubFileReader(path: path, document: document)
        let files = HARImporter(file: reader, redaction: redaction).mappingFiles()
        guard !reader.diagnostics.contains(where: { $0.severity == .error }) else { return ([], reader.diagnostics) }
        return (files.map { OutputFile(relativePath: $0.relativePath, contents: $0.contents) }, reader.diagnostics)
    }
}
