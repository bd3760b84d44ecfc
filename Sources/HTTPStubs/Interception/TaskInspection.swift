import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub needs to know about the `URLSessionTask` it serves but that URLSession does not
/// tell a `URLProtocol`.
///
/// On Linux these are read from swift-corelibs-foundation's task with `Mirror`, because there is no
/// public API for them. Every read is best-effort: when a field is not where it was in Swift 6.3
/// the answer falls back to the safe default, never to a crash. Call only from `startLoading`,
/// which runs on the task's work queue, the queue that owns those fields.
struct TaskInspection {
    /// Whether the caller is `async` `data(for:)` / `upload(for:from:)`, which crashes in corelibs
    /// when a protocol finishes without a response.
    let isAsyncCall: Bool
    /// Whether a delegate receives each `didLoad` chunk (a delegate-style data task). Otherwise
    /// only the last chunk reaches the caller on Linux, so the body must be delivered whole.
    let delegateReceivesChunks: Bool
    /// The session's `timeoutIntervalForRequest`, when it can be found.
    let sessionTimeout: TimeInterval?
    /// The body an upload task carries outside its request, when it can be read.
    let uploadBody: Data?

    init(_ task: URLSessionTask?) {
        #if canImport(FoundationNetworking)
        guard let task else {
            self.init(isAsyncCall: false, delegateReceivesChunks: false, sessionTimeout: nil, uploadBody: nil)
            return
        }
        let session = Self.unwrap(Self.field("session", of: task)) as? URLSession
        self.init(
            isAsyncCall: Self.field("_callCompletionHandlerInline", of: task) as? Bool ?? false,
            delegateReceivesChunks: Self.callsDelegate(task, session: session),
            sessionTimeout: session?.configuration.timeoutIntervalForRequest,
            uploadBody: task is URLSessionUploadTask ? Self.knownBody(of: task) : nil
        )
        #else
        self.init(isAsyncCall: false, delegateReceivesChunks: true, sessionTimeout: nil, uploadBody: nil)
        #endif
    }

    private init(isAsyncCall: Bool, delegateReceivesChunks: Bool, sessionTimeout: TimeInterval?, uploadBody: Data?) {
        self.isAsyncCall = isAsyncCall
        self.delegateReceivesChunks = delegateReceivesChunks
        self.sessionTimeout = sessionTimeout
        self.uploadBody = uploadBody
    }

    #if canImport(FoundationNetworking)
    /// corelibs keeps, per session, a behaviour for each task: `callDelegate` for tasks made
    /// without a completion handler; only those forward each chunk to the delegate.
    private static func callsDelegate(_ task: URLSessionTask, session: URLSession?) -> Bool {
        guard task.delegate is URLSessionDataDelegate,
              let session,
              let registry = field("taskRegistry", of: session),
              let behaviours = field("behaviours", of: registry) as? [Int: Any],
              let behaviour = behaviours[task.taskIdentifier]
        else { return false }
        return String(describing: behaviour).hasPrefix("callDelegate")
    }

    /// An upload task's body lives in its `knownBody`: `.data(DispatchData)`, `.file(URL)` or `.stream(InputStream)`.
    private static func knownBody(of task: URLSessionTask) -> Data? {
        guard let body = unwrap(field("knownBody", of: task)),
              let payload = Mirror(reflecting: body).children.first
        else { return nil }
        switch payload.value {
        case let data as DispatchData: return Data(data)
        case let url as URL: return try? Data(contentsOf: url)
        case let stream as InputStream: return BodyReader.drain(stream)
        default: return nil
        }
    }

    private static func field(_ label: String, of subject: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == label }) {
                return child.value
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map(\.value)
    }
    #endif
}

/// Reads request bodies.
enum BodyReader {
    /// Reads a stream to its end (at most 1 GiB), opening it if needed.
    static func drain(_ stream: InputStream) -> Data {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < 1 << 30 {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
