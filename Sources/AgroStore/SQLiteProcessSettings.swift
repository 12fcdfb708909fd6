import CSQLiteConfig

/// SQLite settings that hold for the whole process and must be made before SQLite's first use.
public enum SQLiteProcessSettings {
    /// Turns SQLite's memory statistics off. This build of SQLite has no lookaside memory, so
    /// with statistics on every allocation of every connection takes one process-wide mutex:
    /// some 2% of a register import's time. Returns false, changing nothing, once SQLite has
    /// started (a connection was opened).
    @discardableResult
    public static func disableMemoryStatistics() -> Bool {
        agro_sqlite3_disable_memory_statistics() == 0
    }
}
