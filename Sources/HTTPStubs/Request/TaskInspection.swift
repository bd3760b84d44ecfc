import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub needs to know about the `URLSessionTask` it serves but that URLSession does not
/// tell a `URLProtocol`.
///
/// On Linux these are read from swift-corelibs-foundation's task with `Mirror`, because there is no
/// public API for them. Every read is best-effort: when a field is not where it was in Swift 6.3
/// the answer falls back to the safe default, never to a crash. Each is computed only when asked,
/// and only while the task's work queue, the queue that owns those fields, is held: in
/// `startLoading`, which runs on it, or inside `resume()`, which holds it while it creates the
/// protocol instance (``RequestDelivery/prepare(_:)``); planning that goes on elsewhere uses
/// ``capturingAnswers()``, made there.
struct TaskInspection: @unchecked Sendable {
    // Invariant: `task` is read only in `prepare` and `startLoading` (live reads, on the task's work
    // queue); a copy that outlives them is made by `capturingAnswers()` and never reads it. It is
    // not retained: the `URLProtocol` instance retains its task for its whole life (corelibs'
    // `_task`) and outlives both calls, while the copies of an inspection that planning passes
    // around would each retain and release it, which for a task (an object with a side table, as
    // corelibs' tasks are) takes the runtime's slow path. What is read from the task the caller holds
    // (``uploadBody(of:)``, ``protocolMadeInResume(of:)``) takes it as an argument.
    private unowned(unsafe) let task: URLSessionTask?
    private var captured: Captured?

    /// The answers, read at once for planning elsewhere than on the work queue. A class, so that
    /// an inspection is two plain references: every request copies and destroys its inspection
    /// with the planner that holds it, and an optional struct with a delegate inside is copied and
    /// destroyed through its type's metadata (BENCHMARKS.md, "Copies through type metadata").
    private final class Captured: Sendable {
        let isAsyncCall: Bool
        let delegateReceivesChunks: Bool
        let sessionTimeout: TimeInterval?
        let redirectDelegate: RedirectDelegate?

        init(
            isAsyncCall: Bool,
            delegateReceivesChunks: Bool,
            sessionTimeout: TimeInterval?,
            redirectDelegate: RedirectDelegate?
        ) {
            self.isAsyncCall = isAsyncCall
            self.delegateReceivesChunks = delegateReceivesChunks
            self.sessionTimeout = sessionTimeout
            self.redirectDelegate = redirectDelegate
        }
    }

    init(_ task: URLSessionTask?) {
        self.task = task
    }

    /// This inspection with every answer read now, so that it can be used off the task's work
    /// queue (where the fields it reads may be changing).
    func capturingAnswers() -> TaskInspection {
        var copy = self
        copy.captured = Captured(
            isAsyncCall: isAsyncCall,
            delegateReceivesChunks: delegateReceivesChunks,
            sessionTimeout: sessionTimeout,
            redirectDelegate: redirectDelegate
        )
        return copy
    }

    /// Whether the caller is `async` `data(for:)` / `upload(for:from:)`, which crashes in corelibs
    /// when a protocol finishes without a response.
    var isAsyncCall: Bool {
        if let captured { return captured.isAsyncCall }
        #if canImport(FoundationNetworking)
        guard let task else { return false }
        return Self.field("_callCompletionHandlerInline", of: task) as? Bool ?? false
        #else
        return false
        #endif
    }

    /// Whether a delegate receives each `didLoad` chunk. On Linux only delegate-style data tasks
    /// (made without a completion handler) forward chunks; other callers keep only the last one,
    /// so the body must be delivered whole.
    var delegateReceivesChunks: Bool {
        if let captured { return captured.delegateReceivesChunks }
        #if canImport(FoundationNetworking)
        // corelibs keeps, per session, a behaviour for each task: `callDelegate` for tasks made
        // without a completion handler.
        guard let task, task.delegate is URLSessionDataDelegate, let behaviour else { return false }
        return String(describing: behaviour).hasPrefix("callDelegate")
        #else
        return true
        #endif
    }

    /// The session's `timeoutIntervalForRequest`, when it can be found.
    var sessionTimeout: TimeInterval? {
        if let captured { return captured.sessionTimeout }
        #if canImport(FoundationNetworking)
        return session?.configuration.timeoutIntervalForRequest
        #else
        return nil
        #endif
    }

    /// Whether corelibs made the protocol instance inside `resume()`, holding the task's work queue
    /// (as ``RequestDelivery/prepare(_:)`` needs). It does not for a data or upload task whose
    /// session has a `urlCache` (as `.default` and `.ephemeral` configurations, and
    /// `URLSession.shared`, do): it looks the request up in the cache first and makes the instance
    /// afterwards on a global queue, while the work queue is free. Read when the instance gets its
    /// task; the session's configuration does not change after it is made.
    static func protocolMadeInResume(of task: URLSessionTask?) -> Bool {
        #if canImport(FoundationNetworking)
        guard let task else { return false }
        guard task is URLSessionDataTask else { return true }
        guard let session = session(of: task) else { return false }
        return session.configuration.urlCache == nil
        #else
        return false
        #endif
    }

