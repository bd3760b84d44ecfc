import Foundation
import HTTPStubs
import HTTPStubsFiles

/// `stubs import-har FILE.har --into ROOT`
enum ImportHARCommand {
    static let help = """
        Usage: stubs import-har FILE.har --into ROOT [--force] [--keep-secrets]

        Writes a HAR capture as a WireMock stub root ready to check in: one mapping per distinct
        request in ROOT/mappings/, bodies in ROOT/__files/ (JSON pretty-printed), and repeated
        requests as a scenario that replays their answers in order. File names are deterministic
        (method, path, short hash), so importing again gives the same files.

        Secrets are redacted before anything is written, as recording does: the values of headers,
        query and matrix parameters, JSON members, form fields and XML elements named like
        credentials (Authorization, Cookie, token, password, api_key, ...), values shaped like
        credentials anywhere (JWTs, Bearer tokens, URL passwords), and secrets inside bodies that
        do not parse, become REDACTED; redacted values then match any value. --keep-secrets writes
        everything as captured.

        An existing file with different contents is not overwritten unless --force is given.

        Exit status: 0 when the files were written, 1 when existing files were kept, 2 when the capture
        cannot be read or on wrong usage.

        """

    static func run(_ arguments: [String], io: inout some CommandIO) throws -> Int32 {
        var capture: String?
        var root: String?
        var force = false
        var redaction = Redaction.default
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--into":
                index += 1
                guard index < arguments.count else { throw UsageError("--into needs a folder", command: "import-har") }
                root = arguments[index]
            case "--force":
                force = true
            case "--keep-secrets":
                redaction = .none
            case let argument where argument.hasPrefix("-"):
                throw UsageError("unknown option '\(argument)'", command: "import-har")
            case let argument:
                guard capture == nil else { throw UsageError("give one HAR file", command: "import-har") }
                capture = argument
            }
            index += 1
        }
        guard let capture else { throw UsageError("give the HAR file to import", command: "import-har") }
        guard let root else { throw UsageError("give the stub root to write with --into ROOT", command: "import-har") }

        let (files, diagnostics) = StubFiles.importHAR(capture, redaction: redaction)
        for diagnostic in diagnostics {
            io.err("\(diagnostic)\n")
        }
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return 2 }
        // Every destination is proven inside the root before anything is written.
        let destinations: [(relativePath: String, contents: Data, url: URL)]
        do {
            let rootURL = URL(fileURLWithPath: root)
            try StubRootPath.checkRoot(rootURL)
            destinations = try files.map {
                ($0.relativePath, $0.contents, try StubRootPath.file($0.relativePath, in: rootURL))
            }
        } catch {
            io.err("\(error)\n")
            return 2
        }
        func isKept(_ contents: Data, at url: URL) -> Bool {
            guard !force, let existing = FileManager.default.contents(atPath: url.path) else { return false }
            return existing != contents
        }
        // The body files of a mapping that is kept are not written either: nothing would use them.
        let bodiesOfKeptMappings = destinations.filter {
            $0.relativePath.hasPrefix("mappings/") && isKept($0.contents, at: $0.url)
        }
        .reduce(into: Set<String>()) { $0.formUnion(HARImporter.bodyFiles(referencedBy: $1.contents)) }
        var kept = 0
        for (relativePath, contents, url) in destinations {
            if bodiesOfKeptMappings.contains(relativePath) {
                io.err("\(url.path): not written: the mapping that names it was kept\n")
                continue
            }
            if isKept(contents, at: url) {
                io.err("\(url.path): error: exists with other contents; kept (use --force to overwrite)\n")
                kept += 1
                continue
            }
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                try contents.write(to: url, options: .atomic)
            } catch {
                io.err(
                    "\(url.path): error: cannot be written: "
                        + "\(FileFailure.writeProblem(error, alternative: "choose another --into"))\n"
                )
                return 2
            }
            io.out("wrote \(url.path)\n")
        }
        return kept == 0 ? 0 : 1
    }
}
