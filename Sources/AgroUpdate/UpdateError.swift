import AgroDomain
import Foundation

/// Failures of publishing, checking, downloading, installing and verifying catalogs.
///
/// Each case carries what the message needs; whatever happened, an update that throws has
/// left the current catalog as it was.
public enum UpdateError: UserFacingError, Hashable {
    // Configuration
    /// No update server configured.
    case noServer
    /// No trusted publisher key configured.
    case noTrustedKeys
    /// Plain http off loopback without `--insecure` (or a redirect to it).
    case insecureServer(url: String)
    /// The server setting is not an http or https URL.
    case invalidServerURL(String)
    /// A setting (`update.deadline`) has an unusable value.
    case invalidSetting(name: String, value: String)
    /// A key file cannot be read, written or parsed.
    case keyFile(path: String, reason: String)
    // Network
    /// The server cannot be reached, or the connection failed.
    case unreachable(url: String, reason: String)
    /// The server did not answer within the deadline.
    case timedOut(url: String)
    /// The server answered an HTTP error.
    case httpStatus(url: String, status: Int)
    // Manifest
    /// The manifest is malformed or unsafe (the reason says what).
    case manifestInvalid(String)
    /// The manifest carries no signature.
    case unsigned
    /// The manifest is signed by a key that is not trusted.
    case untrustedKey(keyID: String)
    /// The manifest's signature does not verify: it was altered.
    case badSignature(keyID: String)
    /// The manifest has expired.
    case expired(expiresAt: String)
    /// The server offers an older version than the one in use (a replay).
    case notNewer(identity: String, offered: Int, installed: Int)
    /// The server offers another catalog than the installed one.
    case identityMismatch(offered: String, installed: String)
    /// The server offers a version older than one installed before.
    case downgrade(identity: String, offered: Int, highest: Int)
    /// The server's catalog is not the pinned identity.
    case identityNotPinned(offered: String, pinned: String)
    /// The version jumps further than the publisher's signed policy allows.
    case versionJump(identity: String, offered: Int, highest: Int, maxStep: Int)
    /// The catalog needs a newer agro.
    case schemaTooNew(found: Int, supported: Int)
    // Download and content
    /// The download stopped early; what arrived is kept for the next attempt.
    case truncated(expected: Int64, received: Int64)
    /// The server sent more than the declared size.
    case tooLarge(declared: Int64)
    /// A sha256 differs from the manifest's.
    case checksumMismatch(what: String, expected: String, actual: String)
    /// A size differs from the manifest's.
    case sizeMismatch(what: String, expected: Int64, actual: Int64)
    /// The gzip stream is damaged.
    case decompression(String)
    /// The downloaded catalog fails the integrity or metadata checks.
    case catalogRejected(String)
    /// A delta could not be used (missing, damaged, for another catalog, conflicting, a wrong
    /// content hash after applying). The client then downloads the full catalog and says so;
    /// this reaches a user only through that one line.
    case deltaFailed(String)
    // Local store
    /// `db rollback` has nothing to return to.
    case noPreviousCatalog
    /// `db verify` found the catalog in use damaged.
    case verificationFailed(path: String, reason: String)
    /// A file cannot be written or read.
    case io(path: String, reason: String)
    /// Another process holds the update lock.
    case busy(path: String)
    // Publishing
    /// Publishing a version not greater than the newest published one.
    case notGreaterThanPublished(version: Int, newest: Int)
    /// Publishing into a directory of another identity.
    case publishIdentityMismatch(catalog: String, published: String)

