import AgroDomain
import AgroPresentation
import Foundation
import HTTPTypes

/// A failed API request as JSON: the CLI's message and exit status, mapped to an HTTP status.
///
///     {"error": {"status": 409, "exitStatus": 4, "code": "ambiguous", "message": "...", "candidates": [...]}}
///
/// 3 (matches nothing) is 404 with the closest names as `suggestions`; 4 (several match) is
/// 409 with the `candidates`; 64 (bad usage) is 400; a missing or unusable catalog is 503;
/// weather failures are 503 (no key) or 502/504 (the upstream server); anything else 500.
struct APIError: Encodable, Sendable {
    struct Body: Encodable, Sendable {
        var status: Int
        var exitStatus: Int32
        var code: String
        var message: String
        var candidates: [EntityRef]?
        var suggestions: [EntityRef]?
    }

    var error: Body
    /// Seconds for the answer's Retry-After, the same number its message gives (not in the JSON).
    var retryAfter: Int?

    private enum CodingKeys: String, CodingKey { case error }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: error.status) }

    /// The report the CLI gives `thrown` (its status and its words in `strings`' language).
    init(_ thrown: any Error, strings: Localizer, wordings: [any ErrorWording]) {
        if let limited = Self.limit(thrown, strings: strings) {
            self = limited
            return
        }
        // The web's words name its query parameters (`letter=`), never the CLI's flags.
        let report = ErrorReport.of(thrown, strings: strings, wordings: wordings, spelling: .query)
        error = Body(report.message, report.status)
        if case let .tooManyAttempts(seconds) = thrown as? FarmError { retryAfter = seconds }
        if let failure = thrown as? CatalogError {
            switch failure {
            case let .ambiguous(_, _, candidates): error.candidates = candidates
            case let .unknownName(_, _, suggestions): error.suggestions = suggestions
            default: break
            }
        }
    }

    /// The answer to a request refused by one of `WebLimits` (rate, deadline), if it was.
    static func limit(_ thrown: any Error, strings s: Localizer) -> APIError? {
        switch thrown {
        case let limit as WebLimitError:
            switch limit {
            case let .tooManyRequests(seconds):
                var error = APIError(status: 429, code: "tooManyRequests", message: s("web.http.tooManyRequests", seconds))
                error.retryAfter = seconds
                return error
            case .tooSlow: return APIError(status: 503, code: "tooSlow", message: s("web.http.tooSlow"))
            }
        case is CatalogDeadline.Exceeded:
            return limit(WebLimitError.tooSlow, strings: s)
        default:
            return nil
        }
    }

    /// An HTTP-level failure (no such endpoint, method not allowed, busy): exit status 1.
    init(status: Int, code: String, message: String) {
        error = Body(status: status, exitStatus: ExitStatus.failure.rawValue, code: code, message: message)
    }

    init(notFound path: String, strings: Localizer) {
        error = Body(strings("web.http.noSuchEndpoint", path), .notFound)
        error.code = "noSuchEndpoint"
    }
}

extension APIError.Body {
    init(_ message: String, _ exitStatus: ExitStatus) {
        let (status, code): (Int, String)
        switch exitStatus.rawValue {
        case ExitStatus.notFound.rawValue: (status, code) = (404, "notFound")
        case ExitStatus.ambiguous.rawValue: (status, code) = (409, "ambiguous")
        case ExitStatus.usage.rawValue: (status, code) = (400, "badRequest")
        case ExitStatus.catalogUnavailable.rawValue, ExitStatus.catalogTooNew.rawValue:
            (status, code) = (503, "catalogUnavailable")
        case ExitStatus.notSignedIn.rawValue: (status, code) = (401, "unauthorized")
        case ExitStatus.notAllowed.rawValue: (status, code) = (403, "forbidden")
        case ExitStatus.tooManyAttempts.rawValue: (status, code) = (429, "tooManyRequests")
        case ExitStatus.journalUnavailable.rawValue: (status, code) = (503, "journalUnavailable")
        case ExitStatus.batchTooLarge.rawValue: (status, code) = (413, "tooLarge")
        case 80: (status, code) = (503, "weatherUnavailable")
        case 82: (status, code) = (404, "weatherNotFound")
        case 85: (status, code) = (504, "weatherTimeout")
        case 81...89: (status, code) = (502, "weatherFailed")
        default: (status, code) = (500, "failure")
        }
        self.init(status: status, exitStatus: exitStatus.rawValue, code: code, message: message)
    }
}
