import CloudKit
import Foundation
import Testing

/// `CKOperation` is an asynchronous `Operation`, as Apple's: `start()` returns while its request
/// is in flight, it reports `isExecuting` and then `isFinished` (the key-value observing that
/// queues and dependencies wait on), and no thread waits for it.
@Suite struct AsynchronousOperationTests {
    @Test func startReturnsWhileTheRequestIsInFlightAndFinishingIsObserved() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            #expect(try await server.stratus(["faults", "add", "--endpoint", "zones/list", "--latency-ms", "1500"]) == 0)
            let operation = CKFetchRecordZonesOperation.fetchAllRecordZonesOperation()
            operation.database = db
            let answered = Locked(false)
            operation.fetchRecordZonesResultBlock = { _ in answered.update { $0 = true } }
            #expect(operation.isAsynchronous)

            operation.start()
            #expect(operation.isExecuting)
            #expect(!operation.isFinished)
            #expect(!answered.value)

            // Foundation's wait returns once the operation says (by key-value observing) it finished;
            // it blocks, so it runs on a thread of its own, not on Swift concurrency's few.
            await withCheckedContinuation { (waited: CheckedContinuation<Void, Never>) in
                Thread { waitBlocking(for: operation); waited.resume() }.start()
            }
            #expect(answered.value)
            #expect(operation.isFinished)
            #expect(!operation.isExecuting)
        }
    }

    @Test func aDependentOperationStartsOnlyAfterTheOperationItWaitsForAnswered() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Stops")
            let order = Locked<[String]>([])
            let save = CKModifyRecordZonesOperation(recordZonesToSave: [CKRecordZone(zoneID: zoneID)], recordZoneIDsToDelete: nil)
            save.modifyRecordZonesResultBlock = { _ in order.update { $0.append("zone saved") } }
            let fetch = CKFetchRecordZonesOperation(recordZoneIDs: [zoneID])
            fetch.perRecordZoneResultBlock = { _, result in
                order.update { $0.append((try? result.get()) != nil ? "zone fetched" : "zone missing") }
            }
            fetch.addDependency(save)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                fetch.completionBlock = { done.resume() }
                // Added in the wrong order on purpose: the dependency, not the queue, orders them.
                db.add(fetch)
                db.add(save)
            }
            #expect(order.value == ["zone saved", "zone fetched"])
        }
    }

    @Test func anOperationCancelledBeforeItStartsAnswersCancelledAndFinishes() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let operation = CKFetchRecordZonesOperation.fetchAllRecordZonesOperation()
            let outcome = Locked<CKError.Code?>(nil)
            operation.fetchRecordZonesResultBlock = { result in
                if case .failure(let error) = result { outcome.update { $0 = (error as? CKError)?.code } }
            }
            operation.cancel()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.completionBlock = { done.resume() }
                db.add(operation)
            }
            #expect(outcome.value == .operationCancelled)
            #expect(operation.isFinished)
        }
    }
}

/// Foundation's blocking wait, as code outside Swift concurrency calls it.
private func waitBlocking(for operation: Operation) {
    operation.waitUntilFinished()
}
