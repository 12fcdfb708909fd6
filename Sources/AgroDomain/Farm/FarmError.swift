import Foundation

/// What the farm's accounts and the journal's sync refuse, with the values typed for an
/// interface to word. Nothing is written when one is thrown.
public enum FarmError: UserFacingError, Equatable {
    /// No farm has this name.
    case unknownFarm(String)
    /// Another farm has this name.
    case farmNameTaken(String)
    /// Another account has this login.
    case loginTaken(String)
    /// No account has this login.
    case unknownAccount(String)
    /// A login or farm name that is empty or has characters a login cannot have.
    case invalidName(String)
    /// A password shorter than `minimum` characters.
    case passwordTooShort(minimum: Int)
    /// The login or the password is wrong (which one is not said).
    case signInRefused
    /// Too many failed sign-ins: try again after `seconds`.
    case tooManyAttempts(seconds: Int)
    /// No valid session: sign in first.
    case signInRequired
    /// The account's role may not do this (an inspector writing).
    case notAllowed(role: FarmRole)
    /// A sync batch of more than `maximum` changes.
    case batchTooLarge(count: Int, maximum: Int)
    /// A change of a sync batch cannot be read (its position, from 1, and why).
    case malformedChange(position: Int, reason: String)
    /// A `since` beyond the farm's latest change.
    case sinceBeyondLast(since: Int64, last: Int64)
    /// A change sent from another site's page (its `Origin` is not this server).
    case crossSite
    /// The shared store does not answer (restarting, unreachable): try again.
    case storeUnavailable(String)

    /// One line in English.
    public var message: String {
        switch self {
        case let .unknownFarm(name): return "no farm is called \"\(name)\""
        case let .farmNameTaken(name): return "a farm called \"\(name)\" exists already"
        case let .loginTaken(login): return "the login \"\(login)\" is taken"
        case let .unknownAccount(login): return "no account has the login \"\(login)\""
        case let .invalidName(name):
            return "\"\(name)\" cannot be a login or farm name (1-64 characters, no control characters)"
        case let .passwordTooShort(minimum): return "a password needs at least \(minimum) characters"
        case .signInRefused: return "the login or the password is wrong"
        case let .tooManyAttempts(seconds): return "too many failed sign-ins: try again in \(seconds) s"
        case .signInRequired: return "sign in first"
        case let .notAllowed(role): return "an account with the role \(role.rawValue) may not do this"
        case let .batchTooLarge(count, maximum): return "\(count) changes in one batch: at most \(maximum)"
        case let .malformedChange(position, reason): return "change \(position) cannot be read: \(reason)"
        case let .sinceBeyondLast(since, last): return "since=\(since) is beyond the farm's last change (\(last))"
        case .crossSite: return "a change sent from another site's page is refused"
        case let .storeUnavailable(reason): return "the journal's store does not answer (\(reason)); try again"
        }
    }
}
