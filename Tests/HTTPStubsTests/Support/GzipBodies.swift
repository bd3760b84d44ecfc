import Foundation

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Gzip bodies built by hand for the inflate tests: a "bomb" of zeros, and a stored (uncompressed)
/// member whose bytes a test can corrupt.
enum GzipBodies {
    /// A gzip member whose single fixed-Huffman block inflates to `1 + 258 × copies` zero bytes:
    /// a literal zero, then `copies` times "repeat 258 bytes from distance 1". Each copy takes 13
    /// bits, so the body is about 160 times smaller than its output. The trailer holds `crc` (the
    /// right CRC-32 is only worth computing for small outputs; a bomb is refused before it is read).
    static func zeros(copies: Int, crc: UInt32 = 0) -> Data {
        var writer = BitWriter()
        writer.write(1, width: 1)  // BFINAL
        writer.write(1, width: 2)  // BTYPE 01: fixed Huffman codes
        writer.writeCode(0b0011_0000, width: 8)  // literal 0
        for _ in 0..<copies {
            writer.writeCode(0b1100_0101, width: 8)  // length symbol 285: 258 bytes
            writer.writeCode(0, width: 5)  // distance symbol 0: distance 1
        }
        writer.writeCode(0, width: 7)  // end of block (256)
        let size = UInt32(truncatingIfNeeded: 1 + 258 * copies)
        return header + Data(writer.finished) + littleEndian(crc) + littleEndian(size)
    }

    /// `payload` as a gzip member of one stored block, with the right CRC-32 and length.
    static func stored(_ payload: [UInt8]) -> Data {
        precondition(payload.count <= 0xFFFF, "one stored block holds at most 65,535 bytes")
        let length = UInt16(payload.count)
        let block: [UInt8] = [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        return header + Data(block + payload) + littleEndian(CRC32.checksum(payload))
            + littleEndian(UInt32(payload.count))
    }

    /// `payload` as a gzip member of one fixed-Huffman block of literals: compressed, so the
    /// payload's text does not show in its bytes (unlike ``stored(_:)``).
    static func literals(_ payload: [UInt8]) -> Data {
        var writer = BitWriter()
        writer.write(1, width: 1)  // BFINAL
        writer.write(1, width: 2)  // BTYPE 01: fixed Huffman codes
        for byte in payload {
            // Literals 0-143 are the 8-bit codes 0x30-0xBF; 144-255 the 9-bit codes 0x190-0x1FF.
            if byte < 144 {
                writer.writeCode(0x30 + UInt32(byte), width: 8)
            } else {
                writer.writeCode(0x190 + UInt32(byte) - 144, width: 9)
            }
        }
        writer.writeCode(0, width: 7)  // end of block (256)
        return header + Data(writer.finished) + littleEndian(CRC32.checksum(payload))
            + littleEndian(UInt32(payload.count))
    }

    /// Lowercase hexadecimal, as Polly.JS writes a chunk.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(data.count * 2)
        for byte in data {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A gzip header: deflate, no flags, no time, unknown OS.
    private static let header = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF])

    private static func littleEndian(_ value: UInt32) -> Data {
        Data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }

    /// Packs bits least-significant first, as deflate does.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var pending: UInt32 = 0
        private var count: UInt32 = 0

        /// Writes the `width` low bits of `value`, lowest first (header fields and extra bits).
        mutating func write(_ value: UInt32, width: UInt32) {
            pending |= value << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(pending & 0xFF))
                pending >>= 8
                count -= 8
            }
        }

        /// Writes a Huffman code of `width` bits, most-significant bit first.
        mutating func writeCode(_ code: UInt32, width: UInt32) {
            var reversed: UInt32 = 0
            for bit in 0..<width where code & (1 << bit) != 0 {
                reversed |= 1 << (width - 1 - bit)
            }
            write(reversed, width: width)
        }

        /// The bytes, the last one padded with zero bits.
        var finished: [UInt8] { count > 0 ? bytes + [UInt8(pending & 0xFF)] : bytes }
    }
}
