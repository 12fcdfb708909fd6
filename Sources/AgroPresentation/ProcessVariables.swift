#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables.
package enum ProcessVariables {
    /// Every `NAME=value` of `environ` (the first of a name given twice, as `getenv` reads it).
    ///
    /// Read here rather than through `ProcessInfo.processInfo.environment`, which makes the same
    /// dictionary through Foundation's locks and string bridging: 2.5% of a catalog query's
    /// instructions (Benchmarks/startup/README.md).
    package static func read() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil { variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return variables
    }
}
