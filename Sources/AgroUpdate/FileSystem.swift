import AgroStore
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls atomic installation needs and Foundation does not offer.
package enum FileSystem {
    /// Flushes a file's data and metadata to the disk.
    package static func fsync(file path: String) throws { try fsync(path, flags: O_RDONLY) }

    /// Flushes a directory, so that renames and links in it survive a power cut.
    static func fsync(directory path: String) throws { try fsync(path, flags: O_RDONLY | O_DIRECTORY) }

    /// Opens `path` with `flags` (a directory needs `O_DIRECTORY`) and fsyncs it.
    private static func fsync(_ path: String, flags: Int32) throws {
        let fd = open(path, flags)
        guard fd >= 0 else { throw UpdateError.io(path: path, reason: errnoText()) }
        defer { close(fd) }
        guard posixFsync(fd) == 0 else { throw UpdateError.io(path: path, reason: errnoText()) }
    }

    /// Creates the directory `path` and any missing parents; one that exists already is fine.
    static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw UpdateError.io(path: path, reason: error.localizedDescription)
        }
    }

    /// Atomically replaces `destination` with `source` (same file system).
    static func rename(_ source: String, to destination: String) throws {
        guard posixRename(source, destination) == 0 else {
            throw UpdateError.io(path: destination, reason: errnoText())
        }
    }

    /// Points the symbolic link `link` at `target` atomically: a new link beside, renamed over.
    static func replaceSymlink(_ link: String, target: String) throws {
        let temporary = link + ".new-\(getpid())"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else { throw UpdateError.io(path: temporary, reason: errnoText()) }
        try rename(temporary, to: link)
    }

    /// The target of a symbolic link, nil when `path` is not one.
    static func readSymlink(_ path: String) -> String? { FileInfo.symlinkTarget(path) }

    package static func size(_ path: String) -> Int64? { FileInfo.size(path) }

    /// sha256 and size of a file, read in 1 MiB pieces.
    package static func digest(of path: String) throws -> Manifest.Digest {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw UpdateError.io(path: path, reason: "cannot read")
        }
        defer { try? handle.close() }
        return try digest(reading: handle, path: path) { _ in }
    }

    /// Reads `handle` (the file at `path`) to its end in 1 MiB pieces, handing each to `piece`.
    ///
    /// - Returns: sha256 and size of all that was read.
    package static func digest(
        reading handle: FileHandle, path: String, each piece: (Data) throws -> Void
    ) throws -> Manifest.Digest {
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            let data: Data
            do { data = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw UpdateError.io(path: path, reason: error.localizedDescription)
            }
            if data.isEmpty { break }
            hasher.update(data: data)
            size += Int64(data.count)
            try piece(data)
        }
        return Manifest.Digest(sha256: hasher.finalize().hexString, size: size)
    }

    /// Copies a file to `destination` (created or replaced) without passing its bytes through
    /// this process: `sendfile` inside the kernel on Linux, a clone where the file system offers
    /// one on Darwin. A delta update copies the installed catalog so; its content is checked
    /// afterwards by the content hash, not by hashing the copy.
    package static func copy(_ path: String, to destination: String) throws {
        #if canImport(Glibc)
            let input = open(path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw UpdateError.io(path: path, reason: errnoText()) }
            defer { close(input) }
            let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard output >= 0 else { throw UpdateError.io(path: destination, reason: errnoText()) }
            defer { close(output) }
            while true {
                let sent = sendfile(output, input, nil, 1 << 30)
                if sent == 0 { return }
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw UpdateError.io(path: destination, reason: errnoText())
                }
            }
        #else
            try? FileManager.default.removeItem(atPath: destination)
            do { try FileManager.default.copyItem(atPath: path, toPath: destination) } catch {
                throw UpdateError.io(path: destination, reason: error.localizedDescription)
            }
        #endif
    }

    package static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// An exclusive advisory lock on a file, held until `unlock()` or the end of the process:
/// the kernel drops it when a killed process's descriptors close, so it never goes stale.
package final class FileLock {
    private let fd: Int32

    /// Takes the lock, or throws `UpdateError.busy` at once when another process holds it.
    init(path: String, directory: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UpdateError.io(path: path, reason: FileSystem.errnoText()) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw UpdateError.busy(path: directory)
        }
    }

    package func unlock() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

// File-scope wrappers: inside `FileSystem` the names `fsync` and `rename` are its own.
private func posixFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func posixRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
