import Dispatch

/// A time limit for the catalog reads of one piece of work (a web request), carried as a
/// task-local value: every catalog read made while it is set stops with
/// `CatalogDeadline.Exceeded` once the limit has passed, even in the middle of a statement, so
/// no query can hold a reader for long. Here, not in the store, so that a front sets it
/// without naming the store.
public enum CatalogDeadline {
    /// The instant (DispatchTime's uptime nanoseconds) after which reads stop; nil: no limit.
    @TaskLocal public static var current: UInt64?

    /// Runs `body` with reads limited to `seconds` from now.
    public static func within<T>(seconds: Double, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9), operation: body)
    }

    /// The catalog work went past its deadline.
    public struct Exceeded: Error, Sendable {
        /// The error a read stopped by its deadline throws.
        public init() {}
    }
}
