import Foundation

/// A device's journal that syncs with its farm's server: what it has not sent yet, the numbers
/// the server gave what it sent, and the farm's changes it receives.
public protocol DeviceJournalStore: JournalStore {
    /// The fields and revisions written here and not acknowledged by the server, fields first,
    /// each kind in the order written.
    func unsentChanges() throws -> [JournalChange]
    /// Notes the server's numbers for changes it acknowledged.
    func markSent(_ numbers: [UUID: Int64]) throws
    /// Keeps the farm's changes (those already here are left as they are), with the findings
    /// the server's checks gave each record. Returns how many were new here.
    @discardableResult
    func receive(_ changes: [NumberedChange]) throws -> Int
    /// The number of the farm's latest change this device has from `server` (0: none yet).
    func syncedThrough(server: String) throws -> Int64
    /// Notes that the device has every change of `server`'s farm up to `sequence`.
    func setSyncedThrough(server: String, _ sequence: Int64) throws
}
