import Foundation

/// A `FarmStore` of any kind, for the use cases' generic parameter (a SQLite or a PostgreSQL
/// store chosen at start-up).
public struct AnyFarm: FarmStore {
    let base: any FarmStore

    /// Forwards to the store.
    public init(_ base: any FarmStore) { self.base = base }

    /// Forwards to the store.
    public func addFarm(_ farm: Farm) throws { try base.addFarm(farm) }
    /// Forwards to the store.
    public func farms() throws -> [Farm] { try base.farms() }
    /// Forwards to the store.
    public func addAccount(_ account: Account, passwordHash: String) throws {
        try base.addAccount(account, passwordHash: passwordHash)
    }
    /// Forwards to the store.
    public func accounts(farm: UUID?) throws -> [Account] { try base.accounts(farm: farm) }
    /// Forwards to the store.
    public func credentials(login: String) throws -> (account: Account, passwordHash: String)? {
        try base.credentials(login: login)
    }
    /// Forwards to the store.
    public func setPasswordHash(login: String, _ passwordHash: String) throws -> Bool {
        try base.setPasswordHash(login: login, passwordHash)
    }
    /// Forwards to the store.
    public func removeAccount(login: String) throws -> Bool { try base.removeAccount(login: login) }
    /// Forwards to the store.
    public func addSession(_ session: Session) throws { try base.addSession(session) }
    /// Forwards to the store.
    public func account(sessionDigest: String, now: Date) throws -> Account? {
        try base.account(sessionDigest: sessionDigest, now: now)
    }
    /// Forwards to the store.
    public func endSession(digest: String) throws { try base.endSession(digest: digest) }
    /// Forwards to the store.
    public func journal(farm: UUID) -> AnyJournal { AnyJournal(base.journal(farm: farm)) }
    /// Forwards to the store.
    public func changes(farm: UUID, since: Int64, limit: Int) throws -> [NumberedChange] {
        try base.changes(farm: farm, since: since, limit: limit)
    }
    /// Forwards to the store.
    public func lastSequence(farm: UUID) throws -> Int64 { try base.lastSequence(farm: farm) }
    /// Forwards to the store.
    public func sequences(farm: UUID, of ids: [UUID]) throws -> [UUID: Int64] {
        try base.sequences(farm: farm, of: ids)
    }
}

/// A `JournalStore` of any kind: the device's, or one farm's.
public struct AnyJournal: JournalStore {
    let base: any JournalStore

    /// Forwards to the store.
    public init(_ base: any JournalStore) { self.base = base }

    /// Forwards to the store.
    public func addField(_ field: Field) throws -> Bool { try base.addField(field) }
    /// Forwards to the store.
    public func fields() throws -> [Field] { try base.fields() }
    /// Forwards to the store.
    public func field(_ id: UUID) throws -> Field? { try base.field(id) }
    /// Forwards to the store.
    public func append(_ record: SprayRecord, findings: [PlanFinding]) throws -> Bool {
        try base.append(record, findings: findings)
    }
    /// Forwards to the store.
    public func records(field: UUID?) throws -> [StoredRecord] { try base.records(field: field) }
    /// Forwards to the store.
    public func sprays(field: UUID) throws -> [SprayRecord] { try base.sprays(field: field) }
    /// Forwards to the store.
    public func recordIDs(prefix: String) throws -> [UUID] { try base.recordIDs(prefix: prefix) }
    /// Forwards to the store.
    public func history(record: UUID) throws -> [StoredRecord] { try base.history(record: record) }
    /// Forwards to the store.
    public func revision(_ id: UUID) throws -> StoredRecord? { try base.revision(id) }
}
