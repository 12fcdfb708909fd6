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
        guard let keyData = Data(base64Encoded: signature.publicKey), let signer = try? PublicSigningKey(rawRepresentation: keyData),
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
        guard Manifest.isSafeRelativePath(manifest.file.path) else {
            throw UpdateError.manifestInvalid("file path \"\(manifest.file.path)\" leaves the directory")
        }
        guard let expiry = manifest.expiryDate else { throw UpdateError.manifestInvalid("expiry is not a date") }
        guard now < expiry else { throw UpdateError.expired(expiresAt: manifest.expiresAt) }
        return manifest
    }

    /// A relative path without `..`, absolute parts or URL syntax.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/")
        guard path.allSatisfy(allowed.contains) else { return false }
        return !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}
