/// What a secret is replaced with: ``Redaction/placeholder`` in what is written to disk, or a
/// mask in what is printed (reports, `stubs match`, test failures).
///
/// A mask is `<redacted:1a2b3c>`: six hex digits of a hash of the secret, so that two values can
/// be told apart (the stub expected one token, the request carried another) without showing
/// either. The hash is Swift's `Hasher`, seeded at random in every process: the same secret has
/// the same mask throughout one test run or one `stubs` command, and a mask in a CI log cannot be
/// checked against a guessed password anywhere else. A `Bearer` or `Basic` credential keeps its
/// scheme: `Bearer <redacted:1a2b3c>`.
enum SecretReplacement: Sendable {
    /// ``Redaction/placeholder``.
    case placeholder
    /// `<redacted:1a2b3c>`.
    case mask

    /// The text that stands for `secret`.
    func replacing(_ secret: String) -> String {
        switch self {
        case .placeholder:
            return Redaction.placeholder
        case .mask:
            let parts = secret.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["bearer", "basic"].contains(parts[0].lowercased()) {
                return "\(parts[0]) \(Self.mask(String(parts[1])))"
            }
            return Self.mask(secret)
        }
    }

    /// `<redacted:` six hex digits of this process's hash of `secret` `>`.
    static func mask(_ secret: String) -> String {
        var hasher = Hasher()
        hasher.combine(secret)
        let digits = String(UInt(bitPattern: hasher.finalize()) & 0xFF_FFFF, radix: 16)
        return "<redacted:\(String(repeating: "0", count: 6 - digits.count))\(digits)>"
    }
}
