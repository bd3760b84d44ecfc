// A process that uses URLSession.shared the way a test process does, for SharedSessionTests:
// `shared-session-probe first` starts interception before anything creates a URLSession;
// `shared-session-probe late` creates a session first. Either way it then asks URLSession.shared
// for a stubbed URL and prints one line per fact: `status: …`, `answer: …` or `error: …`.
import Foundation
import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let mode = CommandLine.arguments.dropFirst().first ?? "first"
if mode == "late" {
    _ = URLSession(configuration: .ephemeral)  // some code made a session before the test started
}
URLProtocolStub.registry.onDiagnostic { issue in print("issue: \(issue.message)") }
switch URLProtocolStub.startInterceptingRequests() {
case .active: print("status: active")
case .unavailable: print("status: unavailable")
}
URLProtocolStub.registry.stub(.get("http://shared-session-probe.invalid/value"), .text("served by the stub"))

let done = DispatchSemaphore(value: 0)
URLSession.shared.dataTask(with: URL(string: "http://shared-session-probe.invalid/value")!) { data, _, error in
    if let error {
        print("error: \((error as? URLError)?.code.rawValue ?? 0)")
    } else {
        print("answer: \(String(decoding: data ?? Data(), as: UTF8.self))")
    }
    done.signal()
}.resume()
if done.wait(timeout: .now() + 30) == .timedOut {
    print("error: no answer within 30 s")
}
URLProtocolStub.stopInterceptingRequests()
