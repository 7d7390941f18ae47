import Foundation

extension CKSyncEngine {
    /// Sends pending zone changes, then record changes in the batches the delegate provides.
    /// A change leaves the queue once the server answered for it: saved, deleted, or refused for
    /// good (`quotaExceeded` included; reported once in `sentRecordZoneChanges`, the delegate
    /// adds it again to retry). What the engine retries itself, and anything a failed request
    /// left unanswered, stays pending for a later send (after its `retryAfter`): the rules are
    /// ``SyncRules``'.
    /// - Throws: after reporting everything: the first request that failed, else a
    ///   `partialFailure` of the refused items.
    public func sendChanges(_ options: SendChangesOptions = SendChangesOptions()) async throws {
        try await schedule.runCancellable { try await self.sendChanges(options, reason: .manual) }
    }

    func sendChanges(_ options: SendChangesOptions, reason: SyncReason) async throws {
        try await gate.run {
            let hasWork =
                self.state.pendingRecordZoneChanges.contains(where: options.scope.contains)
                || self.state.pendingDatabaseChanges.contains(where: options.scope.contains) || self.state.hasPendingUntrackedChanges
            guard hasWork else { return }
            // Another account's changes are never sent: the account is known before a send.
            if !self.accountChecked.isSet {
                do {
                    try await self.checkAccount()
                } catch {
                    // The send could not begin (no network, no account yet): its changes wait.
                    self.sendEnded(keptPending: true)
                    throw error
                }
                guard self.state.pendingRecordZoneChanges.contains(where: options.scope.contains)
                    || self.state.pendingDatabaseChanges.contains(where: options.scope.contains) || self.state.hasPendingUntrackedChanges
                else { return }
            }
            let context = SendChangesContext(reason: reason, options: options)
            await self.deliver(.willSendChanges(Event.WillSendChanges(context: context)))
            var pass = SendPass()
            do {
                try await self.runSteps(options, context: context, pass: &pass)
            } catch {
                await self.deliver(.didSendChanges(Event.DidSendChanges(context: context)))
                self.sendEnded(keptPending: true)
                throw error
            }
            await self.deliver(.didSendChanges(Event.DidSendChanges(context: context)))
            if let retryAt = pass.retryAt { self.scheduleSend(after: retryAt.timeIntervalSince(self.now)) }
            self.sendEnded(keptPending: pass.keptPending)
            if let failure = pass.requestFailure { throw failure }
            if let failure = CKError.partialFailure(pass.itemFailures, of: pass.attempted.count) { throw failure }
        }
    }

    /// Runs a send's steps (``SyncRules/nextSendStep(pendingZones:scope:sentZones:batchesDone:requestFailed:)``):
    /// zone changes first — those added meanwhile before the next batch — then the delegate's
    /// batches, each cut into requests the server takes (``SyncRules/requests(for:limit:)``).
    private func runSteps(_ options: SendChangesOptions, context: SendChangesContext, pass: inout SendPass) async throws {
        var batchesDone = false
        while true {
            let step = SyncRules.nextSendStep(
                pendingZones: state.pendingDatabaseChanges, scope: options.scope, sentZones: pass.sentZones, batchesDone: batchesDone,
                requestFailed: pass.requestFailure != nil
            )
            switch step {
            case .sendZones(let changes):
                pass.sentZones.formUnion(changes)
                for request in SyncRules.zoneRequests(changes) {
                    guard pass.requestFailure == nil else { break }
                    try await sendZoneChanges(request, pass: &pass)
                }
            case .askForBatch:
                guard let batch = await nextBatch(context, pass: &pass) else {
                    batchesDone = true
                    continue
                }
                for request in SyncRules.requests(for: batch) {
                    guard pass.requestFailure == nil else { break }
                    try await send(request, pass: &pass)
                }
            case .end:
                return
            }
        }
    }

    /// What one send keeps track of.
    struct SendPass {
        /// Changes already sent in this pass (a second batch holding only these ends it), with
        /// their sequence when they were sent.
        var attempted: [PendingRecordZoneChange: Int] = [:]
        /// Zone changes already sent in this pass (one kept pending is not sent again in it).
        var sentZones: Set<PendingDatabaseChange> = []
        var requestFailure: CKError?
        var itemFailures: [AnyHashable: any Error] = [:]
        /// The latest time a transient failure asked to wait until (then a send is scheduled).
        var retryAt: Date?
        /// Whether a change stayed pending for a reason no retry time covers (then an automatic
        /// engine sends again after a back-off).
        var keptPending = false

        mutating func retry(at date: Date) {
            retryAt = max(retryAt ?? date, date)
        }

        /// Notes a request that failed as a whole (the first one is what the send throws).
        mutating func failed(_ error: CKError, retryAt: Date?) {
            if requestFailure == nil { requestFailure = error }
            if let retryAt { retry(at: retryAt) } else { keptPending = true }
        }
    }

