import Foundation

extension CKSyncEngine {
    /// Sends pending zone changes, then record changes in the batches the delegate provides.
    /// A change leaves the queue once the server answered for it: saved, deleted, or refused for
    /// good (reported in `sentRecordZoneChanges`; the delegate adds it again to retry). A
    /// transient failure keeps it pending, sent again on a later send (after its `retryAfter`).
    /// - Throws: after reporting everything: the first request that failed, else a
    ///   `partialFailure` of the refused items.
    public func sendChanges(_ options: SendChangesOptions = SendChangesOptions()) async throws {
        try await sendChanges(options, reason: .manual)
    }

    func sendChanges(_ options: SendChangesOptions, reason: SyncReason) async throws {
        try await gate.run {
            let hasWork =
                self.state.pendingRecordZoneChanges.contains(where: options.scope.contains)
                || self.state.pendingDatabaseChanges.contains(where: options.scope.contains) || self.state.hasPendingUntrackedChanges
            guard hasWork else { return }
            // Another account's changes are never sent: the account is known before a send.
            if !self.accountChecked.isSet {
                try await self.checkAccount()
                guard self.state.pendingRecordZoneChanges.contains(where: options.scope.contains)
                    || self.state.pendingDatabaseChanges.contains(where: options.scope.contains) || self.state.hasPendingUntrackedChanges
                else { return }
            }
            let context = SendChangesContext(reason: reason, options: options)
            await self.deliver(.willSendChanges(Event.WillSendChanges(context: context)))
            var pass = SendPass()
            do {
                try await self.sendDatabaseChanges(options, pass: &pass)
                while let batch = await self.nextBatch(context, pass: &pass) {
                    try await self.send(batch, pass: &pass)
                }
            } catch {
                await self.deliver(.didSendChanges(Event.DidSendChanges(context: context)))
                throw error
            }
            await self.deliver(.didSendChanges(Event.DidSendChanges(context: context)))
            if let retryAfter = pass.retryAfter { self.scheduleSend(after: retryAfter) }
            if let failure = pass.requestFailure { throw failure }
            if let failure = CKError.partialFailure(pass.itemFailures, of: pass.attempted.count) { throw failure }
        }
    }

    /// Whether a refused change stays pending though not retried on its own: a full account
    /// (`quotaExceeded`) never drops the user's edit; the next send after room is made takes it.
    static func keepsPending(_ error: CKError) -> Bool { error.code == .quotaExceeded }

    /// Whether a change refused with `error` is sent again by the engine itself — what Apple's
    /// engine retries: the network, an unavailable service, rate limits, a busy zone, and a
    /// request refused for its credentials or cancelled; and any item the server did not answer
    /// (its zone's request failed as a whole, in a send spanning zones, a 5xx included). It stays
    /// pending, for a later send.
    static func retriesItself(_ error: CKError) -> Bool {
        if error.isUnanswered { return true }
        return switch error.code {
        case .notAuthenticated, .accountTemporarilyUnavailable, .operationCancelled: true
        default: SyncRetry.isTransient(error)
        }
    }

    /// What one send keeps track of.
    struct SendPass {
        /// Changes already sent in this pass (a second batch holding only these ends it), with
        /// their sequence when they were sent.
        var attempted: [PendingRecordZoneChange: Int] = [:]
        var requestFailure: CKError?
        var itemFailures: [AnyHashable: any Error] = [:]
        /// The longest wait a transient failure asked for (then a send is scheduled).
        var retryAfter: Double?

        mutating func transient(after seconds: Double) {
            retryAfter = max(retryAfter ?? 0, seconds)
        }
    }

    /// The delegate's next batch, without the changes this pass already sent.
    private func nextBatch(_ context: SendChangesContext, pass: inout SendPass) async -> RecordZoneChangeBatch? {
        guard pass.requestFailure == nil, let delegate = configuration.delegate,
            var batch = await delegate.nextRecordZoneChangeBatch(context, syncEngine: self)
        else { return nil }
        let waiting = state.update { $0.held(at: Date()) }
        batch.recordsToSave.removeAll { pass.attempted[.saveRecord($0.recordID)] != nil || waiting.contains(.saveRecord($0.recordID)) }
        batch.recordIDsToDelete.removeAll { pass.attempted[.deleteRecord($0)] != nil || waiting.contains(.deleteRecord($0)) }
        guard !batch.recordsToSave.isEmpty || !batch.recordIDsToDelete.isEmpty else { return nil }
        let changes: [PendingRecordZoneChange] = batch.recordsToSave.map { .saveRecord($0.recordID) } + batch.recordIDsToDelete.map { .deleteRecord($0) }
        state.update { stored in
            for change in changes { pass.attempted[change] = stored.sequence(of: change) ?? 0 }
        }
        return batch
    }

