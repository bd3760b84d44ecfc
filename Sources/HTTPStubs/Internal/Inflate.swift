import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decompression of `gzip` (RFC 1952) and `deflate` (RFC 1950 zlib, or raw RFC 1951) bodies, for
/// captures that kept a body as it was sent on the wire. Checksums are not verified.
enum Inflate {
    /// `data` decoded as a `Content-Encoding` says (`gzip`, `x-gzip`, `deflate` or `identity`);
    /// `nil` for other encodings and for data that does not decode.
    static func decompress(_ data: Data, contentEncoding: String) -> Data? {
        let bytes = [UInt8](data)
        switch contentEncoding.trimmingCharacters(in: .whitespaces).lowercased() {
        case "identity":
            return data
        case "gzip", "x-gzip":
            return gzipPayloadStart(bytes).flatMap { inflate(bytes, from: $0) }.map { Data($0) }
        case "deflate":
            let isZlib = bytes.count >= 2 && bytes[0] & 0x0F == 8 && (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0
            return inflate(bytes, from: isZlib ? 2 : 0).map { Data($0) }
        default:
            return nil
        }
    }

    /// Where the deflate stream of a gzip member starts, past its header.
    private static func gzipPayloadStart(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        let flags = bytes[3]
        var position = 10
        if flags & 0x04 != 0 {
            guard position + 2 <= bytes.count else { return nil }
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while position < bytes.count, bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }
        return position < bytes.count ? position : nil
    }

    /// The base length of each length symbol 257…285.
    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    /// The number of extra bits after each length symbol 257…285.
    private static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// The base distance of each distance symbol 0…29.
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    /// The number of extra bits after each distance symbol 0…29.
    private static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block lists the code lengths of the code-length alphabet.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Inflates the raw deflate stream starting at `start`; `nil` when it is malformed or truncated.
    static func inflate(_ bytes: [UInt8], from start: Int) -> [UInt8]? {
        var reader = BitReader(bytes: bytes, position: start)
        var output: [UInt8] = []
        var isLast = false
        while !isLast {
            guard let last = reader.bits(1), let type = reader.bits(2) else { return nil }
            isLast = last == 1
            switch type {
            case 0:
                reader.alignToByte()
                guard let length = reader.bytes(2), let complement = reader.bytes(2),
                      length ^ complement == 0xFFFF, let stored = reader.take(length) else { return nil }
                output += stored
            case 1:
                let fixedLengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                    + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
                guard let literals = Huffman(lengths: fixedLengths),
                      let distances = Huffman(lengths: [Int](repeating: 5, count: 30)),
                      decodeBlock(&reader, literals: literals, distances: distances, into: &output) else { return nil }
            case 2:
                guard let (literals, distances) = dynamicCodes(&reader),
                      decodeBlock(&reader, literals: literals, distances: distances, into: &output) else { return nil }
            default:
                return nil
            }
        }
        return output
    }

    /// Reads the literal/length and distance codes of a dynamic block.
    private static func dynamicCodes(_ reader: inout BitReader) -> (Huffman, Huffman)? {
        guard let literalCount = reader.bits(5).map({ $0 + 257 }),
              let distanceCount = reader.bits(5).map({ $0 + 1 }),
              let codeLengthCount = reader.bits(4).map({ $0 + 4 }) else { return nil }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            guard let length = reader.bits(3) else { return nil }
            codeLengthLengths[codeLengthOrder[index]] = length
        }
        guard let codeLengths = Huffman(lengths: codeLengthLengths) else { return nil }
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            guard let symbol = codeLengths.decode(&reader) else { return nil }
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last, let repeats = reader.bits(2) else { return nil }
                lengths += [Int](repeating: previous, count: repeats + 3)
            case 17:
                guard let repeats = reader.bits(3) else { return nil }
                lengths += [Int](repeating: 0, count: repeats + 3)
            default:
                guard let repeats = reader.bits(7) else { return nil }
                lengths += [Int](repeating: 0, count: repeats + 11)
            }
        }
        guard lengths.count == literalCount + distanceCount,
              let literals = Huffman(lengths: Array(lengths[..<literalCount])),
              let distances = Huffman(lengths: Array(lengths[literalCount...])) else { return nil }
        return (literals, distances)
    }

    /// Decodes the symbols of one compressed block; `false` when they are malformed.
    private static func decodeBlock(_ reader: inout BitReader, literals: Huffman, distances: Huffman, into output: inout [UInt8]) -> Bool {
        while true {
            guard let symbol = literals.decode(&reader) else { return false }
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count, let lengthExtra = reader.bits(lengthExtraBits[lengthIndex]),
                  let distanceSymbol = distances.decode(&reader), distanceSymbol < distanceBase.count,
                  let distanceExtra = reader.bits(distanceExtraBits[distanceSymbol]) else { return false }
            let length = lengthBase[lengthIndex] + lengthExtra
            let distance = distanceBase[distanceSymbol] + distanceExtra
            guard distance <= output.count else { return false }
            for _ in 0..<length {
                output.append(output[output.count - distance])
            }
        }
    }

    /// Reads a byte array least-significant bit first, as deflate packs it.
    private struct BitReader {
        /// The input.
        let bytes: [UInt8]
        /// The next byte to load.
        var position: Int
        /// Loaded bits not yet consumed, lowest first.
        private var buffer: UInt32 = 0
        /// How many bits `buffer` holds.
        private var count = 0

        /// Creates a reader starting at byte `position`.
        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The next `width` bits (at most 16) as a number, or `nil` at the end of the input.
        mutating func bits(_ width: Int) -> Int? {
            while count < width {
                guard position < bytes.count else { return nil }
                buffer |= UInt32(bytes[position]) << UInt32(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt32(width)) - 1))
            buffer >>= UInt32(width)
            count -= width
            return value
        }

        /// Drops the bits left in the current byte.
        mutating func alignToByte() {
            buffer = 0
            count = 0
        }

        /// A little-endian number of `width` whole bytes, after ``alignToByte()``.
        mutating func bytes(_ width: Int) -> Int? {
            guard let slice = take(width) else { return nil }
            return slice.reversed().reduce(0) { $0 << 8 | Int($1) }
        }

        /// The next `length` whole bytes, after ``alignToByte()``.
        mutating func take(_ length: Int) -> ArraySlice<UInt8>? {
            guard position + length <= bytes.count else { return nil }
            defer { position += length }
            return bytes[position..<position + length]
        }
    }

    /// A canonical Huffman code, decoded bit by bit (as zlib's `puff` does).
    private struct Huffman {
        /// How many codes have each length 0…15.
        private var counts = [Int](repeating: 0, count: 16)
        /// The symbols ordered by code.
        private var symbols: [Int]

        /// The code whose symbol `i` has code length `lengths[i]` (0 for unused); `nil` when the
        /// lengths over-subscribe the code space.
        init?(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left = left << 1 - counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// The next symbol, or `nil` for an invalid code or the end of the input.
        func decode(_ reader: inout BitReader) -> Int? {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                guard let bit = reader.bits(1) else { return nil }
                code |= bit
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            return nil
        }
    }
}
