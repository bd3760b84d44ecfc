import Foundation

/// The `stubs` command-line tool: lint, list, match and import stub files.
package enum StubsCommand {
    static let overview = """
        stubs: check, list and try WireMock stub files and HAR captures, as swift-http-stubs loads them.

        Usage:
          stubs lint PATH... [--global-response-templating] [--disable-template-escaping]
                                                   validate stub roots, mapping files and HAR files
          stubs list PATH...                       one line per stub: source, priority, method, URL, status, scenario
          stubs match --stubs PATH... METHOD URL [-H 'Name: value']... [--data TEXT]
                                                   which stub answers a request, and why not
          stubs match --stubs PATH... --requests FILE|-
                                                   answer JSON Lines requests, one JSON line each
          stubs import-har FILE.har --into ROOT [--force]
                                                   write a capture as WireMock mappings + __files/

        PATH is a stub root (a folder with mappings/ and __files/), a folder of mapping files, a mapping
        file, or a .har file. lint and match take WireMock's --global-response-templating (every stub is
        a response template) and --disable-template-escaping ('{{ }}' prints values unescaped, as WireMock 3
        does by default). Run 'stubs COMMAND --help' for details.

        """

    /// Runs the tool with `arguments` (without the program name) and returns the exit status:
    /// 0 success, 1 problems found (lint errors, unmatched requests), 2 wrong usage or unloadable input.
    package static func run(_ arguments: [String], io: inout some CommandIO) -> Int32 {
        let command = arguments.first ?? ""
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "":
                throw UsageError("give a command: lint, list, match or import-har")
            case "-h", "--help", "help":
                if let topic = rest.first, let text = help(for: topic) {
                    io.out(text)
                } else {
                    io.out(overview)
                }
                return 0
            case "lint", "list", "match", "import-har":
                if asksForHelp(rest) {
                    io.out(help(for: command) ?? overview)
                    return 0
                }
                switch command {
                case "lint": return try LintCommand.run(rest, io: &io)
                case "list": return try ListCommand.run(rest, io: &io)
                case "match": return try MatchCommand.run(rest, io: &io)
                default: return try ImportHARCommand.run(rest, io: &io)
                }
            default:
                throw UsageError("unknown command '\(command)'; the commands are lint, list, match and import-har")
            }
        } catch let error as UsageError {
            io.err(error.line)
            return 2
        } catch {
            io.err("stubs: error: \(error)\n")
            return 2
        }
    }

    /// Whether `--help` or `-h` is among the arguments, other than as the value of an option.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        let optionsWithValues: Set<String> = ["--stubs", "--requests", "-H", "--header", "-d", "--data", "--into"]
        return arguments.indices.contains { index in
            ["--help", "-h"].contains(arguments[index])
                && (index == 0 || !optionsWithValues.contains(arguments[index - 1]))
        }
    }

    static func help(for command: String) -> String? {
        switch command {
        case "lint": return LintCommand.help
        case "list": return ListCommand.help
        case "match": return MatchCommand.help
        case "import-har": return ImportHARCommand.help
        default: return nil
        }
    }

    /// The paths of a command that takes only paths, or a usage error.
    static func paths(_ arguments: [String], command: String) throws -> [String] {
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
            throw UsageError("unknown option '\(option)'", command: command)
        }
        guard !arguments.isEmpty else { throw UsageError("give at least one PATH", command: command) }
        return arguments
    }
}
