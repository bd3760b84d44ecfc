/// Wrong command-line usage: exit status 2 and a one-line hint.
struct UsageError: Error {
    let message: String
    let command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// `stubs: error: <message>; run 'stubs <command> --help'`.
    var line: String {
        "stubs: error: \(message); run 'stubs \(command.map { "\($0) " } ?? "")--help'\n"
    }
}
