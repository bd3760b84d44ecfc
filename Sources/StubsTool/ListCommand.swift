import Foundation
import HTTPStubs
import HTTPStubsFiles

/// `stubs list PATH...`
enum ListCommand {
    static let help = """
        Usage: stubs list PATH...

        Prints one line per stub, in load order: source (path:line:column), name (the mapping's
        "name", if any), priority, method, URL pattern, first response, and scenario. Secrets in
        URL patterns and response bodies are masked as <redacted:1a2b3c>, as in near-miss reports. Stub sources and
        body files inside the current directory are shown relative to it, others as absolute paths,
        however PATH was given. Problems go to standard error.

        Exit status: 0 when every file loaded, 1 when some had \
        errors (the stubs that loaded are listed), 2 on wrong usage.

        """

    static func run(_ arguments: [String], io: inout some CommandIO) throws -> Int32 {
        let result = StubFiles.load(try StubsCommand.paths(arguments, command: "list"))
        let here = FileManager.default.currentDirectoryPath
        // Listings go into terminals and CI logs: secrets in URL patterns, names and response
        // bodies are masked, as the near-miss report masks them.
        // Values a stub expects at secret names are masked wherever else they show (in a file
        // name made from its path, say).
        let rows = result.stubs.map { stub -> [String] in
            LogMasking.masking(LogMasking.secrets(expectedBy: stub.pattern)) {
                let source = stub.source
                return [
                    StubSource.file(
                        shown(source.file, from: here),
                        index: source.index,
                        line: source.line,
                        column: source.column
                    ).description,
                    stub.name.map(quoted) ?? "",
                    "P\(stub.priority)",
                    method(of: stub.pattern),
                    url(of: stub.pattern),
                    response(of: stub, from: here),
                    stub.scenario?.description ?? "",
                ].map(LogMasking.maskingSecrets)
            }
        }
        for row in rows {
            io.out(Table.line(row, widths: Table.widths(rows)) + "\n")
        }
        for diagnostic in result.diagnostics {
            io.err("\(diagnostic)\n")
        }
        return result.errors.isEmpty ? 0 : 1
    }

    /// `path` as the listing prints it, whether it was given relative or absolute: relative to
    /// `directory` when inside it (`Stubs/mappings/users.json`), else absolute.
    private static func shown(_ path: String, from directory: String) -> String {
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
            .standardizedFileURL.path
        let inside = directory.hasSuffix("/") ? directory : directory + "/"
        return absolute.hasPrefix(inside) ? String(absolute.dropFirst(inside.count)) : absolute
    }

    /// The first response's summary, a body file in it (`200 file /work/Stubs/__files/u.json`) shown
    /// as ``shown(_:from:)`` shows paths.
    private static func response(of stub: Stub, from directory: String) -> String {
        let summary = stub.responses.first?.summary ?? ""
        // A body file ends the summary, after the status and reason, which are never quoted (a
        // quoted text body may hold " file ").
        guard let file = summary.range(of: " file "), !summary[..<file.lowerBound].contains("\"") else {
            return summary
        }
        return summary[..<file.upperBound] + shown(String(summary[file.upperBound...]), from: directory)
    }

    private static func method(of pattern: RequestPattern) -> String {
        let methods = pattern.matchers.filter { $0.part == .method }.map {
            String($0.description.dropFirst("method ".count))
        }
        if let method = methods.first { return method }
        return pattern.matchers.first { $0.description.hasPrefix("(method ") }.map { $0.description } ?? "ANY"
    }

    private static func url(of pattern: RequestPattern) -> String {
        let parts: [RequestMatcher.Part] = [.scheme, .host, .port, .url]
        let described = pattern.matchers.filter { parts.contains($0.part) }.map(LogMasking.description(of:))
        return described.isEmpty ? "any URL" : described.joined(separator: " ")
    }
}

/// Left-aligned columns.
enum Table {
    static func widths(_ rows: [[String]]) -> [Int] {
        guard let columns = rows.first?.count else { return [] }
        return (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
    }

    static func line(_ row: [String], widths: [Int]) -> String {
        zip(row, widths).map { cell, width in cell.padding(toLength: width, withPad: " ", startingAt: 0) }
            .joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
    }
}
