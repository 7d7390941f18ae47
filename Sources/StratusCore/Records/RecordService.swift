import Foundation
import Logging
import StratusModel
import StratusStore

/// records/modify and records/lookup: CloudKit's save and fetch rules over the record store.
public struct RecordService: Sendable {
    let store: any RecordStore
    let access: DatabaseAccess
    let schema: SchemaCache
    let defaultZones: DefaultZones
    let configuration: CoreConfiguration

    // MARK: - Modify

    /// Applies the operations in order, one store transaction for the zone.
    ///
    /// Per-item failures come back in place of their records; in an atomic zone (with `atomic`
    /// not `false`) one failure fails every item and writes nothing.
    /// - Throws: ``CoreError`` for request-level failures (limits, credentials); nothing is written.
    public func modify(_ request: ModifyRecordsRequest, scope: RequestScope, logger: Logger) async throws(CoreError) -> RecordsResponse {
        let database = try access.database(for: scope)
        try checkLimits(request)
        guard let user = scope.caller.userRecordName else { throw access.authenticationRequired }
        let names = OperationPlanner.names(of: request.operations)
        if let duplicate = firstDuplicate(names) {
            throw CoreError.badRequest("more than one operation for record '\(duplicate)'")
        }
        let zoneID = request.zoneID ?? .defaultZone()
        guard let zoneKey = access.zoneKey(zoneID, in: database), NameRules.isValidRecordName(zoneKey.name) else {
            return RecordsResponse(records: names.map { zoneNotFound($0) })
        }
        do {
            let isDefaultZone = zoneKey.name == ZoneID.defaultZoneName
            if isDefaultZone { try await defaultZones.ensure(in: database) }
            let ref = scope.database
            let schema = try await schema.schema(container: ref.container, environment: ref.environment)
            var planner = OperationPlanner(
                schema: schema, existingTypes: try await existingTypes(request, names: names, zone: zoneKey),
                mayLearn: ref.environment == .development
            )
            let plans = zip(request.operations, names).map { operation, name in
                planner.plan(operation, name: name, requestDesiredKeys: request.desiredKeys)
            }
            // Custom zones commit atomically, the default zone never: the zone is not read here,
            // the store checks that it exists inside the batch's transaction.
            let atomic = (request.atomic ?? true) && !isDefaultZone
            let mapper = RecordMapper(zoneID: access.zoneID(named: zoneKey.name, in: database))
            if atomic, plans.contains(where: { if case .failure = $0 { true } else { false } }) {
                guard try await store.zone(zoneKey) != nil else { return RecordsResponse(records: names.map { zoneNotFound($0) }) }
                return RecordsResponse(records: zip(plans, names).map { plan, name in
                    if case .failure(let error) = plan { return .failure(error) }
                    return .failure(atomicError(name))
                })
            }
            // Public database: World reads, Authenticated creates, only the Creator changes a record.
            let requiredCreator = database.scope == .public ? user : nil
            let writes = plans.compactMap { plan -> RecordWrite? in
                guard case .write(var write, _) = plan else { return nil }
                write.requiredCreator = requiredCreator
                return write
            }
            let author = ChangeAuthor(userRecordName: user, deviceID: scope.deviceID, timestamp: configuration.now())
            let batch = ZoneBatch(
                zone: zoneKey, atomic: atomic, writes: writes, author: author,
                schema: planner.newFields, schemaMayGrow: ref.environment == .development
            )
            let result = try await store.apply(batch)
            if result.outcomes.contains(where: { if case .failed = $0 { false } else { true } }) {
                self.schema.learn(planner.newFields, container: ref.container, environment: ref.environment)
            }
            var outcomes = result.outcomes.makeIterator()
            let records = zip(plans, names).map { plan, name -> RecordResult in
                switch plan {
                case .failure(let error): return .failure(error)
                case .write(_, let desiredKeys):
                    guard let outcome = outcomes.next() else { return .failure(atomicError(name)) }
                    return mapOutcome(outcome, name: name, desiredKeys: desiredKeys, mapper: mapper)
                }
            }
            logger.debug("records/modify", metadata: ["operations": "\(names.count)", "zone": "\(zoneKey.name)"])
            return RecordsResponse(records: records)
        } catch where error.kind == .zoneNotFound {
            return RecordsResponse(records: names.map { zoneNotFound($0) })
        } catch {
            throw CoreError(error)
        }
    }

