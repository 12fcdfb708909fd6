import Foundation

/// The bytes of a register file as a readable file descriptor, whatever its packaging: a plain
/// XML file is read as it is, a `.xz` file through `xz -dc`, a `.zip` file through `unzip -p`
/// on its XML entry. Decompression runs in a child process writing to a pipe, so the XML is
/// never held whole in memory.
final class RegisterInput {
    /// What the file turned out to be, from its first bytes.
    enum Packaging: String, Sendable { case xml, xz, zip }

    let path: String
    let packaging: Packaging
    /// Name of the XML document: the file itself, or the entry inside the zip.
    let documentName: String
    /// Descriptor to read the XML from.
    private(set) var fileDescriptor: Int32
    private var process: Process?
    private var errorPipe: Pipe?
    private var outputPipe: Pipe?

    init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SRPPPImportError.cannotOpen(path: path, reason: "no such file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SRPPPImportError.cannotOpen(path: path, reason: "not readable")
        }
        // The throwing read: the legacy one traps on an error (a directory, an I/O error).
        let magic: [UInt8]
        do { magic = [UInt8](try handle.read(upToCount: 6) ?? Data()) } catch {
            try? handle.close()
            throw SRPPPImportError.cannotOpen(path: path, reason: error.localizedDescription)
        }
        try? handle.close()
        if magic.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            packaging = .xz
            documentName = (path as NSString).lastPathComponent
            fileDescriptor = -1
            try spawn(["xz", "-dc", "--", path])
        } else if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            packaging = .zip
            let entry = try Self.xmlEntry(inZip: path)
            documentName = entry
            fileDescriptor = -1
            // unzip treats entry names as patterns: escape the pattern characters.
            var escaped = ""
            for character in entry {
                if "[]*?\\".contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
            try spawn(["unzip", "-p", "--", path, escaped])
        } else {
            packaging = .xml
            documentName = (path as NSString).lastPathComponent
            fileDescriptor = open(path, O_RDONLY)
            if fileDescriptor < 0 {
                throw SRPPPImportError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    deinit { close() }

    /// Stops any decompressor and closes the descriptor.
    func close() {
        if let process, process.isRunning { process.terminate() }
        process?.waitUntilExit()
        process = nil
        if packaging == .xml, fileDescriptor >= 0 { _ = Foundation.close(fileDescriptor) }
        fileDescriptor = -1
        try? outputPipe?.fileHandleForReading.close()
        outputPipe = nil
        errorPipe = nil
    }

    /// After the XML has been read to its end: fails if the decompressor did.
    func finish() throws {
        guard let process else { return }
        process.waitUntilExit()
        let status = process.terminationStatus
        let message = errorPipe.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        self.process = nil
        if status != 0 {
            throw SRPPPImportError.decompressionFailed(
                path: path, tool: packaging.rawValue,
                message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private func spawn(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SRPPPImportError.toolMissing(tool: arguments[0])
        }
        self.process = process
        outputPipe = output
        errorPipe = errors
        fileDescriptor = output.fileHandleForReading.fileDescriptor
    }

    /// The first `.xml` entry of a zip file, as listed by `unzip -Z1`.
    private static func xmlEntry(inZip path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unzip", "-Z1", "--", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw SRPPPImportError.toolMissing(tool: "unzip") }
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SRPPPImportError.decompressionFailed(path: path, tool: "zip", message: "cannot list the zip entries")
        }
        let entries = listing.split(separator: "\n").map(String.init)
        guard let entry = entries.first(where: { $0.lowercased().hasSuffix(".xml") }) else {
            throw SRPPPImportError.notThisRegister(path: path, reason: "the zip file holds no XML document")
        }
        return entry
    }
}
