/// Exit statuses of `agro`, one per family of failure. Documented in docs/cli.md ("Exit status").
///
/// The libraries throw typed errors and know nothing of these numbers; the program gives each
/// error case its status (`ErrorWording`).
package struct ExitStatus: RawRepresentable, Sendable, Hashable, Codable {
    package var rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let success = ExitStatus(rawValue: 0)
    /// An unexpected failure.
    package static let failure = ExitStatus(rawValue: 1)
    /// An id or a name that matches nothing.
    package static let notFound = ExitStatus(rawValue: 3)
    /// A name that matches several entities.
    package static let ambiguous = ExitStatus(rawValue: 4)
    /// `agro plan check`: the plan has violations (its findings are printed).
    package static let planViolations = ExitStatus(rawValue: 20)
    /// Bad command-line usage (also what swift-argument-parser uses).
    package static let usage = ExitStatus(rawValue: 64)
    /// Bad content: catalog sources or imported data that cannot be used.
    package static let badContent = ExitStatus(rawValue: 65)
    /// The catalog file is missing, unreadable or corrupt.
    package static let catalogUnavailable = ExitStatus(rawValue: 66)
    /// The catalog needs a newer program.
    package static let catalogTooNew = ExitStatus(rawValue: 67)
    /// A file could not be written.
    package static let cannotWrite = ExitStatus(rawValue: 73)
    /// Reading or writing a file failed.
    package static let ioError = ExitStatus(rawValue: 74)

    // Weather failures get their own statuses (80-89) so scripts can tell a missing key from
    // a rate limit or a dead network without parsing text.

    /// No OpenWeatherMap API key is configured.
    package static let weatherNoKey = ExitStatus(rawValue: 80)
    /// OpenWeatherMap rejected the API key (HTTP 401).
    package static let weatherKeyRejected = ExitStatus(rawValue: 81)
    /// OpenWeatherMap has nothing for the request (HTTP 404).
    package static let weatherNotFound = ExitStatus(rawValue: 82)
    /// Too many requests for the subscription (HTTP 429).
    package static let weatherRateLimited = ExitStatus(rawValue: 83)
    /// OpenWeatherMap failed (HTTP 5xx).
    package static let weatherServerError = ExitStatus(rawValue: 84)
    /// No answer within the timeout.
    package static let weatherTimeout = ExitStatus(rawValue: 85)
    /// The server could not be reached at all (no network, refused, DNS, connection lost).
    package static let weatherNoNetwork = ExitStatus(rawValue: 86)
    /// The answer is not the JSON OpenWeatherMap documents.
    package static let weatherMalformed = ExitStatus(rawValue: 87)
    /// Offline mode was asked for but nothing is cached for the place.
    package static let weatherNothingCached = ExitStatus(rawValue: 88)
    /// Any other HTTP status (e.g. 400): the request itself was refused.
    package static let weatherRequestRefused = ExitStatus(rawValue: 89)

    /// The update server could not be reached or answered with an error.
    package static let updateServerUnreachable = ExitStatus(rawValue: 90)
    /// A downloaded manifest or catalog failed a check (signature, key, size, hash, integrity).
    package static let updateRejected = ExitStatus(rawValue: 91)
    /// The server offers an older catalog than the installed one (a replayed manifest).
    package static let updateNotNewer = ExitStatus(rawValue: 92)
    /// The server's manifest is past its expiry time.
    package static let manifestExpired = ExitStatus(rawValue: 93)
    /// The update settings are missing or unsafe (no server, no trusted key, plain http).
    package static let updateConfiguration = ExitStatus(rawValue: 94)
    /// There is no previous catalog to return to.
    package static let noPreviousCatalog = ExitStatus(rawValue: 95)
    /// The installed catalog failed `agro db verify`.
    package static let verificationFailed = ExitStatus(rawValue: 96)
    /// The server offers a version older than one installed before (after a rollback or a
    /// fallback to the bundled catalog): refused unless `--allow-downgrade`.
    package static let updateDowngrade = ExitStatus(rawValue: 97)
    /// The server's catalog is not the identity pinned by `update.identity` / `--identity`.
    package static let updateIdentityPinned = ExitStatus(rawValue: 98)

    // The shared journal of a farm (100-104): a script syncing tells a wrong password from a
    // store that is down.

    /// No valid session, or the login or password is wrong.
    package static let notSignedIn = ExitStatus(rawValue: 100)
    /// The account's role may not do this (an inspector writing).
    package static let notAllowed = ExitStatus(rawValue: 101)
    /// Too many failed sign-ins for now.
    package static let tooManyAttempts = ExitStatus(rawValue: 102)
    /// The journal's shared store does not answer: try again.
    package static let journalUnavailable = ExitStatus(rawValue: 103)
    /// A sync batch larger than the server takes.
    package static let batchTooLarge = ExitStatus(rawValue: 104)
}
