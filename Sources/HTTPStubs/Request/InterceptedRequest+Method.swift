extension InterceptedRequest {
    /// An HTTP request method such as `GET` or `POST`.
    ///
    /// Methods are compared case-sensitively after being upper-cased, as URLSession sends them.
    /// Use the static members for the common methods, or create any other one from a string.
    public struct Method: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The method's name, upper-cased.
        public let rawValue: String

        /// Creates a method from its name; the name is upper-cased.
        public init(rawValue: String) {
            // The commonest names first, compared whole (a short string compares as two machine
            // words), rather than byte by byte below.
            if rawValue == "GET" || rawValue == "POST" {
                self.rawValue = rawValue
                return
            }
            // A name already upper-case ASCII, as URLSession sends every method, is kept as it is.
            let isUpperCase = rawValue.utf8.allSatisfy {
                $0 < 0x80 && !($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
            }
            self.rawValue = isUpperCase ? rawValue : rawValue.uppercased()
        }

        /// Creates a method from a string literal such as `"PROPFIND"`.
        public init(stringLiteral value: String) {
            self.init(rawValue: value)
        }

        /// The method's name.
        public var description: String { rawValue }

        /// `GET`
        public static let get = Method(rawValue: "GET")
        /// `HEAD`
        public static let head = Method(rawValue: "HEAD")
        /// `POST`
        public static let post = Method(rawValue: "POST")
        /// `PUT`
        public static let put = Method(rawValue: "PUT")
        /// `PATCH`
        public static let patch = Method(rawValue: "PATCH")
        /// `DELETE`
        public static let delete = Method(rawValue: "DELETE")
        /// `OPTIONS`
        public static let options = Method(rawValue: "OPTIONS")
        /// `TRACE`
        public static let trace = Method(rawValue: "TRACE")
        /// `CONNECT`
        public static let connect = Method(rawValue: "CONNECT")
    }
}

extension InterceptedRequest.Method {
    /// Whether the name is an HTTP token (RFC 9110, section 5.6.2): one or more of the letters,
    /// digits and ``!#$%&'*+-.^_`|~``. A name with a space, a slash or a dot-dot path is not a method.
    package var isToken: Bool {
        !rawValue.isEmpty
            && rawValue.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
