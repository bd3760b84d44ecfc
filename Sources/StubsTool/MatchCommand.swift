import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubs match`
enum MatchCommand {
    static let help = """
        Usage: stubs match --stubs PATH [--stubs PATH]... METHOD URL [-H 'Name: value']... [--data TEXT]
               stubs match --stubs PATH [--stubs PATH]... --requests FILE|-
        Both forms take --global-response-templating, --disable-template-escaping and --keep-secrets.

        The first form prints the answer like 'curl -i' (status line, headers, body) followed by the
        stub's source, or the near-miss report when no stub answers.

        The second form reads JSON Lines (FILE, or standard input for '-'), one request per line:
          {"method": "POST", "url": "https://host/path?q=1", "headers": {"Name": "value"}, "body": "text"}
        ("headers" and "body" are optional; "bodyBase64" replaces "body" for binary). All requests go,
        in order, through one registry, so sequences and scenarios advance from line to line. It prints
        exactly one JSON line per request:
          {"status": 200, "headers": {"Name": "value"}, "body": "text", "stub": "<source>"}
          ("bodyBase64" instead of "body" when the body is not UTF-8)
          {"error": {"code": -1005, "description": "..."}, "stub": "<source>"}   a stub answering with an error
          {"unmatched": true, "message": "...", "nearMisses": [...]}              no stub answered

        Each answer is printed as soon as its line has arrived, so a program can hold a conversation
        with 'stubs match' through a pipe; only the line being read is kept in memory, and a line may
        hold at most 16 MiB. A line that is not a valid request stops the run with 'FILE:LINE: error:'
        on stderr and exit status 2, after the answers to the lines before it.

        Delays are not waited for, and redirects are not followed: the stub's own answer is printed.

        What is printed goes into terminals and CI logs, so secrets are masked as <redacted:1a2b3c>
        (the same secret, the same mask): in near-miss reports, and in answers, their secret headers
        (Authorization, Set-Cookie, ...), secret values in their bodies (token, password, JWTs, ...)
        and any value the request carried that is secret. --keep-secrets prints answers as the stubs
        give them (near-miss reports stay masked).

        Response templates are rendered for the stubs with "transformers": ["response-template"]; with
        --global-response-templating, for every stub, as WireMock started with that flag renders them
        (--local-response-templating, the default, is accepted too). '{{ }}' HTML-escapes what it prints,
        as WireMock 2.x does; with --disable-template-escaping it prints values as they are, as WireMock 3
        does by default ('{{{ }}}' never escapes).

        Exit status: 0 when every request was answered by a stub (errors served by stubs count), 1 when
        any was not, 2 when the stubs or the requests cannot be loaded, or on wrong usage.

        """

    static func run(_ arguments: [String], io: inout some CommandIO) throws -> Int32 {
        var stubPaths: [String] = []
        var requestsFile: String?
        var headers = HeaderFields()
        var data: String?
        var positional: [String] = []
        var templatingFlags: [String] = []
        var masking = AnswerMasking(keepsSecrets: false)
        var index = 0
        func value(of option: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(option) needs a value", command: "match") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--stubs": stubPaths.append(try value(of: argument))
            case "--requests": requestsFile = try value(of: argument)
            case "-H", "--header":
                let header = try value(of: argument)
                guard let colon = header.firstIndex(of: ":") else {
                    throw UsageError("the header \(quoted(header)) must be written 'Name: value'", command: "match")
                }
                headers.add(
                    String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                )
            case "-d", "--data": data = try value(of: argument)
            case "--keep-secrets": masking = AnswerMasking(keepsSecrets: true)
            case _ where TemplatingFlag.isFlag(argument): templatingFlags.append(argument)
            default:
                if argument.hasPrefix("-"), argument != "-" {
                    throw UsageError("unknown option '\(argument)'", command: "match")
                }
                positional.append(argument)
            }
            index += 1
        }
        guard !stubPaths.isEmpty else { throw UsageError("give the stubs with --stubs PATH", command: "match") }
        let templating = try TemplatingFlag.templating(templatingFlags, command: "match")

        var requestsHandle: FileHandle?
        if let requestsFile {
            guard positional.isEmpty, headers.isEmpty, data == nil else {
                throw UsageError(
                    "--requests takes each request's method, URL, "
                        + "headers and body from FILE; drop METHOD, URL, -H and --data",
                    command: "match"
                )
            }
            if requestsFile != "-" {
                guard let handle = FileHandle(forReadingAtPath: requestsFile) else {
                    io.err("\(requestsFile): error: cannot be read; check the path\n")
                    return 2
                }
                requestsHandle = handle
            }
        }
        defer { try? requestsHandle?.close() }
        var single: InterceptedRequest?
        if requestsFile == nil {
            guard positional.count == 2 else {
                throw UsageError("give METHOD and URL (or --requests FILE)", command: "match")
            }
            guard InterceptedRequest.Method(rawValue: positional[0]).isToken else {
                throw UsageError("\(quoted(positional[0])) is not an HTTP method such as GET", command: "match")
            }
            guard let url = URL(string: positional[1]), url.scheme != nil else {
                throw UsageError("\(quoted(positional[1])) is not an absolute URL", command: "match")
            }
            let body = data.map { Data($0.utf8) }
            single = InterceptedRequest(
                method: InterceptedRequest.Method(rawValue: positional[0]),
                url: url,
                headers: headers,
                body: body
            )
        }

        let loaded = StubFiles.load(stubPaths, templating: templating)
        for diagnostic in loaded.diagnostics {
            io.err("\(diagnostic)\n")
        }
        guard loaded.refusals.isEmpty else {
            io.err(
                "stubs: error: the stubs cannot be loaded (\(loaded.refusals.count) "
                    + "\(plural(loaded.refusals.count, "error")) above)\n"
            )
            return 2
        }
        let registry = StubRegistry()
        registry.onDiagnostic { _ in }  // warnings were printed above
        registry.add(contentsOf: loaded.stubs)

        if let single {
            let answer = registry.answer(single)
            io.out(AnswerText.text(for: answer, to: single, masking: masking))
            if case .unmatched = answer { return 1 }
            return 0
        }
        return answerLines(
            from: requestsHandle,
            file: requestsFile ?? "-",
            registry: registry,
            masking: masking,
            io: &io
        )
    }

    /// How many bytes `--requests` reads at a time.
    private static let chunkSize = 64 << 10

    /// Answers the JSON Lines requests of `handle` (standard input when `nil`) one at a time, each
    /// printed as soon as its line has arrived: input is never held beyond the line being read.
    /// Stops at the first line that is not a valid request. Returns the exit status.
    private static func answerLines(
        from handle: FileHandle?,
        file: String,
        registry: StubRegistry,
        masking: AnswerMasking,
        io: inout some CommandIO
    ) -> Int32 {
        let name = file == "-" ? "<stdin>" : file
        var splitter = LineSplitter(maximumLength: RequestLines.maximumLineLength)
        var allAnswered = true
        var atEnd = false
        while !atEnd {
            let chunk: Data?
            if let handle {
                chunk = readChunk(fileDescriptor: handle.fileDescriptor, upTo: chunkSize)
            } else {
                chunk = io.readInput(upTo: chunkSize)
            }
            guard let chunk else {
                let code = errno
                io.err(
                    "\(name): error: cannot be read: \(FileFailure.reason(code: code)); "
                        + "\(FileFailure.readAdvice(code: code))\n"
                )
                return 2
            }
            var lines: [(bytes: [UInt8], number: Int)]
            do {
                lines = try splitter.lines(completedBy: chunk)
            } catch {
                io.err(
                    "\(name):\(error.lineNumber): error: "
                        + "the line is longer than \(RequestLines.maximumLineLength >> 20) MiB, "
                        + "the most one request may take; end each request with a line break, and keep bodies smaller\n"
                )
                return 2
            }
            if chunk.isEmpty {
                atEnd = true
                if let last = splitter.finish() { lines.append(last) }
            }
            for line in lines {
                switch RequestLines.request(in: line.bytes, number: line.number, file: name) {
                case .success(nil):
                    continue
                case let .success(request?):
                    let answer = registry.answer(request)
                    // Nothing reads the journal here; kept, it would grow with every request answered.
                    registry.clearJournal()
                    if case .unmatched = answer { allAnswered = false }
                    io.out(AnswerJSON.line(for: answer, to: request, masking: masking) + "\n")
                case let .failure(problem):
                    io.err("\(problem.message)\n")
                    return 2
                }
            }
        }
        return allAnswered ? 0 : 1
    }
}
