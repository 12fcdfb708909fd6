import AgroCLI
import AgroContent
import AgroImport
import AgroNews
import AgroUpdate
import AgroWeather

/// The errors of the modules only the complete program uses: updates, weather, feeds, import
/// and content builds (see `ErrorWording`).
struct FullErrorWording: ErrorWording {
    func report(_ error: any Error, strings: Localizer) -> ErrorReport? {
        switch error {
        case let error as UpdateError: return Self.report(error, strings)
        case let error as WeatherError: return Self.report(error, strings)
        case let error as FeedError: return Self.report(error, strings)
        case let error as SRPPPImportError: return Self.report(error, strings)
        case let error as ContentBuildError: return Self.report(error, strings)
        default: return nil
        }
    }

    static func report(_ error: UpdateError, _ s: Localizer) -> ErrorReport {
        let key = "error.UpdateError."
        switch error {
        case .noServer: return ErrorReport(.updateConfiguration, s(key + "noServer"))
        case .noTrustedKeys: return ErrorReport(.updateConfiguration, s(key + "noTrustedKeys"))
        case let .insecureServer(url): return ErrorReport(.updateConfiguration, s(key + "insecureServer", url))
        case let .invalidServerURL(text): return ErrorReport(.updateConfiguration, s(key + "invalidServerURL", text))
        case let .invalidSetting(name, value): return ErrorReport(.updateConfiguration, s(key + "invalidSetting", name, value))
        case let .keyFile(path, reason): return ErrorReport(.updateConfiguration, s(key + "keyFile", path, reason))
        case let .unreachable(url, reason): return ErrorReport(.updateServerUnreachable, s(key + "unreachable", url, reason))
        case let .timedOut(url): return ErrorReport(.updateServerUnreachable, s(key + "timedOut", url))
        case let .httpStatus(url, status): return ErrorReport(.updateServerUnreachable, s(key + "httpStatus", url, status))
        case let .manifestInvalid(reason): return ErrorReport(.updateRejected, s(key + "manifestInvalid", reason))
        case .unsigned: return ErrorReport(.updateRejected, s(key + "unsigned"))
        case let .untrustedKey(keyID): return ErrorReport(.updateRejected, s(key + "untrustedKey", keyID))
        case let .badSignature(keyID): return ErrorReport(.updateRejected, s(key + "badSignature", keyID))
        case let .expired(expiresAt): return ErrorReport(.manifestExpired, s(key + "expired", expiresAt))
        case let .notNewer(identity, offered, installed):
            return ErrorReport(.updateNotNewer, s(key + "notNewer", identity, offered, installed))
        case let .identityMismatch(offered, installed):
            return ErrorReport(.updateRejected, s(key + "identityMismatch", offered, installed))
        case let .downgrade(identity, offered, highest):
            return ErrorReport(.updateDowngrade, s(key + "downgrade", identity, offered, highest))
        case let .identityNotPinned(offered, pinned):
            return ErrorReport(.updateIdentityPinned, s(key + "identityNotPinned", offered, pinned))
        case let .versionJump(identity, offered, highest, maxStep):
            return ErrorReport(.updateRejected, s(key + "versionJump", identity, offered, highest, maxStep))
        case let .schemaTooNew(found, supported): return ErrorReport(.catalogTooNew, s(key + "schemaTooNew", found, supported))
        case let .truncated(expected, received): return ErrorReport(.updateRejected, s(key + "truncated", expected, received))
        case let .tooLarge(declared): return ErrorReport(.updateRejected, s(key + "tooLarge", declared))
        case let .checksumMismatch(what, expected, actual):
            // Digests are cut to 16 hex digits: enough to compare by eye.
            return ErrorReport(
                .updateRejected, s(key + "checksumMismatch", what, String(expected.prefix(16)), String(actual.prefix(16))))
        case let .sizeMismatch(what, expected, actual):
            return ErrorReport(.updateRejected, s(key + "sizeMismatch", what, expected, actual))
        case let .decompression(reason): return ErrorReport(.updateRejected, s(key + "decompression", reason))
        case let .catalogRejected(reason): return ErrorReport(.updateRejected, s(key + "catalogRejected", reason))
        case let .deltaFailed(reason): return ErrorReport(.updateRejected, s(key + "deltaFailed", reason))
        case .noPreviousCatalog: return ErrorReport(.noPreviousCatalog, s(key + "noPreviousCatalog"))
        case let .verificationFailed(path, reason):
            return ErrorReport(.verificationFailed, s(key + "verificationFailed", path, reason))
        case let .io(path, reason): return ErrorReport(.cannotWrite, s(key + "io", path, reason))
        case let .busy(path): return ErrorReport(.cannotWrite, s(key + "busy", path))
        case let .notGreaterThanPublished(version, newest):
            return ErrorReport(.usage, s(key + "notGreaterThanPublished", version, newest))
        case let .publishIdentityMismatch(catalog, published):
            return ErrorReport(.usage, s(key + "publishIdentityMismatch", catalog, published))
        }
    }

