import ServiceLifecycle

/// Runs `service` once `prepare` is done: the application starts serving only after the store's
/// migrations, which on PostgreSQL need the store's own service (listed before this one) running.
struct PreparedService: Service {
    let prepare: @Sendable () async throws -> Void
    let service: any Service

    func run() async throws {
        try await prepare()
        try await service.run()
    }
}
