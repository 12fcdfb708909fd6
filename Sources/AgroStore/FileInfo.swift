import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the catalog selection asks of the file system: link targets and file sizes.
package enum FileInfo {
    /// The target of a symbolic link, nil when `path` is not one.
    package static func symlinkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    /// The size of a file in bytes, nil when it cannot be read.
    package static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
