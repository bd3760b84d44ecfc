/// What a secret is replaced with: ``Redaction/placeholder`` in what is written to disk, or a
/// mask in what is printed (reports, `stubs match`, test failures).
///
/// A mask is `<redacted:1a2b3c>`: six hex digits of a hash of the secret, so that two values can
/// be told apart (the stub expected one token, the request carried another) without showing
/// either. The hash is Swift's `Hasher`, seeded at random in every process: the same secret has
/// the same mask throughout one test run or one `stubs` command, and a mask in a CI log cannot be
/// checked against a guessed password anywhere else. A `Bearer` or `Basic` credential keeps its
/// scheme: `Bearer <redacted:1a2b3c>`.
package enum SecretReplacement: Sendable {
    /// ``Redaction/placeholder``.
    case placeholder
    /// `<redacted:1a2b3c>`.
    case mask
    /// A mask, each secret also noted in the collector: how a report learns which values of a
    /// request are secret, to mask them wherever else they show (see ``LogMasking``).
    case noting(SecretCollector)

    /// The text that stands for `secret`. A mask, and ``Redaction/placeholder`` (a recorded stub's
    /// redacted value), stand for themselves: a value masked once (by the value, then by its
    /// name) keeps the one mask.
    func replacing(_ secret: String) -> String {
        switch self {
        case .placeholder:
            return Redaction.placeholder
        case _ where Self.isMasked(secret):
            return secret
        case let .noting(collector):
            collector.note(secret)
            return Self.mask.replacing(secret)
        case .mask:
            let parts = secret.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["bearer", "basic"].contains(parts[0].lowercased()) {
                return "\(parts[0]) \(Self.mask(String(parts[1])))"
            }
            return Self.mask(secret)
        }
    }

    /// Whether `text` is masked already: `<redacted:1a2b3c>`, `Bearer <redacted:1a2b3c>`, or
    /// ``Redaction/placeholder``.
    static func isMasked(_ text: String) -> Bool {
        let token = text.split(separator: " ", maxSplits: 1).last ?? ""
        return token == Redaction.placeholder
            || (token.count == 17 && token.hasPrefix("<redacted:") && token.hasSuffix(">"))
    }

    /// `<redacted:` six hex digits of this process's hash of `secret` `>`.
    static func mask(_ secret: String) -> String {
        var hasher = Hasher()
        hasher.combine(secret)
        let digits = String(UInt(bitPattern: hasher.finalize()) & 0xFF_FFFF, radix: 16)
        return "<redacted:\(String(repeating: "0", count: 6 - digits.count))\(digits)>"
    }
}

/// The secrets a ``SecretReplacement/noting(_:)`` redaction replaced.
package final class SecretCollector: Sendable {
    private let secrets = Locked<Set<String>>([])

    /// Notes one secret; a `Bearer` or `Basic` credential is noted with its token alone too.
    func note(_ secret: String) {
        let parts = secret.split(separator: " ", maxSplits: 1)
        let token = parts.count == 2 && ["bearer", "basic"].contains(parts[0].lowercased()) ? String(parts[1]) : nil
        secrets.withLock { noted in
            noted.insert(secret)
            if let token { noted.insert(token) }
        }
    }

    /// Every secret noted so far.
    var all: Set<String> {
        secrets.withLock { $0 }
    }
}
