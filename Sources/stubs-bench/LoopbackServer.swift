import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, on an ephemeral port: what teams run instead of stubs.
///
/// It answers every request with the same constant response, keeps connections alive, serves each
/// connection on its own thread, and stops answering after `maxRequests` requests (the last one is
/// sent with `Connection: close`). ``stop()`` closes the listening socket and every connection.
final class LoopbackServer: @unchecked Sendable {
    // Invariant: `state` is only touched while `lock` is held; `listener` and `response` never change
    // after `init`.
    private let lock = NSLock()
    private var state = State()
    private let listener: Int32
    private let maxRequests: Int
    private let response: [UInt8]
    private let closingResponse: [UInt8]
    /// The port the kernel picked.
    let port: Int

    private struct State {
        var served = 0
        var stopped = false
        var connections: Set<Int32> = []
        var threads = 0
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(maxRequests: Int, body: Data, contentType: String) throws {
        self.maxRequests = maxRequests
        func head(_ connection: String) -> String {
            "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: \(connection)\r\n\r\n"
        }
        response = Array(head("keep-alive").utf8) + Array(body)
        closingResponse = Array(head("close").utf8) + Array(body)

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0   // ephemeral
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1 failed: errno \(errno)")
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
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-accept"
        thread.start()
    }

    /// How many requests were answered.
    var served: Int {
        lock.withLock { state.served }
    }

    /// Stops accepting, closes every connection, and waits (up to 2 s) for the threads to end.
    func stop() {
        lock.withLock {
            state.stopped = true
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
        lock.withLock { state.threads += 1 }
        defer {
            close(listener)
            lock.withLock { state.threads -= 1 }
        }
        while !isStopped {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready <= 0 { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            var yes: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
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

    /// Serves one keep-alive connection until the client closes it, the bound is reached, or the
    /// server stops.
    private func serve(_ connection: Int32) {
        defer {
            lock.withLock {
                state.connections.remove(connection)
                state.threads -= 1
            }
            close(connection)
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            // Read until a whole request head (and its body, if it declares one) is buffered.
            var headEnd = Self.headEnd(in: buffer)
            while headEnd == nil {
                let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                buffer.append(contentsOf: chunk[0..<count])
                headEnd = Self.headEnd(in: buffer)
            }
            let bodyLength = Self.contentLength(in: buffer[..<headEnd!])
            while buffer.count < headEnd! + bodyLength {
                let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                buffer.append(contentsOf: chunk[0..<count])
            }
            buffer.removeFirst(headEnd! + bodyLength)

            let verdict = lock.withLock { () -> Bool? in
                guard !state.stopped, state.served < maxRequests else { return nil }
                state.served += 1
                return state.served == maxRequests
            }
            guard let isLast = verdict else { return }
            let bytes = isLast ? closingResponse : response
            guard Self.sendAll(bytes, to: connection), !isLast else { return }
        }
    }

    private static func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
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

    private static func contentLength(in head: ArraySlice<UInt8>) -> Int {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }
}
