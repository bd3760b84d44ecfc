import HTTPStubs
import HTTPStubsFiles

/// The flags of `stubs lint` and `stubs match` that choose which stubs are response templates
/// (``StubTemplating``). They are named as WireMock's standalone server names them, so that a
/// WireMock command line carries over: `--global-response-templating` renders every stub, and
/// `--local-response-templating` (the default, WireMock 3's too) only the stubs with
/// `"transformers": ["response-template"]`. `--disable-template-escaping` makes `{{ }}` print values
/// unescaped (``StubTemplating/withoutEscaping``), as WireMock 3 does by default; WireMock's standalone
/// has no such flag (3.x never escapes, 2.x always does), so it is named after WireMock's Java setting
/// `withTemplateEscapingDisabled`.
enum TemplatingFlag {
    /// Every stub is a template (``StubTemplating/global``).
    static let global = "--global-response-templating"
    /// Only the stubs that ask (``StubTemplating/perStub``), written out.
    static let local = "--local-response-templating"
    /// `{{ }}` does not HTML-escape (``StubTemplating/withoutEscaping``).
    static let disableEscaping = "--disable-template-escaping"

    /// Whether `argument` is one of the flags, or one of them given a value (`--global-response-templating=true`),
    /// which ``templating(_:command:)`` refuses with a hint rather than as an unknown option.
    static func isFlag(_ argument: String) -> Bool {
        [global, local, disableEscaping].contains { argument == $0 || argument.hasPrefix($0 + "=") }
    }

    /// The templating that `flags` (the arguments ``isFlag(_:)`` accepted, in order) ask for, or a
    /// usage error of `command` saying how to write them: the flags take no value, and the first two
    /// contradict each other. Repeating one is harmless.
    static func templating(_ flags: [String], command: String) throws -> StubTemplating {
        if let withValue = flags.first(where: { $0.contains("=") }) {
            let flag = String(withValue.prefix { $0 != "=" })
            throw UsageError("'\(flag)' takes no value; write '\(flag)' alone", command: command)
        }
        if flags.contains(global) && flags.contains(local) {
            throw UsageError(
                "'\(global)' and '\(local)' contradict each other; keep '\(global)' to render every stub "
                    + "as a template, or neither to render only stubs with \"transformers\": [\"response-template\"]",
                command: command
            )
        }
        let templating: StubTemplating = flags.contains(global) ? .global : .perStub
        return flags.contains(disableEscaping) ? templating.withoutEscaping : templating
    }
}