    /// The delegate's next batch, without the changes this pass already sent.
    private func nextBatch(_ context: SendChangesContext, pass: inout SendPass) async -> RecordZoneChangeBatch? {
        // What the app adds while the delegate builds the batch may not be what the batch holds:
        // it stays pending whatever the answer (``Serialization/sequences(of:addedBefore:)``).
        let mark = state.update { $0.sequenceMark }
        guard pass.requestFailure == nil, let delegate = configuration.delegate,
            var batch = await delegate.nextRecordZoneChangeBatch(context, syncEngine: self)
        else { return nil }
        let held = state.update { $0.held(at: now) }
        guard let unsent = SyncRules.unsent(batch, attempted: Set(pass.attempted.keys), held: held) else { return nil }
        batch = unsent
        let changes: [PendingRecordZoneChange] = batch.recordsToSave.map { .saveRecord($0.recordID) } + batch.recordIDsToDelete.map { .deleteRecord($0) }
        let sequences = state.update { $0.sequences(of: changes, addedBefore: mark) }
        for change in changes { pass.attempted[change] = sequences[change] ?? 0 }
        return batch
    }

    /// Sends one batch (halved while the server finds it too large) and reports its answers;
    /// changes a modify left unanswered because a later zone's request was too large are sent
    /// again at once, smaller.
    private func send(_ batch: RecordZoneChangeBatch, pass: inout SendPass) async throws {
        let answer: ModifyAnswer
        do {
            answer = try await retrying {
                try await self.connection.modifyRecords(
                    saving: batch.recordsToSave, deleting: batch.recordIDsToDelete, savePolicy: .ifServerRecordUnchanged, atomically: batch.atomicByZone
                )
            }
        } catch let error as CKError {
            switch SyncRules.verdict(forRequest: error, splittable: SyncRules.canSplit(batch), now: self.now) {
            case .split:
                for half in SyncRules.halves(of: batch) { try await send(half, pass: &pass) }
            case .refuseEach:
                let answer = (
                    saveResults: Dictionary(batch.recordsToSave.map { ($0.recordID, Result<CKRecord, any Error>.failure(error)) }, uniquingKeysWith: { $1 }),
                    deleteResults: Dictionary(batch.recordIDsToDelete.map { ($0, Result<Void, any Error>.failure(error)) }, uniquingKeysWith: { $1 })
                )
                await report(batch, answer, refusedTogether: SyncRules.refusedTogether(batch), pass: &pass)
            case .keptPending(let retryAt, let checkAccount):
                // Nothing was answered for these: they stay pending for a later send.
                pass.failed(error, retryAt: retryAt)
                if checkAccount { accountChecked.clear() }
            }
            return
        }
        let (answered, rest) = SyncRules.partition(
            batch, saveFailures: answer.saveResults.compactMapValues { $0.refusal.map(CKError.wrapping) },
            deleteFailures: answer.deleteResults.compactMapValues { $0.refusal.map(CKError.wrapping) }, now: self.now
        )
        if !answered.recordsToSave.isEmpty || !answered.recordIDsToDelete.isEmpty { await report(answered, answer, pass: &pass) }
        let left = rest.recordsToSave.count + rest.recordIDsToDelete.count
        guard left > 0 else { return }
        // Smaller than the batch (a zone before them was answered), so this ends.
        if left < batch.recordsToSave.count + batch.recordIDsToDelete.count {
            try await send(rest, pass: &pass)
        } else {
            pass.keptPending = true
        }
    }

