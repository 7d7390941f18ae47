import Logging
import StratusModel
import StratusStore

/// Test fixtures for a container environment: wipe its data (or one account's), export its
/// records as JSON, import such a file. A reset deletes as a device would see it happen (zones
/// reported deleted, records as tombstones, subscribers notified); an import writes through
/// `RecordService` as each record's owner or creator, so every CloudKit rule applies to it.
public struct DataFixtures: Sendable {
    let store: any CompleteStore
    let identity: IdentityService
    let records: RecordService
    let push: PushDispatcher
    let now: @Sendable () -> Int64

    /// Records deleted or saved per batch.
    static let batchSize = 200

    // MARK: - Reset

    public func reset(_ request: DataResetRequest) async throws(CoreError) -> DataResetResponse {
        try await requireContainer(request.container)
        let accounts = try await owners(request.userRecordName)
        var result = DataResetResponse(zonesDeleted: 0, recordsDeleted: 0, subscriptionsDeleted: 0)
        do {
            for account in accounts {
                let database = DatabaseKey(container: request.container, environment: request.environment, scope: .private, owner: account)
                for zone in try await store.zones(in: database) {
                    let key = ZoneKey(database: database, name: zone.name)
                    if zone.name == ZoneID.defaultZoneName {
                        result.recordsDeleted += try await deleteRecords(in: key, author: account, createdBy: nil)
                    } else {
                        let deleted = try await store.deleteZone(key, reason: .deleted)
                        push.publish(CommitEvent(zone: key, author: account, originDevice: nil, previousSeq: deleted.feedSeq - 1))
                        result.zonesDeleted += 1
                    }
                }
                result.subscriptionsDeleted += try await deleteSubscriptions(of: account, in: request)
            }
            let publicZone = ZoneKey(
                database: DatabaseKey(container: request.container, environment: request.environment, scope: .public, owner: DatabaseKey.publicOwner),
                name: ZoneID.defaultZoneName
            )
            if try await store.zone(publicZone) != nil {
                result.recordsDeleted += try await deleteRecords(
                    in: publicZone, author: request.userRecordName ?? ServerKeys.developer, createdBy: request.userRecordName
                )
            }
        } catch {
            throw CoreError(error)
        }
        return result
    }

    /// Deletes a zone's live records (those `createdBy` made, when given), a batch at a time.
    private func deleteRecords(in zone: ZoneKey, author: String, createdBy: String?) async throws(StoreError) -> Int {
        let names = try await liveRecords(in: zone).filter { createdBy == nil || $0.created.userRecordName == createdBy }.map(\.name)
        var deleted = 0
        for start in stride(from: 0, to: names.count, by: Self.batchSize) {
            let writes = names[start..<min(start + Self.batchSize, names.count)].map {
                RecordWrite(name: $0, action: .delete, precondition: .none, recordType: nil)
            }
            let batch = ZoneBatch(zone: zone, atomic: false, writes: writes, author: ChangeAuthor(userRecordName: author, deviceID: nil, timestamp: now()))
            let result = try await store.apply(batch)
            push.publish(CommitEvent(result, batch: batch))
            deleted += result.changes.count { $0.kind == .deleted }
        }
        return deleted
    }

    private func deleteSubscriptions(of account: String, in request: DataResetRequest) async throws(StoreError) -> Int {
        var deleted = 0
        for scope in DatabaseScope.allCases {
            let subscriber = SubscriberKey(container: request.container, environment: request.environment, scope: scope, user: account)
            let ids = try await store.subscriptions(of: subscriber).map(\.subscriptionID)
            guard !ids.isEmpty else { continue }
            _ = try await store.modifySubscriptions(ids.map { .delete(subscriptionID: $0) }, of: subscriber)
            push.subscriptions.invalidate(subscriber)
            deleted += ids.count
        }
        return deleted
    }

    // MARK: - Export

    public func export(container: String, environment: ContainerEnvironment) async throws(CoreError) -> DataExport {
        try await requireContainer(container)
        var databases: [DataExport.Database] = []
        var skipped = 0
        let accounts = try await owners(nil)
        do {
            for account in accounts {
                let database = DatabaseKey(container: container, environment: environment, scope: .private, owner: account)
                let zones = try await exportZones(in: database, skipped: &skipped)
                if !zones.isEmpty { databases.append(DataExport.Database(scope: .private, ownerRecordName: account, zones: zones)) }
            }
            let publicDatabase = DatabaseKey(container: container, environment: environment, scope: .public, owner: DatabaseKey.publicOwner)
            let zones = try await exportZones(in: publicDatabase, skipped: &skipped)
            if !zones.isEmpty { databases.append(DataExport.Database(scope: .public, ownerRecordName: nil, zones: zones)) }
        } catch {
            throw CoreError(error)
        }
        return DataExport(container: container, environment: environment, databases: databases, skipped: skipped)
    }

    private func exportZones(in database: DatabaseKey, skipped: inout Int) async throws(StoreError) -> [DataExport.Zone] {
        var zones: [DataExport.Zone] = []
        for zone in try await store.zones(in: database) {
            let key = ZoneKey(database: database, name: zone.name)
            let zoneID = ZoneID(zoneName: zone.name, ownerRecordName: database.scope == .private ? database.owner : nil)
            let mapper = RecordMapper(zoneID: zoneID)
            var records: [Record] = []
            for stored in try await liveRecords(in: key) {
                guard !ShareNames.isShareType(stored.type) else {
                    skipped += 1
                    continue
                }
                var record = mapper.record(stored, desiredKeys: nil)
                let assets = record.fields?.filter { $0.value.type.isAsset }.map(\.key) ?? []
                for name in assets { record.fields?[name] = nil }
                skipped += assets.count
                record.share = nil
                record.shortGUID = nil
                record.recordChangeTag = nil
                records.append(record)
            }
            if !records.isEmpty { zones.append(DataExport.Zone(zoneName: zone.name, atomic: zone.atomic, records: records)) }
        }
        return zones
    }

