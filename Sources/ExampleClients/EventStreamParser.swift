import Foundation

/// Reads `text/event-stream` bytes as the Server-Sent Events specification says (HTML, §9.2.6),
/// chunk by chunk: a line may end in one chunk and its line feed arrive in the next.
struct EventStreamParser {
    /// The bytes of the line not yet ended.
    private var line: [UInt8] = []
    /// Whether the last byte seen was a carriage return, whose line feed (if it comes) ends nothing.
    private var afterCarriageReturn = false
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var lastEventID: String?
    /// The reconnection time the stream last set.
    private(set) var retry: Duration?

    /// The events `chunk` completes.
    mutating func feed(_ chunk: Data) -> [ReceivedEvent] {
        var events: [ReceivedEvent] = []
        for byte in chunk {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCarriageReturn = true
                endLine(&events)
            case UInt8(ascii: "\n"):
                endLine(&events)
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// Processes the line just ended: a blank line dispatches the event.
    private mutating func endLine(_ events: inout [ReceivedEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            if hasData {
                let type = eventType.isEmpty ? "message" : eventType
                events.append(ReceivedEvent(event: type, data: data, lastEventID: lastEventID))
            }
            eventType = ""
            data = ""
            hasData = false
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return }  // a comment
        let colon = text.firstIndex(of: ":")
        let field = colon.map { String(text[..<$0]) } ?? text
        var value = colon.map { text[text.index(after: $0)...] } ?? ""
        if value.hasPrefix(" ") { value = value.dropFirst() }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            data += hasData ? "\n\(value)" : String(value)
            hasData = true
        case "id" where !value.contains("\0"):
            lastEventID = String(value)
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int64(value) {
                retry = .milliseconds(milliseconds)
            }
        default:
            break
        }
    }
}
