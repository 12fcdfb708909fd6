import AgroDomain

/// The PostgreSQL farm store, for several `agro web` instances sharing one journal.
enum PostgresStores {
    static func open(url: String) throws -> any FarmStore {
        throw FarmError.storeUnavailable("this build has no PostgreSQL store")
    }
}
