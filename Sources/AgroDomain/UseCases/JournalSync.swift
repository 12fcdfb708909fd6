import Foundation

/// A farm's journal as devices sync it: the changes after a number, and a batch of changes
/// written offline, checked by the journal's one engine and numbered as they are stored.
///
/// Idempotent by the ids made on the devices: a batch sent twice, or cut off and sent again,
/// stores each change once and answers with the same numbers.
public struct JournalSync<Store: FarmStore>: Sendable {
    /// The farm's store.
    public let store: Store
    /// Who syncs: their farm's journal only, and writing only when their role writes.
    public let account: Account
    /// The journal of the account's farm, with the catalog its records are checked against.
    public let journal: Journal<Store.FarmJournal>

    /// The most changes one batch may carry.
    public static var maximumBatch: Int { 1_000 }
    /// The most changes one page of `changes(since:)` gives.
    public static var maximumPage: Int { 1_000 }

    /// Creates the sync of `account`'s farm.
    public init(
        store: Store, account: Account, catalog: any Journal<Store.FarmJournal>.CheckCatalog, locale: String, now: Date
    ) {
        self.store = store
        self.account = account
        journal = Journal(store: store.journal(farm: account.farm), catalog: catalog, locale: locale, now: now)
    }

    /// The farm's changes after `since`, at most `limit` (and `maximumPage`).
    public func changes(since: Int64, limit: Int = Self.maximumPage) throws -> SyncPage {
        let last = try store.lastSequence(farm: account.farm)
        guard since >= 0, since <= last else { throw FarmError.sinceBeyondLast(since: since, last: last) }
        let limit = max(1, min(limit, Self.maximumPage))
        let changes = try store.changes(farm: account.farm, since: since, limit: limit)
        return SyncPage(changes: changes, last: last, more: (changes.last?.sequence ?? last) < last)
    }

    /// Checks the whole batch, then stores each change in order: nothing is stored when any
    /// change is refused. Answers each change's number and, for a record, its error count.
    public func apply(_ changes: [JournalChange]) throws -> [SyncReceipt] {
        guard account.role.writes else { throw FarmError.notAllowed(role: account.role) }
        guard changes.count <= Self.maximumBatch else {
            throw FarmError.batchTooLarge(count: changes.count, maximum: Self.maximumBatch)
        }
        try journal.validate(changes)
        var receipts: [SyncReceipt] = []
        for change in changes {
            switch change {
            case let .field(field):
                let stored = try journal.add(field)
                receipts.append(SyncReceipt(id: field.id, sequence: 0, stored: stored, errors: 0))
            case let .record(record):
                let check = try journal.write(record)
                receipts.append(SyncReceipt(id: record.revision, sequence: 0, stored: check.stored, errors: check.errors))
            }
        }
        let numbers = try store.sequences(farm: account.farm, of: receipts.map(\.id))
        return receipts.map { receipt in
            var receipt = receipt
            receipt.sequence = numbers[receipt.id] ?? 0
            return receipt
        }
    }
}

/// A page of a farm's changes.
public struct SyncPage: Sendable, Hashable, Codable {
    /// The changes, in their farm's order.
    public var changes: [NumberedChange]
    /// The farm's latest number when the page was read.
    public var last: Int64
    /// Whether changes after this page remain: ask again from the page's last number.
    public var more: Bool

    /// Creates a page.
    public init(changes: [NumberedChange], last: Int64, more: Bool) {
        self.changes = changes
        self.last = last
        self.more = more
    }
}

/// What the farm's store did with one change of a batch.
public struct SyncReceipt: Sendable, Hashable, Codable {
    /// The change's id (a field's, a revision's).
    public var id: UUID
    /// The farm's number for it.
    public var sequence: Int64
    /// False when it was stored before (sent twice).
    public var stored: Bool
    /// For a record, the number of error findings the server's checks gave it.
    public var errors: Int

    /// Creates a receipt.
    public init(id: UUID, sequence: Int64, stored: Bool, errors: Int) {
        self.id = id
        self.sequence = sequence
        self.stored = stored
        self.errors = errors
    }
}

/// A batch of changes written offline, as a device sends it: `{"changes": [...]}`.
public struct SyncBatch: Sendable, Hashable, Codable {
    /// The changes, in the order they were written.
    public var changes: [JournalChange]

    /// Creates a batch.
    public init(changes: [JournalChange]) { self.changes = changes }
}

/// What the farm's server answers a batch: each change's number, and the farm's latest.
public struct SyncAnswer: Sendable, Hashable, Codable {
    /// One receipt per change, in the batch's order.
    public var receipts: [SyncReceipt]
    /// The farm's latest number after the batch.
    public var last: Int64

    /// Creates an answer.
    public init(receipts: [SyncReceipt], last: Int64) {
        self.receipts = receipts
        self.last = last
    }
}
