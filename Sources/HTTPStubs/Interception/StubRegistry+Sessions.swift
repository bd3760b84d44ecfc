import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The registry's own `URLProtocol` class: sessions whose configuration lists it first are
    /// served by this registry's stubs, and only by them.
    ///
    /// A session made from it is one the registry does not see being made, so from then on
    /// reports of unmatched requests no longer say which session sent them (see
    /// ``UnmatchedRequestReport/sessionOrigins``).
    public var protocolClass: URLProtocol.Type {
        _ = servingUnseenSessions()
        return registryProtocolClass(for: identity)
    }

    /// Marks the registry as serving sessions it does not see being made: its reports stop naming
    /// session lines, which could then be wrong. Returns the registry.
    func servingUnseenSessions() -> StubRegistry {
        state.withLock { $0.sessionOrigins = nil }
        return self
    }

    /// Whether the registry's requests may be planned when their protocol instance gets its task,
    /// inside `resume()` (see `RequestDelivery.prepare`), as far as the registry can tell; read
    /// under one lock, for every request.
    enum EarlyPlanning {
        /// Not while it records: the real server's answer is awaited in `startLoading`.
        case never
        /// Every session it serves was made by ``makeSession(configuration:delegate:delegateQueue:fileID:filePath:line:column:)``,
        /// and so has no `urlCache`.
        case always
        /// It has handed out its protocol class or a configuration: only when the task's session
        /// has no `urlCache` (``TaskInspection/protocolMadeInResume(of:)``).
        case whenMadeInResume
    }

    /// See ``EarlyPlanning``.
    var earlyPlanning: EarlyPlanning {
        state.withLock { state in
            if state.recorder != nil { return .never }
            return state.sessionOrigins != nil ? .always : .whenMadeInResume
        }
    }

    /// A configuration whose sessions are served by this registry.
    ///
    /// The registry's protocol class is put first in `protocolClasses` (so it is asked before
    /// URLSession's own HTTP protocol, which still serves pass-through requests), and `urlCache` is
    /// removed so stubbed answers are never cached. As with ``protocolClass``, reports of unmatched
    /// requests no longer say which session sent them.
    /// - Parameter base: The configuration to start from; `.ephemeral` by default.
    public func configuration(basedOn base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        base.served(by: protocolClass)
    }

    /// A session served by this registry.
    ///
    /// The registry remembers where its sessions were made: a report of an unmatched request names
    /// the line that made the session (`Sent through the session made at UserTests.swift:14:23.`),
    /// as long as that is the only place it can have come from.
    /// - Parameters:
    ///   - configuration: The configuration to start from; `.ephemeral` by default.
    ///   - delegate: The session delegate, if any.
    ///   - delegateQueue: The queue delegates and completion handlers run on, if any.
    ///   - fileID: The `#fileID` of the code that makes the session.
    ///   - filePath: The `#filePath` of the code that makes the session.
    ///   - line: The `#line` of the code that makes the session.
    ///   - column: The `#column` of the code that makes the session.
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> URLSession {
        let origin = StubSource.code(fileID: fileID, filePath: filePath, line: line, column: column)
        state.withLock { state in
            if state.sessionOrigins?.contains(origin) == false { state.sessionOrigins?.append(origin) }
        }
        return .served(
            by: registryProtocolClass(for: identity),
            configuration: configuration,
            delegate: delegate,
            delegateQueue: delegateQueue
        )
    }
}
