import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `NSError` inside every `URLError` the toolkit makes: its `description` (what `"\(error)"` and
/// `print(error)` show) is the message first, then the code, where swift-corelibs-foundation would print
/// `Error Domain=NSURLErrorDomain Code=-1008 "(null)" UserInfo={NSLocalizedDescription=…}` and bury the
/// message inside a dictionary.
///
/// Everything else is an ordinary `NSError`: the domain, the code and the user info
/// (`NSLocalizedDescriptionKey`, `NSURLErrorFailingURLErrorKey`), so `localizedDescription`,
/// `failingURL`, `code` and comparisons behave as for any `URLError`; archived, it is a plain `NSError`.
final class MessageFirstError: NSError, @unchecked Sendable {
    // Sendable: it adds no stored state to NSError, whose domain, code and user info never change.

    /// `message` first, then `(URLError.Code.resourceUnavailable, NSURLErrorDomain -1008)`.
    override var description: String {
        let message = userInfo[NSLocalizedDescriptionKey] as? String ?? ""
        let name = URLError.Code(rawValue: code).map(URLErrorNames.name(of:)) ?? "\(code)"
        return "\(message)\n(URLError.Code.\(name), \(domain) \(code))"
    }

    override var classForCoder: AnyClass { NSError.self }

    /// A `URLError` with `code` whose message is `message` and whose failing URL is `url`: how the
    /// toolkit makes every `URLError` it delivers.
    static func urlError(_ code: URLError.Code, message: String, url: URL?) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(_nsError: MessageFirstError(domain: NSURLErrorDomain, code: code.rawValue, userInfo: info))
    }
}
