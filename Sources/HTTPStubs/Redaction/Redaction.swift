import Foundation

/// Which secrets are replaced before recorded traffic is written to disk, by recording
/// (`StubRegistry.replay(_:relativeTo:mode:redaction:)`, HTTPStubsFiles), by the HAR export
/// (``StubRegistry/journalAsHAR(redaction:)``) and by `stubs import-har`;
/// ``UnmatchedRequestReport``, `stubs match` and `stubs list` mask what the default redaction
/// replaces.
///
/// A redaction is a policy over names and over values, applied to every place a value can live:
/// request and response headers, the URL's path segments and matrix parameters, query, fragment
/// and user info (in the request URL and in every URL a header holds: `Location`, `Link`,
/// `Refresh`…), JSON bodies (also newline-delimited JSON and JSON behind the `)]}'` prefix),
/// `application/x-www-form-urlencoded` bodies (read as bytes, so a byte that is not UTF-8 does not
/// keep the others from being redacted), `multipart/form-data` fields, XML elements and
/// attributes, and any other body; and to values inside values: JSON in a JSON string, a URL in a
/// query value, base64, percent-encoding, a gzip or deflate body.
///
/// **Names.** A name is compared by its words (see ``secretWords``): `clientSecret`,
/// `client_secret`, `X-Client-Secret` and `user[client_secret]` are all `client secret`, and a
/// name is secret when its words hold one of the secret words. Names that describe a secret rather
/// than carry it are not secret: those whose last word is one of ``describingWords``
/// (`token_type`, `oauth_signature_method`, `password_expires`) and the CORS headers
/// (`Access-Control-Allow-Credentials`). The per-place name lists (``headers``,
/// ``queryParameters``, ``jsonMembers``, ``formFields``) add exact names, compared by their words
/// too: the default redacts the query parameters `key` and `appid` and the OAuth `code` in queries
/// and forms, words too common elsewhere to be secret everywhere (`error.code`, `zip_code` in JSON).
///
/// **Values.** With ``redactsCredentialValues``, a value shaped like a credential is replaced
/// wherever it is, whatever its name: a JSON Web Token (`eyJ….….…`), an HTTP credential
/// (`Bearer <token>`, `Basic <base64>`), a key with the prefix its service gives it (`ghp_…`,
/// `sk_live_…`, `AKIA…`), and the password of a URL's user info (`user:REDACTED@host`, or the
/// whole user info when it has no password, because a token is often sent as the user name).
///
/// **What does not parse.** A body that no reader takes (JSON with a trailing comma or nested past
/// the parser's limit, a byte that is not UTF-8, plain text, bytes) is scanned as text for
/// credentials and for values after secret names (`"name": …`, `name: …`, `name=…`, `<name>…`),
/// which are replaced where they are; what cannot be redacted in place (base64 or gzip holding a
/// secret, a body in an encoding that cannot be decoded) is replaced whole.
///
/// Secrets are written as ``placeholder``, and recorded stubs still match later requests whatever
/// secret those carry. Opting out is explicit: ``none``.
public struct Redaction: Sendable, Hashable {
    /// What a redacted value is written as.
    public static let placeholder = "REDACTED"

    /// Words and phrases (words separated by a space, such as `api key`) that make a name secret
    /// wherever it appears: a name is secret when some run of its words is one of them (a plural
    /// `s` allowed), or when one of its words is one written as one word (`apikey`) or, for those
    /// of five letters or more, ends with it (`accesstoken`, `xsrftoken`).
    public var secretWords: Set<String> {
        didSet { vocabulary = SecretVocabulary(secretWords) }
    }
    /// ``secretWords`` prepared once, as every name is compared with each of them.
    private var vocabulary: SecretVocabulary
    /// Header names, compared by their words, whose values are replaced besides those with secret words.
    public var headers: Set<String>
    /// Query parameter names, compared by their words, whose values are replaced besides those with
    /// secret words (in the request URL and in URLs in headers, their fragments included).
    public var queryParameters: Set<String>
    /// JSON member names (and XML element and attribute names), compared by their words, whose
    /// values are replaced besides those with secret words, at any depth of request and response bodies.
    public var jsonMembers: Set<String>
    /// Form and multipart field names, compared by their words, whose values are replaced besides
    /// those with secret words.
    public var formFields: Set<String>
    /// Whether values shaped like credentials (JWTs, `Bearer` and `Basic` credentials, the
    /// password of a URL's user info) are replaced whatever their names.
    public var redactsCredentialValues: Bool

