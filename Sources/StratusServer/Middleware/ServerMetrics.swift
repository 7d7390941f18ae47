import Hummingbird
import Metrics
import NIOCore
import Prometheus
import StratusCore

/// Prometheus metrics for the whole process, served at `GET /metrics` in the text format:
/// requests by method, route and status and their duration (Hummingbird's `MetricsMiddleware`:
/// `hb_requests`, `http_server_request_duration`), and Stratus's own: held push long-polls
/// (`stratus_push_held_connections`) and batches per group commit (`stratus_group_commit_batches`,
/// recorded by the store). The library reports through swift-metrics' API only: the executable
/// bootstraps the metrics system with a Prometheus registry and hands that registry to
/// ``buildRouter(_:options:metrics:mount:)`` to be served.
enum ServerMetrics {
    /// Webcourier long-polls and event streams open now.
    private static let heldPolls = Meter(label: "stratus_push_held_connections")

    static func pollOpened() { heldPolls.increment() }
    static func pollClosed() { heldPolls.decrement() }

    /// `GET /metrics`: open to scrapers on the same host (loopback); from anywhere else it takes
    /// the admin token (`Authorization: Bearer …`), as the admin API does.
    static func register(on router: Router<StratusRequestContext>, registry: PrometheusCollectorRegistry, identity: IdentityService) {
        // Made now, so a scrape lists the gauge (at 0) before any poll.
        pollClosed()
        pollOpened()
        let guarded = router.group().add(middleware: LoopbackOrAdminMiddleware(identity: identity))
        guarded.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
    }
}
