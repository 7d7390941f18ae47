import Metrics
import Prometheus

/// The test process's metrics, bootstrapped once as `stratus serve` does at start (the library
/// never bootstraps swift-metrics itself).
package enum TestMetrics {
    package static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}
