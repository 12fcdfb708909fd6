import AgroDomain
import Crypto
import Foundation
import HummingbirdBcrypt

/// Passwords hashed with bcrypt (Hummingbird's own `HummingbirdBcrypt`), session tokens
/// digested with SHA-256: the token is long and random, so a fast digest is enough, and the
/// store never holds a token that would sign anyone in.
public struct BcryptHasher: PasswordHasher {
    /// bcrypt's cost: 2^cost rounds. 12 takes a fraction of a second per sign-in on one core,
    /// which is what makes guessing slow.
    public let cost: UInt8

    /// Creates the hasher.
    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    /// A bcrypt hash with its own salt.
    public func hash(_ password: String) -> String { Bcrypt.hash(password, cost: cost) }

    /// Whether `password` matches the bcrypt `hash`.
    public func verify(_ password: String, hash: String) -> Bool { Bcrypt.verify(password, hash: hash) }

    /// SHA-256 of the token, in hex.
    public func digest(token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
