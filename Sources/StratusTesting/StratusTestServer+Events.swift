import Foundation
import StratusCore
import StratusModel

// What a test names when it makes something happen to the server: the admin API's own types.
@_exported import enum StratusModel.DatabaseScope
@_exported import enum StratusModel.FaultAction
@_exported import struct StratusModel.CreateFaultRequest
@_exported import struct StratusModel.FaultMatch
@_exported import struct StratusModel.FaultRule
@_exported import struct StratusModel.ServerErrorCode
@_exported import enum StratusModel.ZoneDeletionReason

/// What a test makes happen to its server, one call each — the admin API's operations, typed,
/// made in process. Accounts are named as in ``StratusTestServer/connection(account:)``;
/// `container` is the default one unless named.
extension StratusTestServer {
    /// Adds a fault rule (a request error with `retryAfter`, a per-item error, latency, an
    /// answer lost after its commit); answers the rule with its `faultID`.
    ///
    /// ```swift
    /// try server.addFault(CreateFaultRequest(match: FaultMatch(endpoint: "records/modify"), action: .error(.throttled, retryAfter: 2), count: 1))
    /// ```
    @discardableResult
    public func addFault(_ rule: CreateFaultRequest) throws -> FaultRule {
        try services.faults.add(rule)
    }

    /// Removes every fault rule; answers how many there were.
    @discardableResult
    public func clearFaults() -> Int {
        services.faults.clear()
    }

    /// Expires every change token of a zone of `account`'s: a fetch from an older token gets
    /// `changeTokenExpired` (the server compacts the zone's history).
    public func expireChangeTokens(zone zoneName: String, account: String, container: String? = nil) async throws {
        let database = DatabaseRef(container: container ?? credentials.container, environment: .development, scope: .private)
        _ = try await services.admin.compact(zoneName: zoneName, ownerRecordName: try userRecordName(account), database: database)
    }

    /// Time travel: every change token of `account`'s database from before now expires, the
    /// database's and each zone's, as after CloudKit dropped old history.
    public func expireChangeTokens(account: String, database: DatabaseScope = .private, container: String? = nil) async throws {
        let request = CompactDatabaseRequest(
            container: container ?? credentials.container, environment: .development, database: database, ownerRecordName: try userRecordName(account)
        )
        _ = try await services.admin.compactDatabase(request)
    }

    /// Sets `account`'s storage quota in bytes (`nil` lifts it): saves beyond it fail with
    /// `quotaExceeded`.
    public func setQuota(bytes: Int64?, account: String, container: String? = nil) async throws {
        let request = SetQuotaRequest(container: container ?? credentials.container, environment: .development, userRecordName: try userRecordName(account), bytes: bytes)
        _ = try await services.admin.setQuota(request)
    }

    /// Deletes one of `account`'s zones as the user would see it happen: deleted, purged in
    /// Settings, or lost to an encrypted-data reset.
    public func resetZone(_ zoneName: String, account: String, reason: ZoneDeletionReason, container: String? = nil) async throws {
        let request = ZoneResetRequest(
            container: container ?? credentials.container, environment: .development, userRecordName: try userRecordName(account), zoneName: zoneName, reason: reason
        )
        _ = try await services.admin.resetZone(request)
    }

    /// Revokes `account`'s web auth token for `container`: its next request answers
    /// `notAuthenticated`, as when the user signed out of iCloud elsewhere.
    public func revokeWebAuthToken(account: String, container: String? = nil) async throws {
        let identifier = container ?? credentials.container
        let user = try seeded(account)
        guard let token = credentials.seededContainer(identifier)?.webAuthTokens[user.name] else {
            throw StratusTestServerError("no web auth token for \(account) in \(identifier)")
        }
        _ = try await services.identity.revoke(webAuthToken: token)
    }

    /// The user record name of `account` (alice, bob, carol, or an email).
    public func userRecordName(_ account: String) throws -> String {
        try seeded(account).userRecordName
    }

    private func seeded(_ account: String) throws -> DevCredentials.Account {
        guard let entry = credentials.accounts.first(where: { $0.name == account || $0.email.lowercased() == account.lowercased() }) else {
            throw StratusTestServerError("no account '\(account)' (the server has \(credentials.accounts.map(\.name).joined(separator: ", ")))")
        }
        return entry
    }
}
