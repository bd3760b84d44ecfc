import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for the package's own tests and benchmark: the real
/// server recordings are made from, and the server teams run instead of stubs.
///
/// Each connection is served on a thread of its own; a response is sent with `Connection:
/// keep-alive` unless the handler or the request bound ends the connection. After `maxRequests`
/// answers (the last one closes its connection) it answers no more. ``stop()`` closes the
/// listening socket and every connection, so connecting fails at once afterwards.
package final class LoopbackHTTPServer: @unchecked Sendable {
    // Invariant: `state` is only touched while `lock` is held; `listener`, `handler` and
    // `maxRequests` never change after `init`.
    private let lock = NSLock()
    private var state = State()
    private let listener: Int32
    private let maxRequests: Int
    private let handler: @Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse
    /// The port it listens on.
    package let port: Int

    private struct State {
        var served = 0
        var stopped = false
        var connections: Set<Int32> = []
        var threads = 0
    }

    /// Why the server could not start.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts listening on 127.0.0.1, on a port the system chooses.
    /// - Parameters:
    ///   - maxRequests: How many requests it answers in all.
    ///   - handler: The response to each request; called on the connection's thread.
    package init(
        maxRequests: Int = .max,
        handler: @escaping @Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse
    ) throws {
        self.maxRequests = maxRequests
        self.handler = handler
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)  // an Int32 constant on Darwin
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // a port the system chooses
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "binding 127.0.0.1 failed: errno \(code) (\(String(cString: strerror(code))))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Failure(description: "getsockname failed: errno \(errno)")
        }
        listener = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        lock.withLock { state.threads += 1 }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-accept"
        thread.start()
    }

    /// A server no one stops any more is stopped.
    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>`.
    package var base: String { "http://127.0.0.1:\(port)" }

    /// How many requests were answered.
    package var served: Int {
        lock.withLock { state.served }
    }

    /// Stops accepting, closes every connection, and waits (up to 2 s) for the threads to end.
    /// Connecting fails from the moment it returns, however long the threads take.
    package func stop() {
        lock.withLock {
            guard !state.stopped else { return }
            state.stopped = true
            // A listening socket shut down refuses connections at once (and wakes `poll`); the
            // accept thread closes it.
            shutdown(listener, Int32(SHUT_RDWR))
            for connection in state.connections {
                shutdown(connection, Int32(SHUT_RDWR))
            }
        }
        let deadline = Date().addingTimeInterval(2)
        while lock.withLock({ state.threads }) > 0, Date() < deadline {
            usleep(1_000)
        }
    }

    private var isStopped: Bool {
        lock.withLock { state.stopped }
    }

    private func acceptLoop() {
        defer {
            close(listener)
            lock.withLock { state.threads -= 1 }
        }
        while !isStopped {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 20)
            if ready <= 0 { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            var yes: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if !canImport(Glibc)
            // Darwin has no MSG_NOSIGNAL: a write to a closed connection must not raise SIGPIPE.
            _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let admitted = lock.withLock { () -> Bool in
                guard !state.stopped, state.served < maxRequests else { return false }
                state.connections.insert(connection)
                state.threads += 1
                return true
            }
            guard admitted else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "loopback-connection"
            thread.start()
        }
    }

    /// Serves one connection until the client closes it, a response closes it, the bound is
    /// reached, or the server stops.
    private func serve(_ connection: Int32) {
        defer {
            lock.withLock {
                state.connections.remove(connection)
                state.threads -= 1
            }
            close(connection)
        }
        var reader = RequestReader(connection: connection)
        while let request = reader.next() {
            let isLast = lock.withLock { () -> Bool? in
                guard !state.stopped, state.served < maxRequests else { return nil }
                state.served += 1
                return state.served == maxRequests
            }
            guard let isLast else { return }
            var response = handler(request)
            if isLast { response.closesConnection = true }
            guard Self.sendAll(response.bytes, to: connection), !response.closesConnection else { return }
        }
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0  // SO_NOSIGPIPE is set on each connection instead
    #endif

    private static func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress! + offset, raw.count - offset, noSignal)
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}

/// Reads requests, one after the other, from a connection.
private struct RequestReader {
    let connection: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    init(connection: Int32) {
        self.connection = connection
    }

    /// The next whole request (head and `Content-Length` body); `nil` once the connection ends.
    mutating func next() -> LoopbackHTTPRequest? {
        var headEnd = Self.headEnd(in: buffer)
        while headEnd == nil {
            guard receive() else { return nil }
            headEnd = Self.headEnd(in: buffer)
        }
        guard let headEnd, let head = LoopbackHTTPRequest.Head(String(decoding: buffer[..<headEnd], as: UTF8.self))
        else { return nil }
        let bodyLength = head.contentLength
        while buffer.count < headEnd + bodyLength {
            guard receive() else { return nil }
        }
        let body = Data(buffer[headEnd..<(headEnd + bodyLength)])
        buffer.removeFirst(headEnd + bodyLength)
        return LoopbackHTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body)
    }

    private mutating func receive() -> Bool {
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// The index just past the `\r\n\r\n` that ends the request head, if buffered.
    private static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
