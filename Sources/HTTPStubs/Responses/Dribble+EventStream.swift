import Foundation

extension Dribble {
    /// How `body` is sent: as `dribble` says, but a `text/event-stream` body that would go whole is
    /// sent an event at a time, each piece ending after a blank line, all with the response (as a
    /// HAR capture, a stub file or a recording gives such a stream: one body). Decided when a
    /// response is resolved: once per stub for a literal answer.
    static func eventByEvent(_ body: Data, headers: HeaderFields, dribble: Dribble?) -> Dribble? {
        guard dribble?.isWhole ?? true, !body.isEmpty, isEventStream(headers) else { return dribble }
        let sizes = eventSizes(in: body)
        guard sizes.count > 1 else { return dribble }
        return Dribble(pieces: sizes.map { (size: $0, after: .zero) }).interrupted(dribble?.interruption)
    }

    /// Whether the first `Content-Type` is `text/event-stream` (ASCII case ignored), without
    /// allocating: both names are small strings, and the value is compared byte by byte.
    private static func isEventStream(_ headers: HeaderFields) -> Bool {
        for field in headers where field.name.utf8.count == 12 && field.name.lowercased() == "content-type" {
            let expected = "text/event-stream".utf8
            var value = field.value.utf8.makeIterator()
            for byte in expected {
                guard let next = value.next(), next | 0x20 == byte | 0x20 else { return false }
            }
            return true
        }
        return false
    }

    /// The sizes of the events of an event stream, each up to and with the blank line that ends
    /// it (lines end with CRLF, LF or CR, as the specification reads them); what follows the last
    /// blank line is a piece of its own.
    static func eventSizes(in body: Data) -> [Int] {
        var sizes: [Int] = []
        body.withUnsafeBytes { bytes in
            let carriageReturn = UInt8(ascii: "\r")
            let lineFeed = UInt8(ascii: "\n")
            var eventStart = 0
            var lineIsEmpty = true
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == carriageReturn || byte == lineFeed else {
                    lineIsEmpty = false
                    index += 1
                    continue
                }
                index += byte == carriageReturn && index + 1 < bytes.count && bytes[index + 1] == lineFeed ? 2 : 1
                if lineIsEmpty, index > eventStart {
                    sizes.append(index - eventStart)
                    eventStart = index
                }
                lineIsEmpty = true
            }
            if eventStart < bytes.count { sizes.append(bytes.count - eventStart) }
        }
        return sizes
    }
}
