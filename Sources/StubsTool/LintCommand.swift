import HTTPStubs
import HTTPStubsFiles

/// `stubs lint PATH...`
enum LintCommand {
    static let help = """
        Usage: stubs lint PATH... [--global-response-templating] [--disable-template-escaping]

        Validates stub roots, mapping files and HAR files as swift-http-stubs loads them. Prints every
        problem as 'path:line:column: error|warning: $.json.path: message' (editors make these lines
        clickable), then a summary.

        Response templates are checked in the stubs with "transformers": ["response-template"]; with
        --global-response-templating, in every stub, as WireMock started with that flag renders them
        (--local-response-templating, the default, is accepted too). --disable-template-escaping is
        accepted as 'stubs match' takes it; escaping changes what templates print, not what lint reports.

        Exit status: 0 when there is no error (warnings allowed), 1 when there are errors, 2 on wrong usage.

        """

    static func run(_ arguments: [String], io: inout some CommandIO) throws -> Int32 {
        let flags = arguments.filter(TemplatingFlag.isFlag)
        let templating = try TemplatingFlag.templating(flags, command: "lint")
        let paths = try StubsCommand.paths(arguments.filter { !TemplatingFlag.isFlag($0) }, command: "lint")
        let result = StubFiles.load(paths, templating: templating)
        for diagnostic in result.diagnostics {
            io.out("\(diagnostic)\n")
        }
        let errors = result.errors.count
        let warnings = result.warnings.count
        io.out(
            "\(result.files.count) \(plural(result.files.count, "file")), "
                + "\(result.stubs.count) \(plural(result.stubs.count, "stub")): "
                + "\(errors) \(plural(errors, "error")), \(warnings) \(plural(warnings, "warning"))\n"
        )
        return errors == 0 ? 0 : 1
    }
}

/// `1 file`, `2 files`.
func plural(_ count: Int, _ word: String) -> String {
    count == 1 ? word : word + "s"
}
