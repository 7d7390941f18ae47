import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import StratusCore

/// The Stratus HTTP application over Core's services, listening on `host:port` (port 0 picks a
/// free one): what `stratus serve` runs and what every test starts. `onListening` runs once the
/// port is bound, with the port actually bound; `mount` adds a peer target's routes (the console);
/// `metrics` is the registry served at `/metrics`. Core's background services run in the
/// application's group, started before the HTTP server and stopped after it (so the push queue
/// drains once the last request is answered).
public func buildApplication(
    _ services: StratusServices, host: String, port: Int, options: HTTPOptions = HTTPOptions(),
    metrics: PrometheusCollectorRegistry? = nil, logger: Logger,
    onListening: @escaping @Sendable (Int) async -> Void = { _ in },
    mount: (Router<StratusRequestContext>) -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        responder: HeldAnswerResponder(router: buildRouter(services, options: options, metrics: metrics, mount: mount).buildResponder()),
        server: .http1(configuration: .init(idleTimeout: TimeAmount(options.idleTimeout))),
        configuration: .init(
            address: .hostname(host, port: port), serverName: "Stratus",
            availableConnectionsDelegate: MaximumAvailableConnections(options.maximumConnections)
        ),
        services: services.background,
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