    /// A zone's live records, read page by page from its change feed.
    private func liveRecords(in zone: ZoneKey) async throws(StoreError) -> [StoredRecord] {
        var records: [StoredRecord] = []
        var after: Int64 = 0
        var generation: Int64?
        while true {
            let page = try await store.changes(in: zone, generation: generation, after: after, recordTypes: nil, limit: 1_000)
            records += page.records.filter { !$0.deleted }
            guard page.moreComing else { return records }
            (after, generation) = (page.throughSeq, page.zone.id)
        }
    }

    // MARK: - Import

    public func importData(_ export: DataExport, logger: Logger) async throws(CoreError) -> DataImportResponse {
        try await requireContainer(export.container)
        var result = DataImportResponse(zonesCreated: 0, recordsSaved: 0, errors: [])
        for database in export.databases {
            guard database.scope != .shared else {
                throw CoreError.badRequest("an export holds private and public databases; shared zones are their owners' private ones")
            }
            for zone in database.zones {
                let zoneID = ZoneID(zoneName: zone.zoneName, ownerRecordName: database.ownerRecordName)
                if database.scope == .private {
                    guard let owner = database.ownerRecordName else { throw CoreError.badRequest("a private database names its ownerRecordName") }
                    if zone.zoneName != ZoneID.defaultZoneName, try await createZone(zone, owner: owner, in: export) { result.zonesCreated += 1 }
                }
                // What a record points at (its parent, its required references) before it, across
                // writers, so every batch finds what it needs.
                for (writer, ordered) in Self.runs(of: Self.dependenciesFirst(zone.records), database: database) {
                    for start in stride(from: 0, to: ordered.count, by: Self.batchSize) {
                        let chunk = ordered[start..<min(start + Self.batchSize, ordered.count)]
                        let request = ModifyRecordsRequest(
                            operations: chunk.map { RecordOperation(.forceReplace, $0) }, zoneID: zoneID, atomic: false
                        )
                        let scope = RequestScope(
                            database: DatabaseRef(container: export.container, environment: export.environment, scope: database.scope),
                            caller: .user(userRecordName: writer)
                        )
                        let answer = try await self.records.modify(request, scope: scope, logger: logger)
                        result.recordsSaved += answer.records.count { $0.value != nil }
                        result.errors += answer.records.compactMap(\.error)
                    }
                }
            }
        }
        return result
    }

    /// The records in consecutive runs of one writer each: the private database's owner, or in
    /// the public database the account that created the record (its creator keeps the right to
    /// change it).
    private static func runs(of records: [Record], database: DataExport.Database) -> [(String, [Record])] {
        if let owner = database.ownerRecordName, database.scope == .private { return [(owner, records)] }
        var runs: [(String, [Record])] = []
        for record in records {
            let writer = record.created?.userRecordName ?? ServerKeys.developer
            if runs.last?.0 == writer { runs[runs.count - 1].1.append(record) } else { runs.append((writer, [record])) }
        }
        return runs
    }

    /// The records with what each points at in the zone — its parent, its `DELETE_SELF` and
    /// `VALIDATE` targets — ahead of it (what is outside the list ends the chain).
    static func dependenciesFirst(_ records: [Record]) -> [Record] {
        let byName = Dictionary(records.compactMap { record in record.recordName.map { ($0, record) } }) { first, _ in first }
        var placed: Set<String> = []
        var ordered: [Record] = []
        func place(_ record: Record, depth: Int) {
            guard let name = record.recordName, !placed.contains(name) else { return }
            placed.insert(name)
            if depth < 10_000 {
                var needs = (record.fields ?? [:]).referencedNames(actions: [.deleteSelf, .validate])
                if let parent = record.parent?.recordName { needs.insert(parent) }
                for need in needs.sorted() { if let other = byName[need] { place(other, depth: depth + 1) } }
            }
            ordered.append(record)
        }
        for record in records { place(record, depth: 0) }
        return ordered
    }

    private func createZone(_ zone: DataExport.Zone, owner: String, in export: DataExport) async throws(CoreError) -> Bool {
        let key = ZoneKey(
            database: DatabaseKey(container: export.container, environment: export.environment, scope: .private, owner: owner), name: zone.zoneName
        )
        guard NameRules.isValidZoneName(zone.zoneName) else { throw CoreError.badRequest("invalid zone name '\(zone.zoneName)'") }
        do {
            guard try await store.zone(key) == nil else { return false }
            _ = try await store.createZone(key, atomic: zone.atomic)
            return true
        } catch {
            throw CoreError(error)
        }
    }

    // MARK: - Accounts

    /// One account, checked, or every account of the server.
    private func owners(_ userRecordName: String?) async throws(CoreError) -> [String] {
        if let userRecordName {
            guard try await identity.account(userRecordName: userRecordName) != nil else {
                throw CoreError(.notFound, "no account '\(userRecordName)'")
            }
            return [userRecordName]
        }
        return try await identity.accounts(limit: 100_000).map(\.userRecordName)
    }

    private func requireContainer(_ container: String) async throws(CoreError) {
        guard try await identity.containerExists(container) else { throw CoreError(.notFound, "no container '\(container)'") }
    }
}
