import AgroDomain
import AgroWeather
import Foundation

/// The errors of the modules only the complete program uses: updates, weather, feeds, import
/// and content builds (see `ErrorWording`).
///
/// The update, feed, import and content errors come as `ErrorCase`s (`DescribedError`), so this
/// module imports none of those libraries and the query program, which links it, loads neither
/// libcurl, libxml2, zlib nor swift-crypto. Their statuses are the table below, one row per
/// case; ErrorWordingTests builds every case and fails on one without its row or its words.
/// Weather errors come from AgroWeather's network-free part and keep their exhaustive switch.
package struct ServiceErrorWording: ErrorWording {
    package init() {}

    package func report(_ error: any Error, strings: Localizer, spelling: ParameterSpelling) -> ErrorReport? {
        switch error {
        case let error as WeatherError: return Self.report(error, strings, spelling: spelling)
        case let error as any DescribedError: return Self.report(error.errorCase, strings)
        default: return nil
        }
    }

    /// The report of a described case; nil for a case without a status here (its English
    /// words and the general failure status then).
    package static func report(_ errorCase: ErrorCase, _ s: Localizer) -> ErrorReport? {
        guard let status = statuses[errorCase.type]?[errorCase.name] else { return nil }
        return ErrorReport(status, text(errorCase, s))
    }

    /// The words of a described case: `error.<type>.<name>` with its arguments.
    package static func text(_ errorCase: ErrorCase, _ s: Localizer) -> String {
        switch (errorCase.type, errorCase.name) {
        case ("UpdateError", "checksumMismatch"):
            // Digests are cut to 16 hex digits: enough to compare by eye.
            let a = errorCase.arguments
            return s(errorCase.key, a[0], String(a[1].prefix(16)), String(a[2].prefix(16)))
        case ("UpdateError", "expired"):
            // The manifest's ISO stamp, written as the language writes time stamps.
            return s(errorCase.key, s.timestamp(errorCase.arguments[0]))
        case ("SyncClientError", let name) where name.hasPrefix("refused"):
            // The server's own words come in the language asked for.
            return s("error.SyncClientError.refused", arguments: errorCase.arguments)
        case ("ContentBuildError", "one"):
            // The problem itself comes from the sources, worded where it is found.
            return errorCase.arguments[0]
        default:
            return s(errorCase.key, arguments: errorCase.arguments)
        }
    }

    /// The exit status of every described case (docs/cli.md, "Exit status").
    package static let statuses: [String: [String: ExitStatus]] = [
        "UpdateError": [
            "noServer": .updateConfiguration, "noTrustedKeys": .updateConfiguration,
            "insecureServer": .updateConfiguration, "invalidServerURL": .updateConfiguration,
            "invalidSetting": .updateConfiguration, "keyFile": .updateConfiguration,
            "unreachable": .updateServerUnreachable, "timedOut": .updateServerUnreachable,
            "httpStatus": .updateServerUnreachable,
            "manifestInvalid": .updateRejected, "unsigned": .updateRejected, "untrustedKey": .updateRejected,
            "badSignature": .updateRejected, "expired": .manifestExpired, "notNewer": .updateNotNewer,
            "identityMismatch": .updateRejected, "downgrade": .updateDowngrade, "identityNotPinned": .updateIdentityPinned,
            "versionJump": .updateRejected, "schemaTooNew": .catalogTooNew,
            "truncated": .updateRejected, "tooLarge": .updateRejected, "checksumMismatch": .updateRejected,
            "sizeMismatch": .updateRejected, "decompression": .updateRejected, "catalogRejected": .updateRejected,
            "deltaFailed": .updateRejected,
            "noPreviousCatalog": .noPreviousCatalog, "verificationFailed": .verificationFailed,
            "io": .cannotWrite, "busy": .cannotWrite,
            "notGreaterThanPublished": .usage, "publishIdentityMismatch": .usage,
        ],
        "PostgresStoreError": ["invalidURL": .usage, "schemaTooNew": .journalUnavailable],
        "FeedError": [
            "invalidURL": .usage, "unreachable": .ioError, "httpStatus": .ioError, "notAFeed": .badContent,
            "malformed": .badContent, "notFetched": .ioError, "config": .ioError, "cache": .cannotWrite,
        ],
        "SRPPPImportError": [
            "cannotOpen": .ioError, "notThisRegister": .badContent, "malformedXML.line": .badContent,
            "malformedXML": .badContent, "decompressionFailed": .badContent, "decompressionFailed.detail": .badContent,
            "toolMissing": .failure, "versionUnknown": .usage, "cannotWrite": .cannotWrite,
        ],
        "ContentBuildError": ["none": .badContent, "one": .badContent, "more": .badContent],
        "SyncClientError": [
            "badServer": .usage, "unreachable": .journalUnavailable, "refused.signIn": .notSignedIn,
            "refused.notAllowed": .notAllowed, "refused.tooLarge": .batchTooLarge, "refused.tooMany": .tooManyAttempts,
            "refused.unavailable": .journalUnavailable, "refused": .failure, "malformedAnswer": .journalUnavailable,
        ],
    ]

    /// - Parameter spelling: `.query` for the web, whose users never see the server's own
    ///   address of the service (`.timeout`, `.noNetwork` are worded without it).
    package static func report(_ error: WeatherError, _ s: Localizer, spelling: ParameterSpelling = .commandLine)
        -> ErrorReport
    {
        let key = "error.WeatherError."
        // The server's own words, on one line, after the message when it gave any.
        func quoted(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "" }
            return s(key + "serverSaid", text.split(whereSeparator: \.isNewline).joined(separator: " "))
        }
        switch error {
        case .noAPIKey: return ErrorReport(.weatherNoKey, s(key + "noAPIKey"))
        case let .keyRejected(server): return ErrorReport(.weatherKeyRejected, s(key + "keyRejected", quoted(server)))
        case let .notFound(server): return ErrorReport(.weatherNotFound, s(key + "notFound", quoted(server)))
        case let .rateLimited(retryAfter, server):
            let wait = retryAfter.map { s(key + "rateLimited.retryIn", duration($0, s)) } ?? s(key + "rateLimited.later")
            return ErrorReport(.weatherRateLimited, s(key + "rateLimited", quoted(server), wait))
        case let .serverError(status): return ErrorReport(.weatherServerError, s(key + "serverError", status))
        case let .requestRefused(status, server):
            return ErrorReport(.weatherRequestRefused, s(key + "requestRefused", status, quoted(server)))
        case let .timeout(seconds, url):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
            if spelling == .query {
                return ErrorReport(.weatherTimeout, s(key + "timeout.service", s("duration.seconds", shown)))
            }
            return ErrorReport(.weatherTimeout, s(key + "timeout", url, s("duration.seconds", shown)))
        case let .noNetwork(reason, url):
            if spelling == .query { return ErrorReport(.weatherNoNetwork, s(key + "noNetwork.service")) }
            return ErrorReport(.weatherNoNetwork, s(key + "noNetwork", url, reason))
        case let .malformedAnswer(detail): return ErrorReport(.weatherMalformed, s(key + "malformedAnswer", detail))
        case let .nothingCached(place): return ErrorReport(.weatherNothingCached, s(key + "nothingCached", place))
        case let .invalidBaseURL(text): return ErrorReport(.usage, s(key + "invalidBaseURL", text))
        case let .stalled(retryAfter): return ErrorReport(.weatherTimeout, s(key + "stalled", duration(retryAfter, s)))
        }
    }

    /// "45 s", "2 min", "3 h": a wait rounded up to the unit that reads best.
    private static func duration(_ seconds: Int, _ s: Localizer) -> String {
        if seconds < 120 { return s("duration.seconds", seconds) }
        if seconds < 7200 { return s("duration.minutes", (seconds + 59) / 60) }
        return s("duration.hours", (seconds + 3599) / 3600)
    }
}