    private func checkLimits(_ request: ModifyRecordsRequest) throws(CoreError) {
        let limits = configuration.limits
        try configuration.checkCount(request.operations.count, of: "operations")
        for operation in request.operations {
            guard let fields = operation.record.fields, !fields.isEmpty else { continue }
            let size = fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.value.dataSize }
            if size > limits.recordBytes {
                throw CoreError.badRequest(
                    "record '\(operation.record.recordName ?? "")' holds \(size) bytes (limit \(limits.recordBytes) per record)"
                )
            }
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

    private func mapOutcome(_ outcome: WriteOutcome, name: String, desiredKeys: [String]?, mapper: RecordMapper) -> RecordResult {
        switch outcome {
        case .saved(let record): return .success(mapper.record(record, desiredKeys: desiredKeys))
        case .deleted(let name): return .success(mapper.deleted(name))
        case .failed(let failure):
            let error: RecordError
            switch failure {
            case .exists(let server):
                error = RecordError(
                    recordName: name, serverErrorCode: .exists, reason: "record to insert already exists",
                    uuid: UUID().uuidString, serverRecord: mapper.record(server, desiredKeys: nil)
                )
            case .conflict(let server):
                error = RecordError(
                    recordName: name, serverErrorCode: .conflict,
                    reason: "record changed on the server: recordChangeTag is \(server.changeTag)",
                    uuid: UUID().uuidString, serverRecord: mapper.record(server, desiredKeys: nil)
                )
            case .notFound:
                error = RecordError(recordName: name, serverErrorCode: .notFound, reason: "Record not found", uuid: UUID().uuidString)
            case .permissionDenied:
                error = RecordError(
                    recordName: name, serverErrorCode: .accessDenied,
                    reason: "only the record's creator may change it in the public database", uuid: UUID().uuidString
                )
            case .invalid(let reason):
                error = RecordError(recordName: name, serverErrorCode: .badRequest, reason: reason, uuid: UUID().uuidString)
            case .atomicAborted:
                error = atomicError(name)
            }
            return .failure(error)
        }
    }

    private func atomicError(_ name: String) -> RecordError {
        RecordError(
            recordName: name, serverErrorCode: .atomicError,
            reason: "atomic batch failed: another operation in this zone failed, nothing was saved", uuid: UUID().uuidString
        )
    }

    private func zoneNotFound(_ name: String) -> RecordResult {
        .failure(RecordError(recordName: name, serverErrorCode: .zoneNotFound, reason: "Zone not found", uuid: UUID().uuidString))
    }

    private func firstDuplicate(_ names: [String]) -> String? {
        var seen = Set<String>()
        return names.first { !seen.insert($0).inserted }
    }

    // MARK: - Lookup

    /// Fetches records by name; a missing one is a `NOT_FOUND` entry in its place.
    /// - Throws: ``CoreError`` for request-level failures.
    public func lookup(_ request: LookupRecordsRequest, scope: RequestScope) async throws(CoreError) -> RecordsResponse {
        let database = try access.database(for: scope)
        try configuration.checkCount(request.records.count, of: "records")
        let names = request.records.map(\.recordName)
        guard let zoneKey = access.zoneKey(request.zoneID, in: database) else {
            return RecordsResponse(records: names.map { zoneNotFound($0) })
        }
        do {
            if zoneKey.name == ZoneID.defaultZoneName { try await defaultZones.ensure(in: database) }
            let found = try await store.records(named: names, in: zoneKey)
            let mapper = RecordMapper(zoneID: access.zoneID(named: zoneKey.name, in: database))
            let records = zip(request.records, found).map { item, stored -> RecordResult in
                guard let stored else {
                    return .failure(RecordError(
                        recordName: item.recordName, serverErrorCode: .notFound, reason: "Record not found", uuid: UUID().uuidString
                    ))
                }
                return .success(mapper.record(stored, desiredKeys: item.desiredKeys ?? request.desiredKeys))
            }
            return RecordsResponse(records: records)
        } catch where error.kind == .zoneNotFound {
            return RecordsResponse(records: names.map { zoneNotFound($0) })
        } catch {
            throw CoreError(error)
        }
    }
}
