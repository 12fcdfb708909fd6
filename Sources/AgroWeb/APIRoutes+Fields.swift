import AgroDomain
import AgroPresentation
import Foundation
import Hummingbird

/// The decision endpoints of the JSON API: `POST /api/v1/plan/check` (`agro plan check`) and
/// `GET /api/v1/tank` (`agro tank`), answering with the documents those commands print.
extension APIRoutes {
    static func registerDecisions(on api: RouterGroup<BasicRequestContext>, app: WebApp) {
        // The plan is the body: JSON, or CSV (Content-Type text/csv, or a text not starting with `{`).
        api.post("plan/check") { request, _ in
            let web = WebRequest(request: request, app: app)
            let environment = app.environment(locale: web.locale(cookies: false))
            let body: Data
            do {
                body = Data(try await request.body.collect(upTo: CatalogDocuments.maximumPlanBytes).readableBytesView)
            } catch {
                return failure(
                    RequestError.bodyTooLarge(mebibytes: CatalogDocuments.maximumPlanBytes / 1_048_576),
                    app: app, environment: environment)
            }
            let name = (request.headers[.contentType] ?? "").lowercased().contains("csv") ? "plan.csv" : "plan"
            let outcome = await BlockingWork.run { () -> Result<String, any Error> in
                Result {
                    try AgroPresentation.Environment.json(
                        try CatalogDocuments.planCheck(body, fileName: name, catalog: app.catalog, environment: environment))
                }
            }
            switch outcome {
            case let .success(text): return json(text)
            case let .failure(error): return failure(error, app: app, environment: environment)
            }
        }
        api.get("tank") { request, context in
            await answer(request, context, app) { web, environment in
                let form = try TankForm(web)
                return try CatalogDocuments.tank(
                    products: form.products, doses: form.doses, units: form.units, area: form.area, water: form.water,
                    tank: form.tank, culture: try environment.resolve(web.query("culture"), .culture, in: app.catalog),
                    catalog: app.catalog, environment: environment)
            }
        }
    }
}
