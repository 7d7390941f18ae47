import Foundation
import Logging
import StratusModel
import StratusStore

/// records/modify and records/lookup: CloudKit's save and fetch rules over the record store,
/// in the caller's own databases and, through their shared database, in zones shared with them.
public struct RecordService: Sendable {
    let store: any RecordStore & ShareStore & AccountStore & ClientChangeTokenStore
    let access: DatabaseAccess
    let schema: SchemaCache
    let defaultZones: DefaultZones
    let configuration: CoreConfiguration
    let push: PushDispatcher
    let assets: AssetService

    // MARK: - Modify

    /// Applies the operations in order, one store transaction for the zone.
    ///
    /// Per-item failures come back in place of their records; in an atomic zone (with `atomic`
    /// not `false`) one failure fails every item and writes nothing. The decisions are
    /// `ModifyPlan`'s; this loads what it needs and applies the batch it gives.
    /// - Throws: ``CoreError`` for request-level failures (limits, credentials); nothing is written.
    public func modify(_ request: ModifyRecordsRequest, scope: RequestScope, logger: Logger) async throws(CoreError) -> RecordsResponse {
        let database = try access.database(for: scope)
        try configuration.checkCount(request.operations.count, of: "operations", limit: configuration.limits.operationsPerModify(scope.extensions))
        guard let user = scope.caller.userRecordName else { throw access.authenticationRequired(scope) }
        if let problem = request.clientChangeTokenProblem { throw CoreError.badRequest(problem) }
        let names = try ModifyPlan.names(of: request.operations)
        let links = try await assets.links(for: scope)
        let hasAssets = request.operations.contains { operation in operation.record.fields?.values.contains { $0.type.isAsset } ?? false }
        let receipts = hasAssets ? try await assets.receipts(for: scope, user: user) : nil
        do {
            guard let target = try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store), NameRules.isValidRecordName(target.zone.name) else {
                return await zoneMissing(names, request.zoneID, in: database)
            }
            let isDefaultZone = target.zone.name == ZoneID.defaultZoneName
            if isDefaultZone { try await defaultZones.ensure(in: database) }
            let ref = scope.database
            let schema = try await schema.schema(container: ref.container, environment: ref.environment)
            let shares = try await ShareContext.load(
                for: request.operations, store: store, limit: configuration.limits.participantsPerShare,
                zoneMayHoldShares: !isDefaultZone && database.scope != .public
            )
            var planner = OperationPlanner(
                schema: schema, existingTypes: try await existingTypes(request, names: names, zone: target.zone),
                mayLearn: ref.environment == .development, shares: shares, recordBytes: configuration.limits.recordBytes
            )
            var items = zip(request.operations, names).map { operation, name in
                planner.plan(operation, name: name, requestDesiredKeys: request.desiredKeys)
            }
            if let view = target.view {
                items = try await sharedPlans(items, request: request, names: names, view: view, user: user)
            }
            var plan = ModifyPlan(
                operations: request.operations, names: names, items: items, requestedAtomic: request.atomic, isDefaultZone: isDefaultZone
            )
            if let receipts { plan.checkAssets(against: receipts) }
            if let fault = scope.itemFault { plan.inject(fault) }
            // The zone is not read on the way to a batch (the store checks that it exists inside the
            // batch's transaction); an atomic batch that fails before the store reads it here, so a
            // missing zone still answers ZONE_NOT_FOUND.
            if let failed = plan.atomicFailure {
                guard try await store.zone(target.zone) != nil else {
                    return await zoneMissing(names, request.zoneID, in: database)
                }
                return RecordsResponse(records: failed)
            }
            // Public database: the schema's security roles (CloudKit's defaults without one) say who
            // creates records of each type and who changes them; the batch checks each live row.
            let rights = try await PublicAccess.resolve(scope, database: database, schema: self.schema)?.writeRights
            let writes = plan.writes
            var outcomes: [WriteOutcome] = []
            if !writes.isEmpty {
                let author = ChangeAuthor(userRecordName: user, deviceID: scope.deviceID, timestamp: configuration.now())
                let batch = ZoneBatch(
                    zone: target.zone, atomic: plan.atomic, writes: writes, author: author,
                    schema: planner.newFields, schemaMayGrow: ref.environment == .development, rights: rights
                )
                let result = try await store.apply(batch)
                push.publish(CommitEvent(result, batch: batch))
                if let token = request.clientChangeToken, ClientChangeTokens.keeps(result, scope: database.scope, isDefaultZone: isDefaultZone) {
                    await keep(token, of: ClientChangeTokens.client(user: user, device: scope.deviceID), after: result, logger: logger)
                }
                if ModifyPlan.schemaLearns(from: result.outcomes) {
                    self.schema.learn(planner.newFields, container: ref.container, environment: ref.environment)
                }
                outcomes = result.outcomes
            }
            let saved = outcomes.compactMap { if case .saved(let record) = $0 { record } else { nil } }
            let renderer = try await ShareRenderer.load(
                for: saved, in: target.zone, caller: user, store: store, urlPrefix: configuration.shareURLPrefix
            )
            let mapper = RecordMapper(zoneID: target.zoneID, links: links)
            let records = plan.results(of: outcomes, mapper: mapper, shares: renderer)
            logger.debug("records/modify", metadata: ["operations": "\(names.count)", "zone": "\(target.zone.name)"])
            return RecordsResponse(records: records)
        } catch where error.kind == .zoneNotFound {
            return await zoneMissing(names, request.zoneID, in: database)
        } catch {
            throw CoreError(error)
        }
    }

    /// Keeps the client change token a modify the zone took carried. The records are saved
    /// already: a token that cannot be written is logged, and the zone keeps the older one (the
    /// app sends its changes again, as after a modify that did not arrive).
    private func keep(_ token: String, of client: String, after result: ZoneBatchResult, logger: Logger) async {
        do {
            try await store.setClientChangeToken(token, zone: result.zone.id, client: client, asOf: result.zone.lastSeq)
        } catch {
            logger.warning("records/modify: the client change token was not kept", metadata: ["error": "\(error)", "zone": "\(result.zone.name)"])
        }
    }

    /// The stored types of records that operations update without naming their `recordType`.
    private func existingTypes(_ request: ModifyRecordsRequest, names: [String], zone: ZoneKey) async throws(StoreError) -> [String: String] {
        let unnamed = zip(request.operations, names).filter { operation, _ in
            operation.record.recordType == nil && !operation.operationType.isDelete && operation.operationType != .create
        }.map(\.1)
        guard !unnamed.isEmpty else { return [:] }
        let found = try await store.records(named: unnamed, in: zone)
        var types: [String: String] = [:]
        for case let record? in found { types[record.name] = record.type }
        return types
    }

    /// Every record's answer when the zone is missing: `ZONE_NOT_FOUND`, saying so when the user
    /// purged the zone or reset their encrypted data (see ``ZoneTarget/missing(_:in:access:store:)``).
    private func zoneMissing(_ names: [String], _ zoneID: ZoneID?, in database: DatabaseKey) async -> RecordsResponse {
        let error = await ZoneTarget.missing(zoneID, in: database, access: access, store: store)
        return RecordsResponse(records: names.map { .failure(RecordError(recordName: $0, error)) })
    }

    // MARK: - Lookup

    /// Fetches records by name; a missing one is a `NOT_FOUND` entry in its place. In the
    /// shared database a record outside the caller's shares is missing; in the public database
    /// one the schema's security roles do not let the caller read is `ACCESS_DENIED`.
    /// - Throws: ``CoreError`` for request-level failures.
    public func lookup(_ request: LookupRecordsRequest, scope: RequestScope) async throws(CoreError) -> RecordsResponse {
        let database = try access.database(for: scope)
        try configuration.checkCount(request.records.count, of: "records")
        let names = request.records.map(\.recordName)
        let links = try await assets.links(for: scope)
        do {
            guard let target = try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store) else {
                return await zoneMissing(names, request.zoneID, in: database)
            }
            if target.zone.name == ZoneID.defaultZoneName { try await defaultZones.ensure(in: database) }
            var found = try await store.records(named: names, in: target.zone)
            if let visible = target.visibleNames {
                found = found.map { record in record.flatMap { visible.contains($0.name) ? $0 : nil } }
            }
            let publicAccess = try await PublicAccess.resolve(scope, database: database, schema: schema)
            var mapper = RecordMapper(zoneID: target.zoneID, links: links)
            mapper.shares = try await ShareRenderer.load(
                for: found.compactMap { $0 }, in: target.zone, caller: scope.caller.userRecordName, store: store,
                urlPrefix: configuration.shareURLPrefix
            )
            let records = zip(request.records, found).map { item, stored -> RecordResult in
                guard let stored else { return RecordErrors.notFound(item.recordName) }
                if let publicAccess, !publicAccess.mayRead(stored) { return PublicAccess.readDenied(stored) }
                return .success(mapper.record(stored, desiredKeys: item.desiredKeys ?? request.desiredKeys))
            }
            return RecordsResponse(records: records)
        } catch where error.kind == .zoneNotFound {
            return await zoneMissing(names, request.zoneID, in: database)
        } catch {
            throw CoreError(error)
        }
    }
}
