import Foundation

/// Where a redirect leads, by the Fetch rules URLSession applies on Apple platforms. The one
/// place these rules live: ``ResponsePlanner`` follows stubs' redirects and the real server's
/// (while recording) alike with them, putting each to the session's delegate first when it has
/// one (see ``RedirectDelegate``).
enum Redirect {
    /// URLSession's redirect limit on Apple platforms: a request that is redirected more often
    /// fails with `NSURLErrorHTTPTooManyRedirects`.
    static let limit = 16

    /// The header fields that go with the body, dropped when a redirect drops the body.
    private static let bodyHeaders = [
        "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
    ]

    /// The next request when `status` and `headers` make a redirect of `request`: to `Location`,
    /// resolved against the request's URL. A 303 (except after a `HEAD`), and a 301 or 302 after a
    /// `POST`, becomes a `GET` without the body and its header fields; 307 and 308 keep the method
    /// and the body.
    static func next(after request: InterceptedRequest, status: Int, headers: HeaderFields) -> InterceptedRequest? {
        guard isRedirect(status),
            let location = headers["Location"],
            let url = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = url
        next.pathParameters = [:]
        let becomesGET =
            (status == 303 && request.method != .head)
            || ((status == 301 || status == 302) && request.method == .post)
        if becomesGET {
            next.method = .get
            next.body = nil
            next.bodyUnavailableReason = nil
            for name in bodyHeaders {
                next.headers.remove(name)
            }
        }
        return next
    }

    /// Whether `status` redirects, given a `Location`.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
}
