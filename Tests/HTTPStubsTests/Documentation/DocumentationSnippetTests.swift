import Foundation
import Testing

/// The code shown to users stays compiled: every ```swift block of README.md and of every DocC catalog
/// (`Sources/*/*.docc/**/*.md`) must occur in a file under `Tests/`.
///
/// The rule: the block and the file are compared as code, whatever their layout: whitespace and line breaks are
/// dropped, and so is a comma just before a closing bracket or parenthesis (the formatter adds it where a list
/// spans lines); the block's code must then occur in the file's. A block may therefore be a fragment of a test
/// body, indented and wrapped differently (the tests are formatted at 120 columns, the documents for reading). Every file under `Tests/` that reads as UTF-8 counts, compiled or
/// not: a `Package.swift` fragment shown as ```swift has a verbatim copy in `Tests/Fixtures/Documentation/`, which
/// no target compiles (such copies are the only exception to "compiled"; keep them for manifest fragments only).
/// A block that cannot be compiled otherwise (shell, JSON, output) is fenced as ```sh, ```json or ```text.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every Markdown file of a DocC catalog, relative to the package root.
    static func documents() -> [String] {
        var documents = ["README.md"]
        let fileManager = FileManager.default
        let sources = packageRoot.appendingPathComponent("Sources")
        let targets = (try? fileManager.contentsOfDirectory(atPath: sources.path)) ?? []
        for target in targets.sorted() {
            let targetFolder = sources.appendingPathComponent(target)
            let entries = (try? fileManager.contentsOfDirectory(atPath: targetFolder.path)) ?? []
            for catalog in entries.sorted() where catalog.hasSuffix(".docc") {
                documents += files(under: "Sources/\(target)/\(catalog)").filter { $0.hasSuffix(".md") }
            }
        }
        return documents
    }

    /// The files under a folder (relative to the package root), recursively, sorted.
    static func files(under folder: String) -> [String] {
        let root = packageRoot.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path,
                isDirectory: &isDirectory
            ),
                !isDirectory.boolValue
            {
                files.append("\(folder)/\(path)")
            }
        }
        return files.sorted()
    }

    /// Trims each line and drops blank ones: the form both sides are compared in.
    static func normalized<S: StringProtocol>(_ lines: [S]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The code of some lines without its layout: no whitespace, no line breaks, no comma before `]` or `)`.
    static func code<S: StringProtocol>(_ lines: [S]) -> String {
        var code = String(
            String.UnicodeScalarView(
                lines.joined(separator: "\n").unicodeScalars.filter {
                    !CharacterSet.whitespacesAndNewlines.contains($0)
                }
            )
        )
        for closing in ["]", ")"] {
            code = code.replacingOccurrences(of: "," + closing, with: closing)
        }
        return code
    }

    /// Every file under `Tests/` that reads as UTF-8, as code (see ``code(_:)``), by path.
    static let testFiles: [(path: String, code: String)] = files(under: "Tests").compactMap { path in
        guard let text = try? String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8) else {
            return nil
        }
        return (path, code(text.split(separator: "\n", omittingEmptySubsequences: false)))
    }

    /// A ```swift block of a document.
    struct SwiftBlock {
        /// The 1-based line numbers of the opening and the closing fence.
        var fenceLine: Int
        var closingLine: Int
        var lines: [String]
    }

    /// The ```swift blocks of a Markdown text. A fence is a line whose trimmed text starts with three or more
    /// backticks (or tildes); the block is Swift when the first word of its info string is `swift`.
    static func swiftBlocks(in text: String) -> [SwiftBlock] {
        var blocks: [SwiftBlock] = []
        var open: (fence: String, isSwift: Bool, line: Int, lines: [String])?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if line.hasPrefix(block.fence),
                    line.drop(while: { $0 == block.fence.first }).trimmingCharacters(in: .whitespaces).isEmpty
                {
                    if block.isSwift {
                        blocks.append(SwiftBlock(fenceLine: block.line, closingLine: index + 1, lines: block.lines))
                    }
                    open = nil
                } else {
                    block.lines.append(String(rawLine))
                    open = block
                }
            } else if let marker = line.first, marker == "`" || marker == "~" {
                let fence = String(line.prefix { $0 == marker })
                guard fence.count >= 3 else { continue }
                let info = line.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                let language = info.split(whereSeparator: { $0 == " " || $0 == "{" }).first.map(String.init) ?? ""
                open = (fence, language == "swift", index + 1, [])
            }
        }
        return blocks
    }

    @Test("each ```swift block of a document occurs in a file under Tests/", arguments: documents())
    func everySwiftBlockIsInATestFile(document: String) throws {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
        for block in Self.swiftBlocks(in: text) {
            let run = Self.normalized(block.lines)
            let code = Self.code(block.lines)
            let found = Self.testFiles.contains { $0.code.contains(code) }
            #expect(
                found,
                """
                \(document):\(block.fenceLine): the ```swift block at lines \(block.fenceLine)–\(block.closingLine) \
                (first line: `\(run.first ?? "")`) occurs in no file under Tests/. Put the block verbatim in a test \
                under Tests/ (Tests/HTTPStubsTests/Documentation/…, XCTest ones in Tests/HTTPStubsXCTests/Documentation/) \
                that runs it, or, if it cannot compile, change the fence's language (```sh, ```json, ```text); a \
                Package.swift fragment keeps ```swift only with a verbatim copy in Tests/Fixtures/Documentation/.
                """
            )
        }
    }

    /// Complete test files the documentation shows whole (the file minus its first line, a comment saying where it
    /// is shown), so that what users copy is a file that compiles and passes here.
    @Test(
        "a complete example file is shown whole",
        arguments: [
            "Tests/HTTPStubsTests/Testing/ReadmeSwiftTestingExample.swift",
            "Tests/HTTPStubsTests/Testing/ReadmeVirtualTimeExample.swift",
            "Tests/HTTPStubsXCTests/ReadmeXCTestExample.swift",
        ]
    )
    func completeExampleIsShownWhole(path: String) throws {
        let file = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
        let example = Self.normalized(
            file.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { $0 }
        )
        let shown = try Self.documents().contains { document in
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
            return Self.swiftBlocks(in: text).contains { Self.normalized($0.lines) == example }
        }
        #expect(
            shown,
            "no document shows \(path) whole any more; copy the file (without its first line) into the document that names it in that line"
        )
    }

    @Test("the block reader and the rule")
    func blockReaderAndRule() {
        let markdown = """
            Text.

            ```swift
            let a = 1

                let b = 2
            ```

            ```sh
            swift test
            ```

            - item:
              ```swift title="x"
              f()
              ```
            """
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(blocks.map(\.fenceLine) == [3, 14])
        #expect(blocks.map { Self.normalized($0.lines) } == [["let a = 1", "let b = 2"], ["f()"]])
        let file = Self.code(["func t() {", "    let a = 1", "", "    let b = 2", "}"])
        #expect(file.contains(Self.code(blocks[0].lines)))
        #expect(!file.contains(Self.code(["let b = 2", "let a = 1"])))
        #expect(!file.contains(Self.code(["let a = 2"])))
        let wrapped = Self.code(["f(", "    a,", "    b,", ")  // one call"])
        #expect(wrapped.contains(Self.code(["f(a, b)  // one call"])))
    }
}
