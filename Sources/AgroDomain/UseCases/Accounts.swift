import Foundation

/// Hashes and checks passwords, and digests session tokens: bcrypt and SHA-256 in the
/// composition root (`AgroAccounts`), so that the domain stays Foundation only.
public protocol PasswordHasher: Sendable {
    /// A salted, slow hash of `password`.
    func hash(_ password: String) -> String
    /// Whether `password` is the one `hash` was made from.
    func verify(_ password: String, hash: String) -> Bool
    /// A digest of a session token, as the store keeps it (hex).
    func digest(token: String) -> String
}

/// The farm's people: adding farms and accounts, signing in and out, and the session behind a
/// cookie. Passwords are kept only as hashes; session tokens only as digests.
public struct Accounts<Store: FarmStore>: Sendable {
    /// Where farms, accounts and sessions are kept.
    public let store: Store
    /// Hashes passwords and digests tokens.
    public let hasher: any PasswordHasher
    /// The clock, read once by whoever made this.
    public let now: Date

    /// How long a session lasts without signing in again: a working week in the field.
    public static var sessionLifetime: TimeInterval { 7 * 86_400 }
    /// The shortest password taken.
    public static var minimumPasswordLength: Int { 8 }

    /// Creates the accounts' use case.
    public init(store: Store, hasher: any PasswordHasher, now: Date) {
        self.store = store
        self.hasher = hasher
        self.now = now
    }

    /// Adds a farm called `name`.
    @discardableResult
    public func addFarm(_ name: String) throws -> Farm {
        let farm = Farm(name: try Self.name(name))
        try store.addFarm(farm)
        return farm
    }

    /// The farm called `name` (case aside).
    public func farm(named name: String) throws -> Farm {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let farm = try store.farms().first(where: { $0.name.lowercased() == wanted }) else {
            throw FarmError.unknownFarm(name)
        }
        return farm
    }

    /// Adds an account to the farm called `farm`.
    @discardableResult
    public func addAccount(login: String, farm: String, role: FarmRole, password: String) throws -> Account {
        let account = Account(login: try Self.name(login), farm: try self.farm(named: farm).id, role: role)
        try store.addAccount(account, passwordHash: try hash(password))
        return account
    }

    /// Sets a new password and ends the account's sessions.
    public func setPassword(login: String, _ password: String) throws {
        guard try store.setPasswordHash(login: login, try hash(password)) else { throw FarmError.unknownAccount(login) }
    }

    /// Removes an account and ends its sessions.
    public func remove(login: String) throws {
        guard try store.removeAccount(login: login) else { throw FarmError.unknownAccount(login) }
    }

    /// Checks the password and opens a session: the token for the person's cookie and whose it
    /// is. The same refusal for an unknown login and a wrong password.
    public func signIn(login: String, password: String) throws -> (token: String, account: Account) {
        guard let (account, hash) = try store.credentials(login: login), hasher.verify(password, hash: hash) else {
            throw FarmError.signInRefused
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        try store.addSession(
            Session(
                tokenDigest: hasher.digest(token: token), login: account.login, expires: now + Self.sessionLifetime))
        return (token, account)
    }

    /// The account of a valid session token.
    public func account(token: String) throws -> Account {
        guard !token.isEmpty, let account = try store.account(sessionDigest: hasher.digest(token: token), now: now) else {
            throw FarmError.signInRequired
        }
        return account
    }

    /// Ends the session of `token`.
    public func signOut(token: String) throws {
        try store.endSession(digest: hasher.digest(token: token))
    }

    private func hash(_ password: String) throws -> String {
        guard password.count >= Self.minimumPasswordLength else {
            throw FarmError.passwordTooShort(minimum: Self.minimumPasswordLength)
        }
        return hasher.hash(password)
    }

    /// A login or farm name: trimmed, 1-64 characters, no control characters.
    static func name(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw FarmError.invalidName(text) }
        return name
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