    static func report(_ error: WeatherError, _ s: Localizer) -> ErrorReport {
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
            return ErrorReport(.weatherTimeout, s(key + "timeout", url, s("duration.seconds", shown)))
        case let .noNetwork(reason, url): return ErrorReport(.weatherNoNetwork, s(key + "noNetwork", url, reason))
        case let .malformedAnswer(detail): return ErrorReport(.weatherMalformed, s(key + "malformedAnswer", detail))
        case let .nothingCached(place): return ErrorReport(.weatherNothingCached, s(key + "nothingCached", place))
        case let .invalidBaseURL(text): return ErrorReport(.usage, s(key + "invalidBaseURL", text))
        }
    }

    /// "45 s", "2 min", "3 h": a wait rounded up to the unit that reads best.
    private static func duration(_ seconds: Int, _ s: Localizer) -> String {
        if seconds < 120 { return s("duration.seconds", seconds) }
        if seconds < 7200 { return s("duration.minutes", (seconds + 59) / 60) }
        return s("duration.hours", (seconds + 3599) / 3600)
    }

    static func report(_ error: FeedError, _ s: Localizer) -> ErrorReport {
        let key = "error.FeedError."
        switch error {
        case let .invalidURL(text): return ErrorReport(.usage, s(key + "invalidURL", text))
        case let .unreachable(url, reason): return ErrorReport(.ioError, s(key + "unreachable", url, reason))
        case let .httpStatus(url, status): return ErrorReport(.ioError, s(key + "httpStatus", url, status))
        case let .notAFeed(url): return ErrorReport(.badContent, s(key + "notAFeed", url))
        case let .malformed(url, reason): return ErrorReport(.badContent, s(key + "malformed", url, reason))
        case let .notFetched(url): return ErrorReport(.ioError, s(key + "notFetched", url))
        case let .config(path, reason): return ErrorReport(.ioError, s(key + "config", path, reason))
        case let .cache(path, reason): return ErrorReport(.cannotWrite, s(key + "cache", path, reason))
        }
    }

    static func report(_ error: SRPPPImportError, _ s: Localizer) -> ErrorReport {
        let key = "error.SRPPPImportError."
        switch error {
        case let .cannotOpen(path, reason): return ErrorReport(.ioError, s(key + "cannotOpen", path, reason))
        case let .notThisRegister(path, reason): return ErrorReport(.badContent, s(key + "notThisRegister", path, reason))
        case let .malformedXML(path, line, message) where line > 0:
            return ErrorReport(.badContent, s(key + "malformedXML.line", path, line, message))
        case let .malformedXML(path, _, message): return ErrorReport(.badContent, s(key + "malformedXML", path, message))
        case let .decompressionFailed(path, tool, message) where message.isEmpty:
            return ErrorReport(.badContent, s(key + "decompressionFailed", path, tool))
        case let .decompressionFailed(path, tool, message):
            return ErrorReport(.badContent, s(key + "decompressionFailed.detail", path, tool, message))
        case let .toolMissing(tool):
            // Debian packages xz in xz-utils; the other tools under their own names.
            return ErrorReport(.failure, s(key + "toolMissing", tool, tool == "xz" ? "xz-utils" : tool))
        case let .versionUnknown(path): return ErrorReport(.usage, s(key + "versionUnknown", path))
        case let .cannotWrite(path, reason): return ErrorReport(.cannotWrite, s(key + "cannotWrite", path, reason))
        }
    }

    static func report(_ error: ContentBuildError, _ s: Localizer) -> ErrorReport {
        // The problems themselves come from the sources, worded where they are found.
        guard let first = error.problems.first else { return ErrorReport(.badContent, s("error.ContentBuildError.none")) }
        if error.problems.count == 1 { return ErrorReport(.badContent, first.description) }
        return ErrorReport(.badContent, s("error.ContentBuildError.more", first.description, error.problems.count - 1))
    }
}