    /// What a modify answers, by record.
    private typealias ModifyAnswer = (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>])

    /// Reports a batch's answers: each change's ``SyncRules/verdict(forChange:refusedTogether:now:)``
    /// says whether it leaves the queue, stays pending, is held back until its retry time, or is
    /// set aside until the app adds it again; `refusedTogether`: every answer is the refusal of
    /// the request that carried them all.
    private func report(
        _ batch: RecordZoneChangeBatch,
        _ answer: (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]),
        refusedTogether: Bool = false, pass: inout SendPass
    ) async {
        var saved: [CKRecord] = []
        var failedSaves: [Event.SentRecordZoneChanges.FailedRecordSave] = []
        var deleted: [CKRecord.ID] = []
        var failedDeletes: [CKRecord.ID: CKError] = [:]
        var answered: [PendingRecordZoneChange: Int] = [:]
        let now = self.now
        /// Applies the verdict on one change's answer (`nil`: taken).
        func settle(_ change: PendingRecordZoneChange, _ error: CKError?) {
            if let error { pass.itemFailures[change.recordID] = error }
            switch SyncRules.verdict(forChange: error, refusedTogether: refusedTogether, now: now) {
            case .answered: answered[change] = pass.attempted[change]
            case .keptPending, .sentAgainSmaller: pass.keptPending = true
            case .heldUntil(let date):
                pass.retry(at: date)
                state.update { $0.hold(change, until: date) }
            case .setAside: state.update { $0.setAside(change, sent: pass.attempted[change]) }
            }
        }
        let saves = SyncRules.answers(to: batch.recordsToSave, by: \.recordID, in: answer.saveResults)
        for (record, server) in saves.taken {
            saved.append(server)
            settle(.saveRecord(record.recordID), nil)
        }
        for (record, error) in saves.refused {
            failedSaves.append(.init(record: record, error: error))
            settle(.saveRecord(record.recordID), error)
        }
        let deletes = SyncRules.answers(to: batch.recordIDsToDelete, by: { $0 }, in: answer.deleteResults)
        for (id, _) in deletes.taken {
            deleted.append(id)
            settle(.deleteRecord(id), nil)
        }
        for (id, error) in deletes.refused {
            failedDeletes[id] = error
            settle(.deleteRecord(id), error)
        }
        state.update { $0.remove(answered: answered) }
        await deliver(.sentRecordZoneChanges(Event.SentRecordZoneChanges(
            savedRecords: saved, failedRecordSaves: failedSaves, deletedRecordIDs: deleted, failedRecordDeletes: failedDeletes
        )))
        await deliverState()
    }

    /// Sends zone saves and deletes in one request (halved while the server finds it too large);
    /// each zone change's verdict is a record change's (a zone change is never held, only sent
    /// again later).
    private func sendZoneChanges(_ changes: [PendingDatabaseChange], pass: inout SendPass) async throws {
        guard !changes.isEmpty else { return }
        let saving = changes.compactMap { if case .saveZone(let zone) = $0 { zone } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let id) = $0 { id } else { nil } }
        let answer: (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>])
        do {
            answer = try await retrying { try await self.connection.modifyRecordZones(saving: saving, deleting: deleting) }
        } catch let error as CKError {
            switch SyncRules.verdict(forRequest: error, splittable: changes.count > 1, now: self.now) {
            case .split:
                for half in SyncRules.halves(of: changes) { try await sendZoneChanges(half, pass: &pass) }
                return
            case .refuseEach:
                answer = (
                    saveResults: Dictionary(saving.map { ($0.zoneID, Result<CKRecordZone, any Error>.failure(error)) }, uniquingKeysWith: { $1 }),
                    deleteResults: Dictionary(deleting.map { ($0, Result<Void, any Error>.failure(error)) }, uniquingKeysWith: { $1 })
                )
            case .keptPending(let retryAt, let checkAccount):
                // Nothing was answered for these: they stay pending for a later send.
                pass.failed(error, retryAt: retryAt)
                if checkAccount { accountChecked.clear() }
                return
            }
        }
        var saved: [CKRecordZone] = []
        var failedSaves: [Event.SentDatabaseChanges.FailedZoneSave] = []
        var deleted: [CKRecordZone.ID] = []
        var failedDeletes: [CKRecordZone.ID: CKError] = [:]
        var answered: Set<CKSyncEngine.State.Serialization.PendingZone> = []
        let now = self.now
        /// Applies the verdict on one zone change's answer (`nil`: taken).
        func settle(_ change: PendingDatabaseChange, _ error: CKError?) {
            if let error { pass.itemFailures[change.zoneID] = error }
            switch SyncRules.verdict(forZoneChange: error, now: now) {
            case .answered: answered.insert(CKSyncEngine.State.Serialization.PendingZone(change))
            case .keptPending, .sentAgainSmaller, .setAside: pass.keptPending = true
            case .heldUntil(let date): pass.retry(at: date)
            }
        }
        let saves = SyncRules.answers(to: saving, by: \.zoneID, in: answer.saveResults)
        for (zone, server) in saves.taken {
            saved.append(server)
            settle(.saveZone(zone), nil)
        }
        for (zone, error) in saves.refused {
            failedSaves.append(.init(zone: zone, error: error))
            settle(.saveZone(zone), error)
        }
        let deletes = SyncRules.answers(to: deleting, by: { $0 }, in: answer.deleteResults)
        for (id, _) in deletes.taken {
            deleted.append(id)
            settle(.deleteZone(id), nil)
        }
        for (id, error) in deletes.refused {
            failedDeletes[id] = error
            settle(.deleteZone(id), error)
        }
        state.update { $0.zones.removeAll { answered.contains($0) } }
        await deliver(.sentDatabaseChanges(Event.SentDatabaseChanges(
            savedZones: saved, failedZoneSaves: failedSaves, deletedZoneIDs: deleted, failedZoneDeletes: failedDeletes
        )))
        await deliverState()
    }
}

extension Result {
    /// The error, for a failure.
    fileprivate var refusal: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
