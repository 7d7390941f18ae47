import CloudKit
import Foundation
import Testing

/// Long-lived operations: one whose configuration says `isLongLived` is remembered by its
/// container from when it is added (`longLivedOperationWasPersistedBlock`) until it finishes;
/// the container lists the IDs of those still running and hands each back by ID — to any
/// `CKContainer` object of the same container and account, as an app makes them anew — and the
/// app may set its blocks and add it again.
@Suite struct LongLivedOperationTests {
    @Test func aLongLivedOperationIsListedUntilItFinishes() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let record = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "lisbon"))
            record["title"] = "Lisbon"
            let operation = CKModifyRecordsOperation(recordsToSave: [record], recordIDsToDelete: nil)
            operation.configuration.isLongLived = true
            let persisted = Locked(0)
            operation.longLivedOperationWasPersistedBlock = { persisted.update { $0 += 1 } }
            // Held back until the test lets it go, so it is still running when asked about.
            let gate = BlockOperation {}
            operation.addDependency(gate)
            container.privateCloudDatabase.add(operation)
            let id: CKOperation.ID = operation.operationID

            #expect(persisted.value == 1)
            #expect(try await container.allLongLivedOperationIDs() == [id])
            // The app's next CKContainer object for the same container finds it.
            let relaunched = try server.container("alice")
            let fetched = try #require(try await relaunched.longLivedOperation(for: id) as? CKModifyRecordsOperation)
            #expect(fetched === operation)
            #expect(try await relaunched.longLivedOperation(for: "no-such-operation") == nil)
            let listed = await withCheckedContinuation { (done: CheckedContinuation<[CKOperation.ID]?, Never>) in
                relaunched.fetchAllLongLivedOperationIDs { ids, _ in done.resume(returning: ids) }
            }
            #expect(listed == [id])
            // Bob's container does not list Alice's operations.
            #expect(try await server.container("bob").allLongLivedOperationIDs().isEmpty)

            // The app sets its blocks on the operation it fetched and adds it again: it runs once.
            let results = Locked(0)
            let queue = OperationQueue()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                fetched.modifyRecordsResultBlock = { _ in results.update { $0 += 1 } }
                fetched.completionBlock = { done.resume() }
                relaunched.privateCloudDatabase.add(fetched)
                queue.addOperation(gate)
            }
            withExtendedLifetime(queue) {}
            #expect(results.value == 1)
            #expect(persisted.value == 1)
            #expect(try await container.allLongLivedOperationIDs().isEmpty)
            #expect(try await container.longLivedOperation(for: id) == nil)
            let gone = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                container.fetchLongLivedOperation(withID: id) { operation, error in done.resume(returning: operation == nil && error == nil) }
            }
            #expect(gone)
            #expect(try await container.privateCloudDatabase.record(for: record.recordID)["title"] as? String == "Lisbon")
        }
    }

    @Test func anOperationThatIsNotLongLivedIsNotListed() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let operation = CKFetchRecordZonesOperation.fetchAllRecordZonesOperation()
            let persisted = Locked(false)
            operation.longLivedOperationWasPersistedBlock = { persisted.update { $0 = true } }
            let gate = BlockOperation {}
            operation.addDependency(gate)
            container.privateCloudDatabase.add(operation)
            #expect(try await container.allLongLivedOperationIDs().isEmpty)
            #expect(!persisted.value)
            let queue = OperationQueue()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.completionBlock = { done.resume() }
                queue.addOperation(gate)
            }
            withExtendedLifetime(queue) {}
            #expect(try await container.allLongLivedOperationIDs().isEmpty)
        }
    }
}