    /// One line for the user, saying what happened and that nothing was changed where that holds.
    public var message: String {
        switch self {
        case .noServer:
            return
                "no update server configured: pass --server URL, set AGRO_UPDATE_SERVER or set update.server in the config file"
        case .noTrustedKeys:
            return
                "no trusted publisher key configured: pass --trust FILE.pub, set AGRO_TRUST or set update.trust in the config file"
        case let .insecureServer(url):
            return "refusing plain http to \(url): use https, a loopback address, or pass --insecure"
        case let .invalidServerURL(text):
            return "\"\(text)\" is not an http or https URL"
        case let .invalidSetting(name, value):
            return "\(name) must be a number of seconds between 0 and 86400, not \"\(value)\""
        case let .keyFile(path, reason):
            return "cannot use key file \(path): \(reason)"
        case let .unreachable(url, reason):
            return "update server unreachable at \(url): \(reason); the current catalog stays in use"
        case let .timedOut(url):
            return "update server at \(url) did not answer in time; the current catalog stays in use"
        case let .httpStatus(url, status):
            return "update server answered HTTP \(status) for \(url); the current catalog stays in use"
        case let .manifestInvalid(reason):
            return "the server's manifest is invalid (\(reason)); nothing was changed"
        case .unsigned:
            return "the server's manifest is not signed; nothing was changed"
        case let .untrustedKey(keyID):
            return
                "the server's manifest is signed by key \(keyID), which is not trusted; nothing was changed (add its .pub with --trust if you trust it)"
        case let .badSignature(keyID):
            return "the server's manifest signature does not verify with key \(keyID): it was altered; nothing was changed"
        case let .expired(expiresAt):
            let stamp = UTCMinute(iso: expiresAt).map(String.init(describing:)) ?? expiresAt
            return "the server's manifest expired at \(stamp): the publisher must publish again; nothing was changed"
        case let .notNewer(identity, offered, installed):
            return
                "the server offers \(identity) version \(offered), older than the installed version \(installed): refused (an old manifest replayed?); nothing was changed"
        case let .identityMismatch(offered, installed):
            return
                "the server offers catalog \(offered) but the installed catalog is \(installed); versions of different catalogs do not compare, nothing was changed"
        case let .downgrade(identity, offered, highest):
            return
                "the server offers \(identity) version \(offered), but version \(highest) was installed before: refused (pass --allow-downgrade to go back on purpose); nothing was changed"
        case let .identityNotPinned(offered, pinned):
            return "the server offers catalog \(offered) but update.identity pins \(pinned): refused; nothing was changed"
        case let .versionJump(identity, offered, highest, maxStep):
            return
                "the server offers \(identity) version \(offered), more than the publisher's limit of \(maxStep) above the installed version \(highest): refused; nothing was changed"
        case let .schemaTooNew(found, supported):
            return
                "the server's catalog has schema \(found) but this agro reads up to \(supported): this catalog needs a newer agro; nothing was changed"
        case let .truncated(expected, received):
            return "download ended after \(received) of \(expected) bytes; run the update again to resume; nothing was changed"
        case let .tooLarge(declared):
            return "the server sent more than the \(declared) bytes the manifest declares: download stopped; nothing was changed"
        case let .checksumMismatch(what, expected, actual):
            return
                "the \(what) has sha256 \(actual.prefix(16))…, the manifest says \(expected.prefix(16))…: download corrupted or altered; nothing was changed"
        case let .sizeMismatch(what, expected, actual):
            return "the \(what) is \(actual) bytes, the manifest says \(expected); nothing was changed"
        case let .decompression(reason):
            return "the downloaded catalog cannot be decompressed (\(reason)); nothing was changed"
        case let .catalogRejected(reason):
            return "the downloaded catalog is unusable (\(reason)); nothing was changed"
        case let .deltaFailed(reason):
            return "the delta update failed (\(reason))"
        case .noPreviousCatalog:
            return "there is no previous catalog to return to"
        case let .verificationFailed(path, reason):
            return "catalog at \(path) failed verification: \(reason)"
        case let .io(path, reason):
            return "cannot write \(path): \(reason)"
        case let .busy(path):
            return "another agro is updating the catalogs in \(path); try again when it has finished"
        case let .notGreaterThanPublished(version, newest):
            return
                "version \(version) is not greater than the newest published version \(newest): give the catalog a higher version"
        case let .publishIdentityMismatch(catalog, published):
            return "the catalog is \(catalog) but the directory publishes \(published): publish it to another directory"
        }
    }
}

