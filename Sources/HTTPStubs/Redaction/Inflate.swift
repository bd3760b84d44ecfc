import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decompression of `gzip` (RFC 1952) and `deflate` (RFC 1950 zlib, or raw RFC 1951) bodies, for
/// captures that kept a body as it was sent on the wire.
///
/// Output is bounded, so a small compressed body cannot exhaust memory (a "decompression bomb"):
/// it may not exceed ``maximumOutputSize``, nor ``maximumRatio`` times the compressed size once past
/// ``ratioFloor``. The gzip CRC-32 and length, and the zlib Adler-32, are verified, so a corrupted
/// body is refused rather than served cut short.
package enum Inflate {
    /// The most bytes one body may inflate to: 64 MiB.
    package static let maximumOutputSize = 64 << 20
    /// How many times its compressed size a body may inflate to, once its output is past ``ratioFloor``.
    package static let maximumRatio = 100
    /// The output size up to which ``maximumRatio`` does not apply: 1 MiB, so that small, very
    /// repetitive bodies (which compress far better than 100:1) always inflate.
    package static let ratioFloor = 1 << 20

    /// Why a body was not decompressed.
    package enum Failure: Error, Equatable {
        /// The `Content-Encoding` is not one this decoder knows (`br`, `zstd`, …).
        case unsupportedEncoding
        /// The data is not a well-formed stream of the encoding, or is cut short.
        case malformed
        /// The output would pass `limit` bytes: ``maximumOutputSize``, or ``maximumRatio`` times the input.
        case tooLarge(limit: Int)
        /// The stream decodes, but its checksum or recorded length (named by `what`) disagrees with the output.
        case checksumMismatch(what: String)
    }

    /// The most bytes `compressedSize` bytes may inflate to under the size and ratio caps.
    static func outputLimit(forCompressedSize compressedSize: Int) -> Int {
        min(maximumOutputSize, max(ratioFloor, maximumRatio * compressedSize))
    }

    /// `data` decoded as a `Content-Encoding` says (`gzip`, `x-gzip`, `deflate` or `identity`), in at
    /// most `limit` bytes (by default ``outputLimit(forCompressedSize:)``).
    package static func decompress(_ data: Data, contentEncoding: String, limit: Int? = nil) -> Result<Data, Failure> {
        let bytes = [UInt8](data)
        let limit = limit ?? outputLimit(forCompressedSize: bytes.count)
        do {
            switch contentEncoding.trimmingCharacters(in: .whitespaces).lowercased() {
            case "identity":
                return .success(data)
            case "gzip", "x-gzip":
                return .success(Data(try gunzip(bytes, limit: limit)))
            case "deflate":
                let isZlib = bytes.count >= 2 && bytes[0] & 0x0F == 8 && (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0
                let output = isZlib ? try unzlib(bytes, limit: limit) : try inflate(bytes, from: 0, limit: limit).output
                return .success(Data(output))
            default:
                return .failure(.unsupportedEncoding)
            }
        } catch {
            return .failure(error)
        }
    }

    /// The payload of a gzip member, checked against its trailer's CRC-32 and length.
    private static func gunzip(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard let start = gzipPayloadStart(bytes) else { throw .malformed }
        let (output, end) = try inflate(bytes, from: start, limit: limit)
        guard end + 8 <= bytes.count else {
            throw .checksumMismatch(what: "the gzip trailer (CRC-32 and length) is missing")
        }
        guard littleEndian(bytes, at: end) == CRC32.checksum(output) else {
            throw .checksumMismatch(what: "the gzip CRC-32 does not match the data")
        }
        guard littleEndian(bytes, at: end + 4) == UInt32(truncatingIfNeeded: output.count) else {
            throw .checksumMismatch(what: "the gzip length does not match the data")
        }
        return output
    }

    /// The payload of a zlib stream, checked against its Adler-32.
    private static func unzlib(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let (output, end) = try inflate(bytes, from: 2, limit: limit)
        guard end + 4 <= bytes.count else { throw .checksumMismatch(what: "the zlib Adler-32 is missing") }
        let recorded =
            UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16
            | UInt32(bytes[end + 2]) << 8 | UInt32(bytes[end + 3])
        guard recorded == adler32(output) else {
            throw .checksumMismatch(what: "the zlib Adler-32 does not match the data")
        }
        return output
    }

    /// The little-endian 32-bit number at `index`.
    private static func littleEndian(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    /// The Adler-32 checksum (RFC 1950) of `bytes`.
    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var low: UInt32 = 1
        var high: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes is the most that can be summed before `high` may overflow 32 bits.
            let end = min(index + 5552, bytes.count)
            while index < end {
                low += UInt32(bytes[index])
                high += low
                index += 1
            }
            low %= 65521
            high %= 65521
        }
        return high << 16 | low
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
    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    /// The number of extra bits after each length symbol 257…285.
    private static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// The base distance of each distance symbol 0…29.
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    /// The number of extra bits after each distance symbol 0…29.
    private static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order in which a dynamic block lists the code lengths of the code-length alphabet.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Inflates the raw deflate stream starting at `start` into at most `limit` bytes; `end` is the
    /// offset of the first byte after the stream (where a gzip or zlib trailer starts).
    static func inflate(_ bytes: [UInt8], from start: Int, limit: Int) throws(Failure) -> (output: [UInt8], end: Int) {
        var reader = BitReader(bytes: bytes, position: start)
        var output: [UInt8] = []
        var isLast = false
        while !isLast {
            guard let last = reader.bits(1), let type = reader.bits(2) else { throw .malformed }
            isLast = last == 1
            switch type {
            case 0:
                reader.alignToByte()
                guard let length = reader.bytes(2), let complement = reader.bytes(2),
                    length ^ complement == 0xFFFF, let stored = reader.take(length)
                else { throw .malformed }
                guard output.count + length <= limit else { throw .tooLarge(limit: limit) }
                output += stored
            case 1:
                let fixedLengths =
                    [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                    + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
                guard let literals = Huffman(lengths: fixedLengths),
                    let distances = Huffman(lengths: [Int](repeating: 5, count: 30))
                else { throw .malformed }
                try decodeBlock(&reader, literals: literals, distances: distances, into: &output, limit: limit)
            case 2:
                guard let (literals, distances) = dynamicCodes(&reader) else { throw .malformed }
                try decodeBlock(&reader, literals: literals, distances: distances, into: &output, limit: limit)
            default:
                throw .malformed
            }
        }
        reader.alignToByte()
        return (output, reader.position)
    }

    /// Reads the literal/length and distance codes of a dynamic block.
    private static func dynamicCodes(_ reader: inout BitReader) -> (Huffman, Huffman)? {
        guard let literalCount = reader.bits(5).map({ $0 + 257 }),
            let distanceCount = reader.bits(5).map({ $0 + 1 }),
            let codeLengthCount = reader.bits(4).map({ $0 + 4 })
        else { return nil }
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
            let distances = Huffman(lengths: Array(lengths[literalCount...]))
        else { return nil }
        return (literals, distances)
    }

    /// Decodes the symbols of one compressed block, keeping `output` within `limit` bytes.
    private static func decodeBlock(
        _ reader: inout BitReader,
        literals: Huffman,
        distances: Huffman,
        into output: inout [UInt8],
        limit: Int
    ) throws(Failure) {
        while true {
            guard let symbol = literals.decode(&reader) else { throw .malformed }
            if symbol == 256 { return }
            var length = 1
            var distance = 0
            if symbol > 256 {
                let lengthIndex = symbol - 257
                guard lengthIndex < lengthBase.count, let lengthExtra = reader.bits(lengthExtraBits[lengthIndex]),
                    let distanceSymbol = distances.decode(&reader), distanceSymbol < distanceBase.count,
                    let distanceExtra = reader.bits(distanceExtraBits[distanceSymbol])
                else { throw .malformed }
                length = lengthBase[lengthIndex] + lengthExtra
                distance = distanceBase[distanceSymbol] + distanceExtra
                guard distance <= output.count else { throw .malformed }
            }
            guard output.count + length <= limit else { throw .tooLarge(limit: limit) }
            if distance == 0 {
                output.append(UInt8(symbol))
                continue
            }
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
