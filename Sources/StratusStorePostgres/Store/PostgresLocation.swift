import Foundation
import PostgresNIO
import StratusStore

/// Where a PostgreSQL store lives: `postgres://USER[:PASS]@HOST[:PORT]/DB` (or `postgresql://`),
/// as `stratus serve --store` and `STRATUS_TEST_POSTGRES` give it. `?sslmode=require` asks for TLS;
/// otherwise the connection is plain (a database on the same host or a private network).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var requiresTLS: Bool

    /// - Throws: ``StoreError/Kind/invalid`` naming what the URL lacks.
    public init(url text: String) throws(StoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw StoreError(.invalid, "a store URL looks like postgres://USER[:PASS]@HOST[:PORT]/DB") }
        guard let host = components.host, !host.isEmpty else { throw StoreError(.invalid, "the store URL names no host") }
        guard let user = components.user, !user.isEmpty else { throw StoreError(.invalid, "the store URL names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw StoreError(.invalid, "the store URL names no database") }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
        self.requiresTLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
    }

    /// The client configuration for this location.
    var configuration: PostgresClient.Configuration {
        PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable
        )
    }

    /// The location without its password (for logs).
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }
}
