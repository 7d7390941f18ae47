import CloudKit
import Foundation
import Testing

/// Operations call their blocks in Apple's order: every per-item block, then the result block,
/// then `Operation.completionBlock`; a query's result block carries the cursor of the next page;
/// an operation cancelled before it starts reports `operationCancelled`.
@Suite struct OperationCallbackOrderTests {
    @Test func modifyRecordsCallsEveryPerRecordBlockThenTheResultBlockThenCompletionBlock() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Stops")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = (1...3).map { index in
                let record = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "stop-\(index)", zoneID: zoneID))
                record["order"] = index
                return record
            }
            let operation = CKModifyRecordsOperation(recordsToSave: records, recordIDsToDelete: nil)
            let events = EventLog()
            operation.perRecordSaveBlock = { id, result in
                events.append((try? result.get()) != nil ? "saved \(id.recordName)" : "failed \(id.recordName)")
            }
            operation.modifyRecordsResultBlock = { result in
                events.append((try? result.get()) != nil ? "result success" : "result failure")
            }
            await run(operation, on: db, logging: events)

            let log = events.all
            #expect(log.count == 5)
            #expect(Set(log.prefix(3)) == ["saved stop-1", "saved stop-2", "saved stop-3"])
            #expect(Array(log.suffix(2)) == ["result success", "completion"])
        }
    }

    @Test func queryOperationCallsRecordMatchedBlocksThenTheResultBlockWithACursor() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Stops")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = (1...5).map { index in
                let record = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "stop-\(index)", zoneID: zoneID))
                record["order"] = index
                return record
            }
            _ = try await db.modifyRecords(saving: records, deleting: [])
            let query = CKQuery(recordType: "Stop", predicate: NSPredicate(value: true))
            query.sortDescriptors = [NSSortDescriptor(key: "order", ascending: true)]

            let first = CKQueryOperation(query: query)
            first.zoneID = zoneID
            first.resultsLimit = 2
            let (firstLog, firstCursor) = await runQuery(first, on: db)
            #expect(firstLog == ["matched stop-1", "matched stop-2", "result with cursor", "completion"])
            let cursor = try #require(firstCursor)

            let second = CKQueryOperation(cursor: cursor)
            second.resultsLimit = 2
            let (secondLog, secondCursor) = await runQuery(second, on: db)
            #expect(secondLog == ["matched stop-3", "matched stop-4", "result with cursor", "completion"])

            let third = CKQueryOperation(cursor: try #require(secondCursor))
            third.resultsLimit = 2
            let (thirdLog, thirdCursor) = await runQuery(third, on: db)
            #expect(thirdLog == ["matched stop-5", "result without cursor", "completion"])
            #expect(thirdCursor == nil)
        }
    }

    /// Unsure the module supports it: Foundation's `Operation.start()` skips `main()` for an
    /// operation cancelled before it starts, so a module that checks cancellation only in `main()`
    /// never calls the result block.
    @Test func anOperationCancelledBeforeItStartsReportsOperationCancelled() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let record = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "never"))
            let operation = CKModifyRecordsOperation(recordsToSave: [record], recordIDsToDelete: nil)
            let events = EventLog()
            operation.perRecordSaveBlock = { id, _ in events.append("per-record \(id.recordName)") }
            operation.modifyRecordsResultBlock = { result in
                switch result {
                case .success: events.append("result success")
                case .failure(let error): events.append((error as? CKError)?.code == .operationCancelled ? "result operationCancelled" : "result \(error)")
                }
            }
            operation.cancel()
            await run(operation, on: db, logging: events)

            #expect(events.all == ["result operationCancelled", "completion"])
            let missing = try await #require(throws: CKError.self) { try await db.record(for: record.recordID) }
            #expect(missing.code == .unknownItem, "a cancelled operation saves nothing")
        }
    }
}

/// Events appended from the threads operations call their blocks on.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func append(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}

/// The cursor a query operation's result block handed over.
private final class CursorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: CKQueryOperation.Cursor?
    func set(_ cursor: CKQueryOperation.Cursor?) { lock.withLock { stored = cursor } }
    var cursor: CKQueryOperation.Cursor? { lock.withLock { stored } }
}

/// Adds `operation` to `db` and returns once its `completionBlock` ran (logged as "completion").
private func run(_ operation: CKDatabaseOperation, on db: CKDatabase, logging events: EventLog) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        operation.completionBlock = {
            events.append("completion")
            done.resume()
        }
        db.add(operation)
    }
}

/// Runs a query operation, logging each matched record, the result (with or without a cursor)
/// and the completion; answers the log and the cursor.
private func runQuery(_ operation: CKQueryOperation, on db: CKDatabase) async -> ([String], CKQueryOperation.Cursor?) {
    let events = EventLog()
    let box = CursorBox()
    operation.recordMatchedBlock = { id, result in
        events.append((try? result.get()) != nil ? "matched \(id.recordName)" : "failed \(id.recordName)")
    }
    operation.queryResultBlock = { result in
        switch result {
        case .success(let cursor):
            box.set(cursor)
            events.append(cursor == nil ? "result without cursor" : "result with cursor")
        case .failure(let error):
            events.append("result \(error)")
        }
    }
    await run(operation, on: db, logging: events)
    return (events.all, box.cursor)
}
