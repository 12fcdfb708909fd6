import AgroDomain
import Foundation

/// Who is signed in: `POST /api/v1/session` answers it, `GET /api/v1/session` repeats it.
package struct SessionDocument: Encodable, Sendable {
    package var user: String
    package var role: FarmRole
    package var farm: EntityRef

    package init(_ account: Account, farms: [Farm]) {
        user = account.login
        role = account.role
        farm = EntityRef(farm: account.farm, among: farms)
    }
}

/// A farm in `agro farms list`.
package struct FarmDocument: Encodable, Sendable {
    package var id: UUID
    package var name: String
    /// Its accounts.
    package var people: Int

    package init(_ farm: Farm, people: Int) {
        id = farm.id
        name = farm.name
        self.people = people
    }
}

/// An account in `agro users list`: never its password's hash.
package struct AccountDocument: Encodable, Sendable {
    package var login: String
    package var farm: EntityRef
    package var role: FarmRole

    package init(_ account: Account, farms: [Farm]) {
        login = account.login
        farm = EntityRef(farm: account.farm, among: farms)
        role = account.role
    }
}

extension EntityRef {
    /// The farm `id` as documents name it: its id lowercased, its name from `farms` (empty when
    /// it is not among them).
    fileprivate init(farm id: UUID, among farms: [Farm]) {
        self.init(id: id.uuidString.lowercased(), name: farms.first { $0.id == id }?.name ?? "")
    }
}

/// A sign-in as a program sends it: `{"user": LOGIN, "password": P}`.
package struct SessionInput: Decodable, Sendable {
    package var user: String
    package var password: String

    /// Reads the body; what is not this JSON is one line naming what is wrong.
    package static func decode(_ data: Data) throws -> SessionInput { try RequestError.decodeBody(data) }
}

extension SyncBatch {
    /// Reads the body; a change that cannot be read is named by its position, nothing else is
    /// read further.
    package static func decode(_ data: Data) throws -> SyncBatch {
        do {
            return try JSONDecoder().decode(SyncBatch.self, from: data)
        } catch let error as DecodingError {
            let path = error.context?.codingPath ?? []
            guard let index = path.firstIndex(where: { $0.intValue != nil }), let position = path[index].intValue else {
                throw RequestError.badJSON(detail: path.isEmpty ? "$" : path.map(\.stringValue).joined(separator: " "))
            }
            var reason = path.dropFirst(index + 1).map { $0.intValue.map { String($0 + 1) } ?? $0.stringValue }
                .joined(separator: " ")
            if case let .keyNotFound(key, _) = error { reason += (reason.isEmpty ? "" : " ") + key.stringValue }
            throw FarmError.malformedChange(position: position + 1, reason: reason.isEmpty ? "?" : reason)
        }
    }
}

/// What `agro journal sync --format json` prints.
package struct SyncOutcomeDocument: Encodable, Sendable {
    /// Changes sent and acknowledged.
    package var sent: Int
    /// Records sent that the server's checks found errors in.
    package var sentWithErrors: Int
    /// Changes received that this device did not have.
    package var received: Int
    /// The farm's latest number this device has.
    package var through: Int64
    /// Bytes of the bodies exchanged, both ways.
    package var bytes: Int

    package init(sent: Int, sentWithErrors: Int, received: Int, through: Int64, bytes: Int) {
        (self.sent, self.sentWithErrors, self.received, self.through, self.bytes) = (
            sent, sentWithErrors, received, through, bytes
        )
    }
}
