import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLError.Code` names as written in Swift (`notConnectedToInternet`), for stub files and messages.
package enum URLErrorNames {
    private static let codes: [String: URLError.Code] = [
        "unknown": .unknown, "cancelled": .cancelled, "badURL": .badURL, "timedOut": .timedOut,
        "unsupportedURL": .unsupportedURL, "cannotFindHost": .cannotFindHost,
        "cannotConnectToHost": .cannotConnectToHost,
        "networkConnectionLost": .networkConnectionLost, "dnsLookupFailed": .dnsLookupFailed,
        "httpTooManyRedirects": .httpTooManyRedirects, "resourceUnavailable": .resourceUnavailable,
        "notConnectedToInternet": .notConnectedToInternet,
        "redirectToNonExistentLocation": .redirectToNonExistentLocation,
        "badServerResponse": .badServerResponse, "userCancelledAuthentication": .userCancelledAuthentication,
        "userAuthenticationRequired": .userAuthenticationRequired, "zeroByteResource": .zeroByteResource,
        "cannotDecodeRawData": .cannotDecodeRawData, "cannotDecodeContentData": .cannotDecodeContentData,
        "cannotParseResponse": .cannotParseResponse, "fileDoesNotExist": .fileDoesNotExist,
        "dataLengthExceedsMaximum": .dataLengthExceedsMaximum, "secureConnectionFailed": .secureConnectionFailed,
        "serverCertificateHasBadDate": .serverCertificateHasBadDate,
        "serverCertificateUntrusted": .serverCertificateUntrusted,
        "serverCertificateHasUnknownRoot": .serverCertificateHasUnknownRoot,
        "serverCertificateNotYetValid": .serverCertificateNotYetValid,
        "clientCertificateRejected": .clientCertificateRejected,
        "clientCertificateRequired": .clientCertificateRequired,
        "cannotLoadFromNetwork": .cannotLoadFromNetwork, "internationalRoamingOff": .internationalRoamingOff,
        "callIsActive": .callIsActive, "dataNotAllowed": .dataNotAllowed,
        "requestBodyStreamExhausted": .requestBodyStreamExhausted,
        "appTransportSecurityRequiresSecureConnection": .appTransportSecurityRequiresSecureConnection,
    ]

    /// The code with this name.
    package static func code(named name: String) -> URLError.Code? {
        codes[name]
    }

    /// The name of a code, such as `notConnectedToInternet`, or its number.
    package static func name(of code: URLError.Code) -> String {
        codes.first { $0.value == code }?.key ?? "\(code.rawValue)"
    }
}
