import AgroDomain
import Foundation

/// Everything that can go wrong when asking OpenWeatherMap for weather.
///
/// Messages never contain the API key: the client passes every URL, server text and system
/// error through `KeyRedactor` before it goes into a case.
public enum WeatherError: UserFacingError, Equatable {
    /// Neither OPENWEATHER_API_KEY nor the config file gives a key.
    case noAPIKey
    /// HTTP 401: the key is wrong, revoked or not yet activated.
    case keyRejected(serverMessage: String?)
    /// HTTP 404.
    case notFound(serverMessage: String?)
    /// HTTP 429; `retryAfter` in seconds when the server said so.
    case rateLimited(retryAfter: Int?, serverMessage: String?)
    /// HTTP 5xx.
    case serverError(status: Int)
    /// Another HTTP status OpenWeatherMap uses for bad requests (400 and the like).
    case requestRefused(status: Int, serverMessage: String?)
    /// No answer within `seconds`.
    case timeout(seconds: Double, url: String)
    /// The host could not be reached or the connection broke; `reason` is a short description.
    case noNetwork(reason: String, url: String)
    /// The answer was not the expected JSON; `detail` says where decoding stopped.
    case malformedAnswer(detail: String)
    /// --offline, and no answer is cached for the place.
    case nothingCached(place: String)
    /// AGRO_OPENWEATHER_URL is not an http(s) URL.
    case invalidBaseURL(String)
    /// The service failed several times in a row and is not asked again for `retryAfter`
    /// seconds (`CircuitBreaker`), so that waiting for it costs nobody anything meanwhile.
    case stalled(retryAfter: Int)

    /// The error in English, one line, for library users (the CLI and the web word it in the interface language).
    public var message: String {
        switch self {
        case .noAPIKey:
            return "no OpenWeatherMap API key: get a free one at https://home.openweathermap.org/api_keys "
                + "(sign up, then copy the key) and set OPENWEATHER_API_KEY or put it in the config file"
        case let .keyRejected(server):
            return "OpenWeatherMap rejected the API key (HTTP 401)\(Self.quoted(server)); "
                + "check the key, new keys take up to 2 hours to activate"
        case let .notFound(server):
            return "OpenWeatherMap has no weather for this request (HTTP 404)\(Self.quoted(server))"
        case let .rateLimited(retryAfter, server):
            let wait = retryAfter.map { "; try again in \(Self.duration($0))" } ?? "; try again later"
            return "OpenWeatherMap rate limit reached (HTTP 429)\(Self.quoted(server))\(wait)"
        case let .serverError(status):
            return "OpenWeatherMap failed with HTTP \(status); try again later"
        case let .requestRefused(status, server):
            return "OpenWeatherMap refused the request (HTTP \(status))\(Self.quoted(server))"
        case let .timeout(seconds, url):
            return "no answer from \(url) within \(Self.seconds(seconds)); check the network or try again"
        case let .noNetwork(reason, url):
            return "cannot reach \(url): \(reason)"
        case let .malformedAnswer(detail):
            return "OpenWeatherMap's answer is not the expected JSON: \(detail)"
        case let .nothingCached(place):
            return "offline and no weather cached for \(place); run once without --offline"
        case let .invalidBaseURL(text):
            return "AGRO_OPENWEATHER_URL must be an http or https URL, got \"\(text)\""
        case let .stalled(retryAfter):
            return "OpenWeatherMap is not answering; it is not asked again for \(Self.duration(retryAfter))"
        }
    }

    /// Whether a cached answer may stand in for a fresh one: the failure is in the network or the
    /// server, not in the user's key or request.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .serverError, .timeout, .noNetwork, .malformedAnswer, .stalled: return true
        case .noAPIKey, .keyRejected, .notFound, .requestRefused, .nothingCached, .invalidBaseURL:
            return false
        }
    }

    private static func quoted(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        // Server text goes on one line: a message is one line by contract.
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return ": \"\(oneLine)\""
    }

    private static func duration(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\((seconds + 59) / 60) min" }
        return "\((seconds + 3599) / 3600) h"
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

/// Removes an API key from any text that might carry it (URLs, server messages, system errors).
public struct KeyRedactor: Sendable {
    private let secrets: [String]

    /// - Parameter key: the key to hide; nil or empty hides nothing but still masks `appid=` values.
    public init(key: String?) {
        guard let key, !key.isEmpty else {
            secrets = []
            return
        }
        let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
        secrets = Array(Set([key, encoded])).sorted { $0.count > $1.count }
    }

    /// `text` with the key replaced by "***" and every `appid=` query value masked.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets { result = result.replacingOccurrences(of: secret, with: "***") }
        // Also mask appid values we did not put there ourselves (e.g. a key inside a proxy URL).
        var output = ""
        var rest = Substring(result)
        while let range = rest.range(of: "appid=", options: .caseInsensitive) {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex(where: { "&# \"'\n".contains($0) }) ?? rest.endIndex
            if rest.startIndex != end { output += "***" }
            rest = rest[end...]
        }
        output += rest
        return output
    }
}
