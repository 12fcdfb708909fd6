import Foundation

/// A farm: it owns fields and spray records, and its people share one journal.
public struct Farm: Sendable, Hashable, Codable {
    /// Made when the farm was added.
    public var id: UUID
    /// The name the farm is known by; unique, case aside.
    public var name: String

    /// Creates a farm.
    public init(id: UUID = UUID(), name: String) {
        self.id = id
        self.name = name
    }
}

/// What a person may do in their farm's journal.
public enum FarmRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Manages the farm's people and fields, and writes records.
    case owner
    /// Writes fields and records.
    case agronomist
    /// Reads and exports only: the office that answers an inspector.
    case inspector

    /// Whether the role may write fields and records.
    public var writes: Bool { self != .inspector }
}

/// A person who signs in: a login, the farm they belong to and their role there.
public struct Account: Sendable, Hashable, Codable {
    /// The name they sign in with; unique, case aside.
    public var login: String
    /// The farm.
    public var farm: UUID
    /// What they may do.
    public var role: FarmRole

    /// Creates an account.
    public init(login: String, farm: UUID, role: FarmRole) {
        self.login = login
        self.farm = farm
        self.role = role
    }
}

/// A signed-in session as the store keeps it: a digest of its token (the token itself is only
/// in the person's cookie), whose it is, and until when it is valid.
public struct Session: Sendable, Hashable {
    /// The token's digest (hex).
    public var tokenDigest: String
    /// The account.
    public var login: String
    /// When it stops being valid.
    public var expires: Date

    /// Creates a session.
    public init(tokenDigest: String, login: String, expires: Date) {
        self.tokenDigest = tokenDigest
        self.login = login
        self.expires = expires
    }
}