    /// Sends one batch (halved while the server finds it too large) and reports its answers.
    private func send(_ batch: RecordZoneChangeBatch, pass: inout SendPass) async throws {
        let answer: (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>])
        do {
            answer = try await retrying {
                try await self.database.modifyRecords(
                    saving: batch.recordsToSave, deleting: batch.recordIDsToDelete, savePolicy: .ifServerRecordUnchanged, atomically: batch.atomicByZone
                )
            }
        } catch let error as CKError where error.code == .limitExceeded && batch.recordsToSave.count + batch.recordIDsToDelete.count > 1
            && !batch.atomicByZone
        {
            for half in batch.halves() { try await send(half, pass: &pass) }
            return
        } catch let error as CKError where error.code == .limitExceeded {
            // Too large to send as asked (an atomic batch is never split: halves would commit
            // apart): each change fails with limitExceeded, for the delegate to batch smaller.
            let answer = (
                saveResults: Dictionary(batch.recordsToSave.map { ($0.recordID, Result<CKRecord, any Error>.failure(error)) }, uniquingKeysWith: { $1 }),
                deleteResults: Dictionary(batch.recordIDsToDelete.map { ($0, Result<Void, any Error>.failure(error)) }, uniquingKeysWith: { $1 })
            )
            await report(batch, answer, pass: &pass)
            return
        } catch let error as CKError {
            // Nothing was answered for these: they stay pending for a later send.
            if pass.requestFailure == nil { pass.requestFailure = error }
            if SyncRetry.isTransient(error) { pass.transient(after: retryDelay(error)) }
            return
        }
        await report(batch, answer, pass: &pass)
    }

    /// Reports a batch's answers: saved and deleted changes leave the queue, a failure the engine
    /// retries itself (``retriesItself(_:)``) or a full account stays pending, any other failure
    /// leaves it and goes to the delegate.
    private func report(
        _ batch: RecordZoneChangeBatch,
        _ answer: (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]),
        pass: inout SendPass
    ) async {
        var saved: [CKRecord] = []
        var failedSaves: [Event.SentRecordZoneChanges.FailedRecordSave] = []
        var deleted: [CKRecord.ID] = []
        var failedDeletes: [CKRecord.ID: CKError] = [:]
        var answered: [PendingRecordZoneChange] = []
        for record in batch.recordsToSave {
            switch answer.saveResults[record.recordID] {
            case .success(let server)?:
                saved.append(server)
                answered.append(.saveRecord(record.recordID))
            case .failure(let failure)?:
                let error = failure as? CKError ?? CKError(.internalError, "\(failure)")
                failedSaves.append(.init(record: record, error: error))
                pass.itemFailures[record.recordID] = error
                if Self.retriesItself(error) {
                    // Held back until its retry time only when the server asked to wait.
                    if SyncRetry.isTransient(error) {
                        pass.transient(after: retryDelay(error))
                        let until = Date().addingTimeInterval(retryDelay(error))
                        state.update { $0.hold(.saveRecord(record.recordID), until: until) }
                    }
                } else if !Self.keepsPending(error) {
                    answered.append(.saveRecord(record.recordID))
                }
            case nil: break
            }
        }
        for id in batch.recordIDsToDelete {
            switch answer.deleteResults[id] {
            case .success?:
                deleted.append(id)
                answered.append(.deleteRecord(id))
            case .failure(let failure)?:
                let error = failure as? CKError ?? CKError(.internalError, "\(failure)")
                failedDeletes[id] = error
                pass.itemFailures[id] = error
                if Self.retriesItself(error) {
                    // Held back until its retry time only when the server asked to wait.
                    if SyncRetry.isTransient(error) {
                        pass.transient(after: retryDelay(error))
                        let until = Date().addingTimeInterval(retryDelay(error))
                        state.update { $0.hold(.deleteRecord(id), until: until) }
                    }
                } else if !Self.keepsPending(error) {
                    answered.append(.deleteRecord(id))
                }
            case nil: break
            }
        }
        var sent: [PendingRecordZoneChange: Int] = [:]
        for change in answered { sent[change] = pass.attempted[change] }
        state.update { $0.remove(answered: sent) }
        await deliver(.sentRecordZoneChanges(Event.SentRecordZoneChanges(
            savedRecords: saved, failedRecordSaves: failedSaves, deletedRecordIDs: deleted, failedRecordDeletes: failedDeletes
        )))
        await deliverState()
    }

    /// Sends the pending zone saves and deletes in scope, in one request.
    private func sendDatabaseChanges(_ options: SendChangesOptions, pass: inout SendPass) async throws {
        let changes = state.pendingDatabaseChanges.filter(options.scope.contains)
        guard !changes.isEmpty else { return }
        let saving = changes.compactMap { if case .saveZone(let zone) = $0 { zone } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let id) = $0 { id } else { nil } }
        let answer: (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>])
        do {
            answer = try await retrying { try await self.database.modifyRecordZones(saving: saving, deleting: deleting) }
        } catch let error as CKError {
            if pass.requestFailure == nil { pass.requestFailure = error }
            if SyncRetry.isTransient(error) { pass.transient(after: retryDelay(error)) }
            return
        }
        var saved: [CKRecordZone] = []
        var failedSaves: [Event.SentDatabaseChanges.FailedZoneSave] = []
        var deleted: [CKRecordZone.ID] = []
        var failedDeletes: [CKRecordZone.ID: CKError] = [:]
        for zone in saving {
            switch answer.saveResults[zone.zoneID] {
            case .success(let server)?: saved.append(server)
            case .failure(let failure)?:
                let error = failure as? CKError ?? CKError(.internalError, "\(failure)")
                failedSaves.append(.init(zone: zone, error: error))
                pass.itemFailures[zone.zoneID] = error
            case nil: break
            }
        }
        for id in deleting {
            switch answer.deleteResults[id] {
            case .success?: deleted.append(id)
            case .failure(let failure)?:
                let error = failure as? CKError ?? CKError(.internalError, "\(failure)")
                failedDeletes[id] = error
                pass.itemFailures[id] = error
            case nil: break
            }
        }
        // Answered changes leave the queue (the delegate adds a refused one again to retry); a
        // transient refusal or a full account keeps the change pending.
        let kept = Set(failedSaves.filter { Self.retriesItself($0.error) || Self.keepsPending($0.error) }.map(\.zone.zoneID))
            .union(failedDeletes.filter { Self.retriesItself($0.value) || Self.keepsPending($0.value) }.map(\.key))
        for error in failedSaves.map(\.error) + Array(failedDeletes.values) where SyncRetry.isTransient(error) { pass.transient(after: retryDelay(error)) }
        let answered = Set(changes.filter { !kept.contains($0.zoneID) }.map(CKSyncEngine.State.Serialization.PendingZone.init))
        state.update { $0.zones.removeAll { answered.contains($0) } }
        await deliver(.sentDatabaseChanges(Event.SentDatabaseChanges(
            savedZones: saved, failedZoneSaves: failedSaves, deletedZoneIDs: deleted, failedZoneDeletes: failedDeletes
        )))
        await deliverState()
    }
}

extension CKSyncEngine.RecordZoneChangeBatch {
    /// The batch in two (saves first, then deletes), for a request the server found too large.
    func halves() -> [Self] {
        let items: [Either] = recordsToSave.map(Either.save) + recordIDsToDelete.map(Either.delete)
        let middle = items.count / 2
        return [items[..<middle], items[middle...]].map { part in
            Self(
                recordsToSave: part.compactMap { if case .save(let record) = $0 { record } else { nil } },
                recordIDsToDelete: part.compactMap { if case .delete(let id) = $0 { id } else { nil } }, atomicByZone: atomicByZone
            )
        }
    }

    private enum Either {
        case save(CKRecord)
        case delete(CKRecord.ID)
    }
}