    /// Creates a redaction. Names and words are kept by their words (`Device_ID` as `device id`).
    public init(
        secretWords: Set<String> = [],
        headers: Set<String>,
        queryParameters: Set<String>,
        jsonMembers: Set<String>,
        formFields: Set<String>,
        redactsCredentialValues: Bool = false
    ) {
        self.secretWords = Set(secretWords.map { SecretName($0).spelled })
        self.vocabulary = SecretVocabulary(self.secretWords)
        self.headers = Set(headers.map { SecretName($0).spelled })
        self.queryParameters = Set(queryParameters.map { SecretName($0).spelled })
        self.jsonMembers = Set(jsonMembers.map { SecretName($0).spelled })
        self.formFields = Set(formFields.map { SecretName($0).spelled })
        self.redactsCredentialValues = redactsCredentialValues
    }

    /// Credentials in the usual places: names with the words `password`, `passwd`, `pwd`,
    /// `passphrase`, `passcode`, `secret`, `token`, `api key`, `private key`, `credential`,
    /// `authorization`, `auth`, `cookie`, `session`, `session id`, `sessid`, `signature`, `sig`,
    /// `jwt`, `otp` or `assertion`, or a key of a kind services issue as credentials (`access key`,
    /// `app key`, `client key`, `account key`, `master key`, `subscription key`, `license key`,
    /// `signing key`, `encryption key`, `functions key`) (so `Authorization`, `Cookie`, `Set-Cookie`,
    /// `X-API-Key`, `X-Amz-Security-Token`, `X-Amz-Signature`, `accessToken`, `client_secret`,
    /// `user[password]`, `JSESSIONID`, `PHPSESSID`, `access_key`, `Ocp-Apim-Subscription-Key`); the
    /// query parameters `key`, `code` and `appid`, and the form field `code`; and values shaped like
    /// credentials.
    public static let `default` = Redaction(
        secretWords: [
            "password", "passwd", "pwd", "passphrase", "passcode", "secret", "token", "api key", "private key",
            "credential", "authorization", "auth", "cookie", "session", "session id", "sessid", "signature", "sig",
            "jwt", "otp", "assertion", "access key", "app key", "client key", "account key", "master key",
            "subscription key", "license key", "signing key", "encryption key", "functions key",
        ],
        headers: [],
        queryParameters: ["key", "code", "appid"],
        jsonMembers: [],
        formFields: ["code"],
        redactsCredentialValues: true
    )

    /// Nothing is redacted: recordings keep every secret. Use only for traffic without any.
    public static let none = Redaction(headers: [], queryParameters: [], jsonMembers: [], formFields: [])

    /// The last words that make a name describe a secret rather than hold one (`token_type`,
    /// `auth_method`, `password_expires`, `token_url`).
    public static let describingWords: Set<String> = [
        "type", "kind", "method", "url", "uri", "endpoint", "expires", "expiry", "expiration", "ttl",
        "length", "count", "format", "scheme", "version", "alg", "algorithm",
    ]

    /// This redaction with more secret words and more header, query parameter, JSON member and form field names.
    public func adding(
        secretWords: Set<String> = [],
        headers: Set<String> = [],
        queryParameters: Set<String> = [],
        jsonMembers: Set<String> = [],
        formFields: Set<String> = []
    ) -> Redaction {
        Redaction(
            secretWords: self.secretWords.union(secretWords),
            headers: self.headers.union(headers),
            queryParameters: self.queryParameters.union(queryParameters),
            jsonMembers: self.jsonMembers.union(jsonMembers),
            formFields: self.formFields.union(formFields),
            redactsCredentialValues: redactsCredentialValues
        )
    }

    /// Where a name is, which decides the name list it is compared with.
    enum Place {
        case header, query, jsonMember, formField
    }

    /// Whether this redaction replaces anything at all.
    var redactsAnything: Bool {
        redactsCredentialValues
            || ![secretWords, headers, queryParameters, jsonMembers, formFields].allSatisfy(\.isEmpty)
    }

    /// Whether the value of the name `name` at `place` is secret.
    func isSecret(_ name: String, at place: Place) -> Bool {
        let words = SecretName(name)
        let listed: Set<String> =
            switch place {
            case .header: headers
            case .query: queryParameters
            case .jsonMember: jsonMembers
            case .formField: formFields
            }
        if listed.contains(words.spelled) { return true }
        guard let last = words.words.last, !Self.describingWords.contains(last) || words.words.count == 1,
            words.words.prefix(2) != ["access", "control"]
        else { return false }
        return vocabulary.matches(words)
    }

    /// Whether `value` is shaped like a credential and this redaction replaces such values.
    func isSecretValue(_ value: String) -> Bool {
        redactsCredentialValues && CredentialShape.matches(value)
    }
}
