import Hummingbird
import Prometheus
import StratusCore
import StratusModel

/// The whole HTTP surface over Core's services, used by `stratus serve` and by every server test.
///
/// Router-level middleware comes first (request ID, CORS, access log, errors, the body deadline: middleware
/// covers only the routes added after it), then CKWS under
/// `/database/1/{container}/{environment}/{database}/` behind credential resolution (and push
/// registration under `/device/1/{container}/{environment}/`, as CloudKit JS sends it), then
/// Stratus's own endpoints under `/stratus/v1/`. `mount` adds routes of a peer target (the
/// console) after the body deadline, before the 405 answers are worked out. `metrics` is the
/// Prometheus registry the executable bootstrapped swift-metrics with, served at `/metrics`
/// (no route without one).
public func buildRouter(
    _ services: StratusServices, options: HTTPOptions = HTTPOptions(), metrics: PrometheusCollectorRegistry? = nil,
    mount: (Router<StratusRequestContext>) -> Void = { _ in }
) -> Router<StratusRequestContext> {
    let router = Router(context: StratusRequestContext.self)
    let limits = services.configuration.limits
    router.add(middleware: RequestIDMiddleware())
    // CORS next, so preflights never reach a route and error answers carry its headers too.
    if let cors = options.cors {
        router.add(middleware: cors)
        router.add(middleware: ExposeHeadersMiddleware(headers: HTTPOptions.exposedHeaders.joined(separator: ", ")))
    }
    // The access log and the request metrics outside the error middleware: failures count too, with their status.
    router.add(middleware: AccessLogMiddleware(recent: services.requests))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ErrorMiddleware())
    // Asset bytes stream: their routes come before the body deadline, which reads bodies whole.
    let uploadTimeout = options.bodyTimeout * Int(max(1, limits.assetBytes / Int64(max(limits.requestBytes, 1))))
    AssetTransferRoutes(assets: services.assets, uploadTimeout: uploadTimeout).register(on: router.group("stratus/v1"))
    router.add(middleware: BodyDeadlineMiddleware(limit: limits.requestBytes, timeout: options.bodyTimeout))

    let database = router.group("database/1/:container/:environment/:database")
        .add(middleware: DatabaseAuthMiddleware(identity: services.identity, serverKeys: services.serverKeys))
        .add(middleware: FaultMiddleware(faults: services.faults, prefixComponents: 5))
        .group(context: DatabaseContext.self)
    ZonesRoutes(zones: services.zones).register(on: database)
    RecordsRoutes(records: services.records, changes: services.changes, queries: services.queries).register(on: database)
    ChangesRoutes(changes: services.changes).register(on: database)
    UsersRoutes(users: services.users).register(on: database)
    SharesRoutes(shares: services.shares).register(on: database)
    SubscriptionsRoutes(subscriptions: services.subscriptions).register(on: database)
    TokensRoutes(tokens: services.pushTokens).register(on: database)
    AssetsRoutes(assets: services.assets).register(on: database)

    // User, share-invitation, token and subscription lookup endpoints are also served without a database segment.
    let withoutDatabase = router.group("database/1/:container/:environment")
        .add(middleware: DatabaseAuthMiddleware(identity: services.identity, serverKeys: services.serverKeys))
        .add(middleware: FaultMiddleware(faults: services.faults, prefixComponents: 4))
        .group(context: DatabaseContext.self)
    UsersRoutes(users: services.users).register(on: withoutDatabase)
    SharesRoutes(shares: services.shares).register(on: withoutDatabase)
    TokensRoutes(tokens: services.pushTokens).register(on: withoutDatabase)
    SubscriptionsRoutes(subscriptions: services.subscriptions).registerLookup(on: withoutDatabase)

    // CloudKit JS registers for push under `/device/1/{container}/{environment}/tokens/create`.
    let device = router.group("device/1/:container/:environment")
        .add(middleware: DatabaseAuthMiddleware(identity: services.identity, serverKeys: services.serverKeys))
        .add(middleware: FaultMiddleware(faults: services.faults, prefixComponents: 4))
        .group(context: DatabaseContext.self)
    TokensRoutes(tokens: services.pushTokens).register(on: device)

    let pages: Pages
    do { pages = try Pages() } catch { preconditionFailure("a built-in page template does not parse: \(error)") }
    SharePageRoutes(shares: services.shares, pages: pages).register(on: router)
    let stratus = router.group("stratus/v1")
    ServiceRoutes().register(on: stratus)
    SignInRoutes(signIn: services.signIn, pages: pages).register(on: stratus)
    WebcourierRoutes(tokens: services.pushTokens).register(on: stratus)
    let admin = stratus.group("admin").add(middleware: AdminAuthMiddleware(identity: services.identity))
    AdminRoutes(services: services).register(on: admin)
    FaultRoutes(faults: services.faults).register(on: admin)
    AccountEventRoutes(admin: services.admin, identity: services.identity).register(on: admin)
    ServerKeyRoutes(serverKeys: services.serverKeys).register(on: admin)
    AssetCollectionRoutes(assets: services.assets).register(on: admin)
    FixtureRoutes(fixtures: services.fixtures).register(on: admin)
    if let metrics { ServerMetrics.register(on: router, registry: metrics, identity: services.identity) }
    mount(router)
    MethodNotAllowedRoutes.register(on: router)
    return router
}
