import AgroAccounts
import AgroDomain
import AgroPresentation
import AgroStore
import ArgumentParser
import Foundation

/// `--journal-db`: where the farms' shared journal is (a SQLite file, by default `journal.sqlite`
/// beside the user database; or a `postgresql://` URL for several instances).
struct FarmStoreOptions: ParsableArguments {
    @Option(
        name: .customLong("journal-db"),
        help: ArgumentHelp(
            "The farms' shared journal: a SQLite file (default journal.sqlite beside the user data) or postgresql://...",
            valueName: "path-or-url"))
    var journalDB: String?

    /// The store the option names.
    func open(_ environment: Environment) throws -> any FarmStore {
        let location = journalDB ?? environment.paths.farmDatabase.path
        if location.hasPrefix("postgresql://") || location.hasPrefix("postgres://") {
            return try PostgresStores.open(url: location)
        }
        return try SQLiteFarmStore(path: location)
    }

    /// The accounts' use case on that store.
    func accounts(_ environment: Environment) throws -> Accounts<AnyFarm> {
        Accounts(store: AnyFarm(try open(environment)), hasher: Self.hasher, now: environment.now)
    }

    /// bcrypt at cost 12; `AGRO_BCRYPT_COST` (4-31) lowers it where hashing must be quick (the
    /// tests' accounts). Checking a password takes the cost its hash was made with.
    static var hasher: BcryptHasher {
        let cost = ProcessInfo.processInfo.environment["AGRO_BCRYPT_COST"].flatMap(UInt8.init).map { min(max($0, 4), 31) }
        return BcryptHasher(cost: cost ?? 12)
    }
}

/// A password read from standard input (one line; nothing echoed back, nothing logged), or
/// from `AGRO_PASSWORD`.
enum PasswordInput {
    static func read(_ environment: Environment) -> String {
        if let password = ProcessInfo.processInfo.environment["AGRO_PASSWORD"], !password.isEmpty { return password }
        return (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
