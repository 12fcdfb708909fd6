import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Ed25519 key pair for signing manifests.
///
/// Files: `PREFIX.key` holds `agro-ed25519-private <base64 of the 32-byte seed>` and is
/// readable by its owner only; `PREFIX.pub` holds `agro-ed25519-public <base64 of the 32-byte
/// public key>`. One line each, so that they are easy to inspect, copy and paste.
public struct KeyPair: Sendable {
    // Kept as the raw seed: swift-crypto's key type is not Sendable.
    private let seed: Data
    /// The Ed25519 private key.
    public var privateKey: Curve25519.Signing.PrivateKey {
        // The seed came from a valid key, so this cannot fail.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
    }
    /// The public half, which clients trust.
    public var publicKey: PublicSigningKey { PublicSigningKey(privateKey.publicKey) }

    /// A pair from an existing private key.
    public init(privateKey: Curve25519.Signing.PrivateKey) {
        seed = privateKey.rawRepresentation
    }

    /// A new random key pair.
    public static func generate() -> KeyPair {
        KeyPair(privateKey: Curve25519.Signing.PrivateKey())
    }

    /// Writes `PREFIX.key` (mode 0600) and `PREFIX.pub`; refuses to overwrite a key file,
    /// because losing a signing key strands every client that trusts it.
    /// - Returns: the paths of the private and the public key files.
    @discardableResult
    public func write(prefix: String) throws -> (privateKey: String, publicKey: String) {
        let privatePath = prefix + ".key", publicPath = prefix + ".pub"
        for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) {
            throw UpdateError.keyFile(path: path, reason: "file exists; remove it first or choose another prefix")
        }
        let secret = Array("agro-ed25519-private \(privateKey.rawRepresentation.base64EncodedString())\n".utf8)
        // Created with mode 0600 by open(2) itself, so the secret is never readable by others,
        // and O_EXCL refuses a file that appeared since the check above.
        let fd = open(privatePath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw UpdateError.keyFile(path: privatePath, reason: FileSystem.errnoText()) }
        // FileHandle writes it all (or throws) on every platform; the descriptor stays ours.
        let written = (try? FileHandle(fileDescriptor: fd, closeOnDealloc: false).write(contentsOf: secret)) != nil
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else {
            throw UpdateError.keyFile(path: privatePath, reason: "cannot write the file")
        }
        do {
            try publicKey.fileText.write(toFile: publicPath, atomically: true, encoding: .utf8)
        } catch {
            throw UpdateError.keyFile(path: publicPath, reason: error.localizedDescription)
        }
        return (privatePath, publicPath)
    }

    /// Reads a `PREFIX.key` file.
    public static func read(privateKeyFile path: String) throws -> KeyPair {
        let raw = try KeyFile.read(path: path, tag: "agro-ed25519-private")
        do {
            return KeyPair(privateKey: try Curve25519.Signing.PrivateKey(rawRepresentation: raw))
        } catch {
            throw UpdateError.keyFile(path: path, reason: "not an Ed25519 private key")
        }
    }

    /// Signs the manifest: sets its signature over its canonical bytes.
    public func sign(_ manifest: Manifest) throws -> Manifest {
        var unsigned = manifest
        unsigned.signature = nil
        let value = try privateKey.signature(for: unsigned.signedBytes)
        var signed = unsigned
        signed.signature = Manifest.Signature(
            publicKey: publicKey.rawRepresentation.base64EncodedString(), value: value.base64EncodedString())
        return signed
    }
}

/// A publisher's public key, as trusted by clients.
public struct PublicSigningKey: Sendable, Hashable {
    /// The raw 32-byte Ed25519 public key.
    public let rawRepresentation: Data

    /// Wraps a swift-crypto public key.
    public init(_ key: Curve25519.Signing.PublicKey) {
        rawRepresentation = key.rawRepresentation
    }

    /// A key from its raw 32 bytes; throws when they are not an Ed25519 public key.
    public init(rawRepresentation: Data) throws {
        _ = try Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
        self.rawRepresentation = rawRepresentation
    }

    /// Reads a `PREFIX.pub` file.
    public static func read(file path: String) throws -> PublicSigningKey {
        let raw = try KeyFile.read(path: path, tag: "agro-ed25519-public")
        guard let key = try? PublicSigningKey(rawRepresentation: raw) else {
            throw UpdateError.keyFile(path: path, reason: "not an Ed25519 public key")
        }
        return key
    }

    /// Short fingerprint for messages: the first 16 hex digits of the key's sha256.
    public var keyID: String { String(SHA256.hash(data: rawRepresentation).hexString.prefix(16)) }

    /// The contents of a `.pub` file.
    public var fileText: String { "agro-ed25519-public \(rawRepresentation.base64EncodedString())\n" }

    func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: data)
    }
}

enum KeyFile {
    static func read(path: String, tag: String) throws -> Data {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UpdateError.keyFile(path: path, reason: "cannot read the file")
        }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, parts[0] == tag, let raw = Data(base64Encoded: String(parts[1])), raw.count == 32 else {
            throw UpdateError.keyFile(path: path, reason: "expected one line \"\(tag) BASE64\"")
        }
        return raw
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension SHA256.Digest {
    package var hexString: String { Array(self).hexString }
}
