import Logging
import ServiceLifecycle
import StratusModel

/// The scheduled collection: every `interval`, blobs unreferenced for longer than the grace
/// period (longer than a receipt lives) are removed. Runs beside the HTTP server and stops with it.
public struct AssetCollector: Service {
    let assets: AssetService
    let interval: Duration
    let logger: Logger

    public init(assets: AssetService, interval: Duration = .seconds(600), logger: Logger) {
        self.assets = assets
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        let grace = assets.collectionGraceSeconds
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            guard !Task.isShuttingDownGracefully else { return }
            do {
                let result = try await assets.collect(olderThanSeconds: grace)
                if result.removed > 0 { logger.notice("asset collection", metadata: ["removed": "\(result.removed)", "kept": "\(result.kept)"]) }
            } catch {
                logger.error("asset collection failed: \(error)")
            }
        }
    }
}
