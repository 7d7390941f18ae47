import Foundation

// `configuredWith(configuration:group:body:)`: Apple runs the calls made in `body` with the
// configuration's timeouts and under the group's name. Stratus's transport keeps its own
// timeouts and labels nothing, so `body` runs with the same object (the calls in it go as any do).

extension CKDatabase {
    /// Runs `body` with this database, its calls configured by `configuration` and `group`.
    @discardableResult
    public func configuredWith<R>(
        configuration: CKOperation.Configuration? = nil, group: CKOperationGroup? = nil, body: (_ configuredDatabase: CKDatabase) throws -> R
    ) rethrows -> R {
        try body(self)
    }

    /// Runs `body` with this database, its calls configured by `configuration` and `group`.
    @discardableResult
    public func configuredWith<R>(
        configuration: CKOperation.Configuration? = nil, group: CKOperationGroup? = nil,
        body: @Sendable (_ configuredDatabase: CKDatabase) async throws -> R
    ) async rethrows -> R {
        try await body(self)
    }
}

extension CKContainer {
    /// Runs `body` with this container, its calls configured by `configuration` and `group`.
    @discardableResult
    public func configuredWith<R>(
        configuration: CKOperation.Configuration? = nil, group: CKOperationGroup? = nil, body: (_ configuredContainer: CKContainer) throws -> R
    ) rethrows -> R {
        try body(self)
    }

    /// Runs `body` with this container, its calls configured by `configuration` and `group`.
    @discardableResult
    public func configuredWith<R>(
        configuration: CKOperation.Configuration? = nil, group: CKOperationGroup? = nil,
        body: @Sendable (_ configuredContainer: CKContainer) async throws -> R
    ) async rethrows -> R {
        try await body(self)
    }
}
