import AgroDomain
import AgroHTTP
import AgroWeather
import Foundation

/// OpenWeatherMap client on AgroHTTP (libcurl): one overall deadline per request and a cap on
/// the decoded answer while it arrives.
public final class OpenWeatherMapClient: WeatherService {
    /// The largest answer read: a 5-day forecast is about 16 KB.
    public static let maximumAnswerSize: Int64 = 4 << 20
    /// Where and how to ask.
    public let configuration: OpenWeatherMapConfiguration
    private let client = HTTPClient()
    private let redactor: KeyRedactor

    /// A client for `configuration`.
    public init(configuration: OpenWeatherMapConfiguration) {
        self.configuration = configuration
        redactor = KeyRedactor(key: configuration.apiKey)
    }

    /// Fetches /data/2.5/weather for `point`.
    public func current(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> CurrentWeather {
        let data = try await fetch(.current, at: point, units: units, locale: locale)
        return try decode(CurrentWeather.self, from: data)
    }

    /// Fetches /data/2.5/forecast (5 days, 3-hour slots) for `point`.
    public func forecast(at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Forecast {
        let data = try await fetch(.forecast, at: point, units: units, locale: locale)
        return try decode(Forecast.self, from: data)
    }

    /// The request URL with the key in it; never print it, use `displayURL` instead.
    public func url(for endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?) -> URL {
        // A base URL that URLComponents cannot take (resolve() refuses such) yields an empty path.
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + "/data/2.5/" + endpoint.rawValue
        var items = [
            URLQueryItem(name: "lat", value: Self.number(point.latitude)),
            URLQueryItem(name: "lon", value: Self.number(point.longitude)),
            URLQueryItem(name: "units", value: units.rawValue),
        ]
        if let locale, !locale.isEmpty { items.append(URLQueryItem(name: "lang", value: locale)) }
        items.append(URLQueryItem(name: "appid", value: configuration.apiKey))
        components.queryItems = items
        // URLComponents leaves "+" alone in queries; a key or lang with "+" must not turn into a space.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? configuration.baseURL
    }

    /// The request URL as it may be shown: the key masked.
    public func displayURL(for endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?) -> String {
        redactor.redact(url(for: endpoint, at: point, units: units, locale: locale).absoluteString)
    }

    /// Checked body of one request: HTTP errors and transport failures become `WeatherError`.
    func fetch(_ endpoint: WeatherEndpoint, at point: Coordinates, units: WeatherUnits, locale: String?) async throws -> Data {
        let url = url(for: endpoint, at: point, units: units, locale: locale)
        var request = HTTPRequest(
            url: url, maxBodyBytes: Self.maximumAnswerSize, deadline: configuration.timeout, userAgent: "agro (weather)")
        request.setHeader("Accept", "application/json")
        let data: Data
        let response: HTTPResponse
        do {
            (response, data) = try await client.get(request)
        } catch {
            throw transportError(error, url: url)
        }
        if response.status == 200 { return data }
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.message
        throw httpError(status: response.status, serverMessage: message, retryAfter: response.value(for: "Retry-After"))
    }

    func decode<T: Decodable & CarriesResponseCode & PlausibleAnswer>(_ type: T.Type, from data: Data) throws -> T {
        // The answer is decoded once as what was asked for; the error body is only read when that
        // fails or when the answer's own code says it is an error.
        let decoder = JSONDecoder()
        let value: T
        do {
            value = try decoder.decode(T.self, from: data)
        } catch {
            // A Forecast error body has no "list", so a 200 with one lands here.
            if let body = try? decoder.decode(ErrorBody.self, from: data), let code = body.cod?.value, code >= 400 {
                throw httpError(status: code, serverMessage: body.message, retryAfter: nil)
            }
            if let error = error as? DecodingError {
                throw WeatherError.malformedAnswer(detail: redactor.redact(Self.describe(error)))
            }
            throw WeatherError.malformedAnswer(detail: redactor.redact(String(describing: error)))
        }
        // OpenWeatherMap sometimes answers 200 with an error body ({"cod":"404",...}); every field
        // of CurrentWeather is optional, so such a body decodes and only its code tells.
        if let code = value.cod?.value, code >= 400 {
            let message = (try? decoder.decode(ErrorBody.self, from: data))?.message
            throw httpError(status: code, serverMessage: message, retryAfter: nil)
        }
        if let problem = value.implausibility {
            throw WeatherError.malformedAnswer(detail: redactor.redact(problem))
        }
        return value
    }

    /// - Parameter serverMessage: the error body's message as received; redacted here.
    private func httpError(status: Int, serverMessage: String?, retryAfter: String?) -> WeatherError {
        let serverMessage = serverMessage.map { redactor.redact($0) }
        switch status {
        case 401: return .keyRejected(serverMessage: serverMessage)
        case 404: return .notFound(serverMessage: serverMessage)
        case 429: return .rateLimited(retryAfter: retryAfter.flatMap { Self.retryAfterSeconds($0) }, serverMessage: serverMessage)
        case 500...599: return .serverError(status: status)
        default: return .requestRefused(status: status, serverMessage: serverMessage)
        }
    }

    private func transportError(_ error: HTTPError, url: URL) -> WeatherError {
        let shown = redactor.redact(Self.hostAndPath(url))
        switch error {
        case .timedOut, .stalled:
            return .timeout(seconds: configuration.timeout, url: shown)
        case let .tooLarge(limit):
            return .malformedAnswer(detail: "the answer is larger than \(limit) bytes")
        case .broken:
            return .noNetwork(reason: "the connection failed or broke off before the answer was complete", url: shown)
        default:
            return .noNetwork(reason: redactor.redact(error.reason), url: shown)
        }
    }

    /// Scheme, host, port and path: enough to tell which server failed, never the query (the key).
    private static func hostAndPath(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        return components?.string ?? "the weather server"
    }

    /// Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110, 10.2.3).
    static func retryAfterSeconds(_ text: String, now: Date = Date()) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, Int(saturating: date.timeIntervalSince(now).rounded(.up)))
    }

    private static func number(_ value: Double) -> String {
        // Six decimals are ~0.1 m: plenty, and avoids "1e-05" forms the server may not parse.
        let text = trimmedDecimal(value, places: 6)
        return text == "-0" ? "0" : text
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "top level" : String(text.drop(while: { $0 == "." }))
        }
        switch error {
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty { return "not valid JSON (truncated or not JSON at all)" }
            return "bad value at \(path(context.codingPath))"
        case let .keyNotFound(key, context):
            return "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "unexpected value at \(path(context.codingPath))"
        @unknown default:
            return "cannot decode"
        }
    }
}

/// An answer whose body carries OpenWeatherMap's status code, which may say error under HTTP 200.
protocol CarriesResponseCode {
    var cod: ResponseCode? { get }
}

extension CurrentWeather: CarriesResponseCode {}
extension Forecast: CarriesResponseCode {}

/// An OpenWeatherMap error body: `{"cod": 401, "message": "..."}` (cod may be a string).
struct ErrorBody: Decodable {
    var cod: ResponseCode?
    var message: String?

    enum CodingKeys: String, CodingKey { case cod, message }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cod = try? container.decodeIfPresent(ResponseCode.self, forKey: .cod)
        // Success answers put a number in "message"; only text is a message.
        message = try? container.decodeIfPresent(String.self, forKey: .message)
    }
}