extension UpdateError: DescribedError {
    /// This case as data, for the program to word (`error.UpdateError.<name>` in Localizable).
    public var errorCase: ErrorCase {
        switch self {
        case .noServer: return ErrorCase("UpdateError", "noServer")
        case .noTrustedKeys: return ErrorCase("UpdateError", "noTrustedKeys")
        case let .insecureServer(v0): return ErrorCase("UpdateError", "insecureServer", ["\(v0)"])
        case let .invalidServerURL(v0): return ErrorCase("UpdateError", "invalidServerURL", ["\(v0)"])
        case let .invalidSetting(v0, v1): return ErrorCase("UpdateError", "invalidSetting", ["\(v0)", "\(v1)"])
        case let .keyFile(v0, v1): return ErrorCase("UpdateError", "keyFile", ["\(v0)", "\(v1)"])
        case let .unreachable(v0, v1): return ErrorCase("UpdateError", "unreachable", ["\(v0)", "\(v1)"])
        case let .timedOut(v0): return ErrorCase("UpdateError", "timedOut", ["\(v0)"])
        case let .httpStatus(v0, v1): return ErrorCase("UpdateError", "httpStatus", ["\(v0)", "\(v1)"])
        case let .manifestInvalid(v0): return ErrorCase("UpdateError", "manifestInvalid", ["\(v0)"])
        case .unsigned: return ErrorCase("UpdateError", "unsigned")
        case let .untrustedKey(v0): return ErrorCase("UpdateError", "untrustedKey", ["\(v0)"])
        case let .badSignature(v0): return ErrorCase("UpdateError", "badSignature", ["\(v0)"])
        case let .expired(v0): return ErrorCase("UpdateError", "expired", ["\(v0)"])
        case let .notNewer(v0, v1, v2): return ErrorCase("UpdateError", "notNewer", ["\(v0)", "\(v1)", "\(v2)"])
        case let .identityMismatch(v0, v1): return ErrorCase("UpdateError", "identityMismatch", ["\(v0)", "\(v1)"])
        case let .downgrade(v0, v1, v2): return ErrorCase("UpdateError", "downgrade", ["\(v0)", "\(v1)", "\(v2)"])
        case let .identityNotPinned(v0, v1): return ErrorCase("UpdateError", "identityNotPinned", ["\(v0)", "\(v1)"])
        case let .versionJump(v0, v1, v2, v3):
            return ErrorCase("UpdateError", "versionJump", ["\(v0)", "\(v1)", "\(v2)", "\(v3)"])
        case let .schemaTooNew(v0, v1): return ErrorCase("UpdateError", "schemaTooNew", ["\(v0)", "\(v1)"])
        case let .truncated(v0, v1): return ErrorCase("UpdateError", "truncated", ["\(v0)", "\(v1)"])
        case let .tooLarge(v0): return ErrorCase("UpdateError", "tooLarge", ["\(v0)"])
        case let .checksumMismatch(v0, v1, v2): return ErrorCase("UpdateError", "checksumMismatch", ["\(v0)", "\(v1)", "\(v2)"])
        case let .sizeMismatch(v0, v1, v2): return ErrorCase("UpdateError", "sizeMismatch", ["\(v0)", "\(v1)", "\(v2)"])
        case let .decompression(v0): return ErrorCase("UpdateError", "decompression", ["\(v0)"])
        case let .catalogRejected(v0): return ErrorCase("UpdateError", "catalogRejected", ["\(v0)"])
        case let .deltaFailed(v0): return ErrorCase("UpdateError", "deltaFailed", ["\(v0)"])
        case .noPreviousCatalog: return ErrorCase("UpdateError", "noPreviousCatalog")
        case let .verificationFailed(v0, v1): return ErrorCase("UpdateError", "verificationFailed", ["\(v0)", "\(v1)"])
        case let .io(v0, v1): return ErrorCase("UpdateError", "io", ["\(v0)", "\(v1)"])
        case let .busy(v0): return ErrorCase("UpdateError", "busy", ["\(v0)"])
        case let .notGreaterThanPublished(v0, v1): return ErrorCase("UpdateError", "notGreaterThanPublished", ["\(v0)", "\(v1)"])
        case let .publishIdentityMismatch(v0, v1): return ErrorCase("UpdateError", "publishIdentityMismatch", ["\(v0)", "\(v1)"])
        }
    }
}
