import AgroDomain
import AgroPostgres

/// The PostgreSQL farm store, for several `agro web` instances sharing one journal: only this
/// program links it (the quick `agro` never loads a PostgreSQL client).
enum PostgresStores {
    static func open(url: String) throws -> any FarmStore {
        try PostgresFarmStore(url: url)
    }
}