    /// The body `task` carries outside its request when it is an upload task, if it can be read.
    /// Read from the task the caller holds (a strong reference), on the task's work queue.
    static func uploadBody(of task: URLSessionTask?) -> Data? {
        #if canImport(FoundationNetworking)
        // It lives in the task's `knownBody`: `.data(DispatchData)`, `.file(URL)` or `.stream(InputStream)`.
        guard let task = task as? URLSessionUploadTask,
            let body = Self.unwrap(Self.field("knownBody", of: task)),
            let payload = Mirror(reflecting: body).children.first
        else { return nil }
        switch payload.value {
        case let data as DispatchData: return Data(data)
        case let url as URL: return try? Data(contentsOf: url)
        case let stream as InputStream: return BodyReader.drain(stream)
        default: return nil
        }
        #else
        return nil
        #endif
    }

    /// The delegate URLSession asks about a redirect of this task, if there is one to ask.
    var redirectDelegate: RedirectDelegate? {
        if let captured { return captured.redirectDelegate }
        #if canImport(FoundationNetworking)
        guard let task, let session else { return nil }
        // `data(for:delegate:)` keeps its delegate in the task's behaviour, not in `task.delegate`.
        let delegate = task.delegate ?? behaviourDelegate ?? session.delegate as? any URLSessionTaskDelegate
        return delegate.map { RedirectDelegate($0, task: task, session: session) }
        #else
        // A protocol cannot reach the task's session on Apple platforms.
        return nil
        #endif
    }

    #if canImport(FoundationNetworking)
    private var session: URLSession? {
        task.flatMap(Self.session(of:))
    }

    private static func session(of task: URLSessionTask) -> URLSession? {
        // A cast, not a mirror, opens the optional the field holds: it is the cheaper of the two.
        field("session", of: task) as? URLSession
    }

    /// What corelibs keeps, per session, for each task: `callDelegate` for tasks made without a
    /// completion handler, `dataCompletionHandlerWithTaskDelegate(handler, delegate)` for
    /// `data(for:delegate:)`, and so on.
    private var behaviour: Any? {
        guard let task, let session,
            let registry = Self.field("taskRegistry", of: session),
            let behaviours = Self.field("behaviours", of: registry) as? [Int: Any]
        else { return nil }
        return behaviours[task.taskIdentifier]
    }

    /// The task delegate an `async` call was given, kept in the task's behaviour.
    private var behaviourDelegate: (any URLSessionTaskDelegate)? {
        guard let behaviour, let payload = Mirror(reflecting: behaviour).children.first?.value else { return nil }
        return Mirror(reflecting: payload).children.lazy.compactMap {
            Self.unwrap($0.value) as? any URLSessionTaskDelegate
        }.first
    }

    /// The stored property `label` of `subject` (or of a superclass part of it).
    ///
    /// Found by walking the mirrors once per type and label; after that, the place found (how many
    /// superclasses up, which child) is read directly, since reflecting every child of a task to
    /// find one was the costliest step of a request (BENCHMARKS.md, "Planning inside resume()"). The label is checked again at
    /// the place, so a place that no longer holds it falls back to the walk.
    private static func field(_ label: String, of subject: Any) -> Any? {
        let key = FieldKey(type: ObjectIdentifier(type(of: subject)), label: label)
        if let place = fieldPlaces.withLock({ $0[key] }) {
            var mirror = Mirror(reflecting: subject)
            for _ in 0..<place.depth {
                guard let parent = mirror.superclassMirror else { break }
                mirror = parent
            }
            let children = mirror.children
            if place.offset < children.count {
                let child = children[children.index(children.startIndex, offsetBy: place.offset)]
                if child.label == label { return child.value }
            }
        }
        var mirror: Mirror? = Mirror(reflecting: subject)
        var depth = 0
        while let current = mirror {
            for (offset, child) in current.children.enumerated() where child.label == label {
                fieldPlaces.withLock { $0[key] = FieldPlace(depth: depth, offset: offset) }
                return child.value
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }

    /// A stored property's name in one type.
    private struct FieldKey: Hashable {
        let type: ObjectIdentifier
        let label: String
    }

    /// Where a stored property was found: `depth` superclass mirrors up, the `offset`-th child.
    private struct FieldPlace {
        let depth: Int
        let offset: Int
    }

    /// The places found so far, by type and name: a few entries for the life of the process.
    private static let fieldPlaces = Locked([FieldKey: FieldPlace]())

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
