import AgroStore
import Foundation

extension Manifest {
    /// Parses and checks a manifest as received from a server.
    ///
    /// The signature is checked over the canonical form of exactly what was received (unknown
    /// members included), and the manifest is then decoded from that same value, so a field
    /// cannot be read that the signature did not cover.
    ///
    /// - Throws: `UpdateError.manifestInvalid`, `.unsigned`, `.untrustedKey`, `.badSignature`,
    ///   `.expired`.
    public static func verified(_ data: Data, trustedKeys: [PublicSigningKey], now: Date = Date()) throws -> Manifest {
        guard data.count <= Manifest.maximumSize else {
            throw UpdateError.manifestInvalid("larger than \(Manifest.maximumSize) bytes")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw UpdateError.manifestInvalid("not JSON of the manifest kind")
        }
        guard case .object = value else { throw UpdateError.manifestInvalid("not a JSON object") }
        guard let signatureValue = value["signature"], signatureValue != .null else { throw UpdateError.unsigned }
        let signature: Manifest.Signature
        do {
            signature = try JSONDecoder().decode(Manifest.Signature.self, from: signatureValue.canonicalBytes)
        } catch {
            throw UpdateError.manifestInvalid("malformed signature")
        }
        guard signature.algorithm == "ed25519" else {
            throw UpdateError.manifestInvalid("unknown signature algorithm \"\(signature.algorithm)\"")
        }
        guard let keyData = Data(base64Encoded: signature.publicKey),
            let signer = try? PublicSigningKey(rawRepresentation: keyData),
            let signatureBytes = Data(base64Encoded: signature.value)
        else { throw UpdateError.manifestInvalid("malformed signature") }
        guard trustedKeys.contains(signer) else { throw UpdateError.untrustedKey(keyID: signer.keyID) }
        guard signer.isValidSignature(signatureBytes, for: value.removing("signature").canonicalBytes) else {
            throw UpdateError.badSignature(keyID: signer.keyID)
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: value.canonicalBytes)
        } catch {
            throw UpdateError.manifestInvalid("missing or malformed fields")
        }
        guard manifest.format == Manifest.currentFormat else {
            throw UpdateError.manifestInvalid("format \(manifest.format) is not known to this agro")
        }
        guard manifest.file.compression == "gzip" else {
            throw UpdateError.manifestInvalid("unknown compression \"\(manifest.file.compression)\"")
        }
        guard manifest.file.compressed.size >= 0, manifest.file.uncompressed.size >= 0 else {
            throw UpdateError.manifestInvalid("negative size")
        }
        // Every name and hash is checked before any of it becomes part of a local path or a URL:
        // a signed manifest is still outside data (a compromised or careless publisher).
        let deltas = manifest.deltas ?? []
        for file in [manifest.file] + manifest.releases.map(\.file) + deltas.map(\.file) {
            guard Manifest.isSafeRelativePath(file.path) else {
                throw UpdateError.manifestInvalid("a file path leaves the directory or has characters outside [A-Za-z0-9._/-]")
            }
            guard Manifest.isSHA256(file.compressed.sha256), Manifest.isSHA256(file.uncompressed.sha256) else {
                throw UpdateError.manifestInvalid("a sha256 is not 64 lower-case hexadecimal digits")
            }
            guard file.compressed.size >= 0, file.uncompressed.size >= 0 else {
                throw UpdateError.manifestInvalid("negative size")
            }
        }
        for delta in deltas {
            guard delta.file.compression == "gzip" else {
                throw UpdateError.manifestInvalid("unknown compression \"\(delta.file.compression)\"")
            }
            guard Manifest.isSHA256(delta.fromContentHash), Manifest.isSHA256(delta.toContentHash) else {
                throw UpdateError.manifestInvalid("a content hash is not 64 lower-case hexadecimal digits")
            }
            guard delta.fromVersion >= 0, delta.toVersion > delta.fromVersion else {
                throw UpdateError.manifestInvalid("a delta does not lead to a higher version")
            }
        }
        let contentHashes = [manifest.contentHash] + manifest.releases.map(\.contentHash)
        guard contentHashes.allSatisfy({ $0.map(Manifest.isSHA256) ?? true }) else {
            throw UpdateError.manifestInvalid("a content hash is not 64 lower-case hexadecimal digits")
        }
        guard Manifest.isPlainName(manifest.identity) else {
            throw UpdateError.manifestInvalid("the identity is empty, longer than 200 characters or has control characters")
        }
        guard manifest.catalogVersion >= 0, manifest.schemaVersion >= 0, manifest.maxVersionStep.map({ $0 >= 0 }) ?? true else {
            throw UpdateError.manifestInvalid("negative version")
        }
        guard let expiry = manifest.expiryDate else { throw UpdateError.manifestInvalid("expiry is not a date") }
        guard now < expiry else { throw UpdateError.expired(expiresAt: manifest.expiresAt) }
        return manifest
    }

    /// 64 lower-case hexadecimal digits: the only form a sha256 may take in a manifest (the
    /// catalog store names files by it, so the rule lives there).
    package static func isSHA256(_ text: String) -> Bool { CatalogStore.isSHA256(text) }

    /// A name shown to users and compared: 1-200 characters, none of them a control or
    /// format character (which could reorder or hide text on a terminal).
    static func isPlainName(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 200 else { return false }
        return !text.unicodeScalars.contains {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
                || $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator
        }
    }

    /// A relative path without `..`, absolute parts or URL syntax.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/")
        guard path.allSatisfy(allowed.contains) else { return false }
        return !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}
