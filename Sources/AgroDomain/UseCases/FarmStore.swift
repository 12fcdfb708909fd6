import Foundation

/// Where farms, their people, their sessions and their shared journal are kept: SQLite for one
/// `agro web`, PostgreSQL for several instances. Every change of a farm's journal gets the next
/// number of that farm (`NumberedChange`); the farm's journal (`journal(farm:)`) sees only that
/// farm's fields and records.
public protocol FarmStore: Sendable {
    /// One farm's journal, as the `Journal` use case reads and writes it.
    associatedtype FarmJournal: JournalStore

    /// Adds a farm. Throws `FarmError.farmNameTaken` for a second farm of the same name.
    func addFarm(_ farm: Farm) throws
    /// Every farm, by name.
    func farms() throws -> [Farm]
    /// Adds an account with its password's hash. Throws `FarmError.loginTaken` when the login
    /// exists (case aside), `FarmError.unknownFarm` for a farm that is not stored.
    func addAccount(_ account: Account, passwordHash: String) throws
    /// The accounts of one farm, or of every farm, by login.
    func accounts(farm: UUID?) throws -> [Account]
    /// The account with this login (case aside) and its password's hash.
    func credentials(login: String) throws -> (account: Account, passwordHash: String)?
    /// Replaces an account's password hash and ends its sessions. False for an unknown login.
    func setPasswordHash(login: String, _ passwordHash: String) throws -> Bool
    /// Removes an account and its sessions (the records it wrote stay). False for an unknown login.
    func removeAccount(login: String) throws -> Bool
    /// Stores a session.
    func addSession(_ session: Session) throws
    /// The account of a session valid at `now`, if any.
    func account(sessionDigest: String, now: Date) throws -> Account?
    /// Ends a session (signing out): its token is refused from then on.
    func endSession(digest: String) throws
    /// One farm's journal: its fields and records only, each write numbered.
    func journal(farm: UUID) -> FarmJournal
    /// The farm's changes numbered after `since`, in order, at most `limit`.
    func changes(farm: UUID, since: Int64, limit: Int) throws -> [NumberedChange]
    /// The number of the farm's latest change (0 when it has none).
    func lastSequence(farm: UUID) throws -> Int64
    /// The farm's numbers of stored changes by their ids (fields' and revisions' UUIDs).
    func sequences(farm: UUID, of ids: [UUID]) throws -> [UUID: Int64]
}
