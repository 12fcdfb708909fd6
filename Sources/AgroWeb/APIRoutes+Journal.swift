import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird

/// The field journal in the JSON API, served when `agro web --journal` keeps it (on a loopback
/// address only, until accounts exist): the documents `agro field` and `agro journal` print.
///
/// - `GET /api/v1/fields`, `POST /api/v1/fields` (a field, 201)
/// - `GET /api/v1/journal?field=&from=&to=`, `POST /api/v1/journal` (a record, checked when
///   written: 201 stored, 200 when the same revision was stored before)
/// - `GET /api/v1/journal/{id}` (every revision), `POST /api/v1/journal/{id}` (a revision)
/// - `GET /api/v1/journal/harvest?field=`, `GET /api/v1/journal/export?format=csv|json&from=&to=`
extension APIRoutes {
    /// The journal's paths, in OpenAPI's template syntax.
    static let journalPaths = [
        "/api/v1/fields", "/api/v1/journal", "/api/v1/journal/harvest", "/api/v1/journal/export", "/api/v1/journal/{id}",
    ]

    /// A record or a field is a few kilobytes; more is a mistake.
    static let maximumRecordBytes = 64 << 10

    static func registerJournal(on api: RouterGroup<BasicRequestContext>, app: WebApp) {
        guard app.journal != nil || app.farm != nil else { return }
        registerSession(on: api, app: app)
        registerSync(on: api, app: app)
        /// The journal of the request: the device's, or its session's farm (which must write
        /// to write).
        @Sendable func journal(_ request: Request, _ environment: AgroPresentation.Environment, writing: Bool = false)
            throws -> Journal<AnyJournal>
        {
            Journal(
                store: try app.journalStore(for: request, now: environment.now, writing: writing), catalog: app.catalog,
                locale: environment.locale, now: environment.now)
        }
        api.get("fields") { request, context in
            await answer(request, context, app, cached: false) { _, environment in
                let journal = try journal(request, environment)
                return try journal.store.fields().map { field in
                    try FieldDocument(
                        field, catalog: app.catalog, environment: environment, season: try journal.season(of: field))
                }
            }
        }
        api.post("fields") { request, _ in
            await write(request, app) { body, environment in
                let journal = try journal(request, environment, writing: true)
                let field = try FieldInput.decode(body).field(catalog: app.catalog, environment: environment)
                let added = try journal.add(field)
                return (added ? .created : .ok, try FieldDocument(field, catalog: app.catalog, environment: environment))
            }
        }
        api.get("journal") { request, context in
            await answer(request, context, app, cached: false) { web, environment in
                try query(web).documents(
                    journal: try journal(request, environment), catalog: app.catalog, environment: environment)
            }
        }
        api.post("journal") { request, _ in
            await write(request, app) { body, environment in
                let journal = try journal(request, environment, writing: true)
                let record = try RecordInput.decode(body).record(journal: journal, catalog: app.catalog, environment: environment)
                return try written(record, journal: journal, app: app, environment: environment)
            }
        }
        api.get("journal/harvest") { request, context in
            await answer(request, context, app, cached: false) { web, environment in
                let journal = try journal(request, environment)
                let fields = try web.query("field").map { [try journal.field($0)] } ?? journal.store.fields()
                return try fields.map { field in
                    try FieldDocument(
                        field, catalog: app.catalog, environment: environment, season: try journal.season(of: field))
                }
            }
        }
        api.get("journal/export") { request, context in
            let web = WebRequest(request: request, app: app)
            let environment = app.environment(locale: web.locale(cookies: false))
            let outcome = await BlockingWork.run { () -> Result<(String, Bool), any Error> in
                Result {
                    let format = web.query("format") ?? "csv"
                    guard ["csv", "json"].contains(format) else {
                        throw RequestError.unknownValue(.format, value: format, valid: ["csv", "json"])
                    }
                    let rows = try query(web).export(
                        journal: try journal(request, environment), catalog: app.catalog, environment: environment)
                    return format == "csv" ? (JournalQuery.csv(rows), true) : (try AgroPresentation.Environment.json(rows), false)
                }
            }
            switch outcome {
            case let .success((text, true)):
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"journal.csv\"",
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            case let .success((text, false)): return json(text)
            case let .failure(error): return failure(error, app: app, environment: environment)
            }
        }
        api.get("journal/:id") { request, context in
            await answer(request, context, app, cached: false) { _, environment in
                let journal = try journal(request, environment)
                let history = try journal.history(try parameter(context, "id"))
                return try RecordDocument.history(history, journal: journal, catalog: app.catalog, environment: environment)
            }
        }
        api.post("journal/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await write(request, app) { body, environment in
                let journal = try journal(request, environment, writing: true)
                guard let latest = try journal.history(id).last else { throw JournalError.unknownRecord(id) }
                let record = try RecordInput.decode(body).revision(
                    of: latest.record, journal: journal, catalog: app.catalog, environment: environment)
                return try written(record, journal: journal, app: app, environment: environment)
            }
        }
    }

    private static func query(_ web: WebRequest) -> JournalQuery {
        JournalQuery(field: web.query("field"), from: web.query("from"), to: web.query("to"))
    }

    /// Checks and stores `record`; 201 when stored, 200 when the same revision was stored before.
    private static func written(
        _ record: SprayRecord, journal: Journal<some JournalStore>, app: WebApp, environment: AgroPresentation.Environment
    ) throws -> (HTTPResponse.Status, WrittenRecordDocument) {
        let (check, _, document) = try WrittenRecordDocument.write(
            record, journal: journal, catalog: app.catalog, environment: environment)
        return (check.stored ? .created : .ok, document)
    }

    /// A request that writes: its body (at most `limit` bytes), the work in the pool, the
    /// answer's status and document, or the error in the request's language.
    static func write<T: Encodable>(
        _ request: Request, _ app: WebApp, limit: Int = maximumRecordBytes,
        _ body: @escaping @Sendable (Data, AgroPresentation.Environment) throws -> (HTTPResponse.Status, T)
    ) async -> Response {
        let web = WebRequest(request: request, app: app)
        let environment = app.environment(locale: web.locale(cookies: false))
        let data: Data
        do {
            data = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch {
            return failure(RequestError.bodyTooLarge(mebibytes: max(1, limit >> 20)), app: app, environment: environment)
        }
        let outcome = await BlockingWork.run { () -> Result<(HTTPResponse.Status, String), any Error> in
            Result {
                let (status, document) = try body(data, environment)
                return (status, try AgroPresentation.Environment.json(document))
            }
        }
        switch outcome {
        case let .success((status, text)): return json(text, status: status)
        case let .failure(error): return failure(error, app: app, environment: environment)
        }
    }
}
