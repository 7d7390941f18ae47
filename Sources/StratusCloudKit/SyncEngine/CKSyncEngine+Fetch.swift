import Foundation

extension CKSyncEngine {
    /// Fetches database changes, then each changed zone's record changes, page by page. The
    /// delegate's `nextFetchChangesOptions` is asked before each request (Apple: "in between each
    /// server request"), so a zone it prioritizes meanwhile goes next and one it leaves out of
    /// scope stops after the page in hand.
    public func fetchChanges(_ options: FetchChangesOptions = FetchChangesOptions()) async throws {
        try await schedule.runCancellable { try await self.fetchChanges(options, reason: .manual) }
    }

    func fetchChanges(_ asked: FetchChangesOptions, reason: SyncReason) async throws {
        try await gate.run {
            // The account first: a sign-in, switch or sign-out is reported before any sync.
            try await self.checkAccount()
            var options = await self.nextFetchOptions(asked, reason: reason)
            let context = FetchChangesContext(reason: reason, options: options)
            await self.deliver(.willFetchChanges(Event.WillFetchChanges(context: context)))
            do {
                do {
                    try await self.ensureSubscription()
                } catch {
                    // The subscription does not hold the fetch back: it is saved apart, after a
                    // back-off (an automatic engine), or by the next fetch.
                    self.retry(.subscription, afterFailing: error) { engine in await engine.subscribeAutomatically() }
                }
                try await self.fetchDatabaseChanges()
                var finished: Set<CKRecordZone.ID> = []
                while true {
                    options = await self.nextFetchOptions(asked, reason: reason)
                    let unfetched = self.state.update { $0.unfetchedZones.map(\.id) }
                    guard let zoneID = SyncRules.nextZone(unfetched: unfetched, options: options, finished: finished) else { break }
                    try await self.fetchZone(zoneID, asked: asked, reason: reason)
                    finished.insert(zoneID)
                }
            } catch {
                await self.deliver(.didFetchChanges(Event.DidFetchChanges(context: context)))
                throw error
            }
            await self.deliver(.didFetchChanges(Event.DidFetchChanges(context: context)))
        }
    }

    /// The options for the next request: the delegate's answer, or what the app asked for.
    private func nextFetchOptions(_ asked: FetchChangesOptions, reason: SyncReason) async -> FetchChangesOptions {
        guard let delegate = configuration.delegate else { return asked }
        return await delegate.nextFetchChangesOptions(FetchChangesContext(reason: reason, options: asked), syncEngine: self)
    }

    /// The database feed since the state's token: the zones it names are remembered as unfetched
    /// (in the state, so a fetch cut short resumes them), deleted ones reported and forgotten.
    private func fetchDatabaseChanges() async throws {
        while true {
            let token = state.update { $0.databaseToken }.map(CKServerChangeToken.init)
            let page: (modifications: [CKDatabase.DatabaseChange.Modification], deletions: [CKDatabase.DatabaseChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool)
            do {
                page = try await retrying { try await self.connection.databaseChanges(since: token) }
            } catch let error as CKError where SyncRules.verdict(forDatabaseFetch: error, hadToken: token != nil) == .startOver {
                // The server dropped the database's history: read it again from the start.
                state.update { $0.databaseToken = nil }
                continue
            }
            state.update { stored in
                SyncRules.apply(
                    databasePage: page.modifications.map(\.zoneID), deletions: page.deletions.map(\.zoneID), changeToken: page.changeToken.value,
                    to: &stored
                )
            }
            if !page.modifications.isEmpty || !page.deletions.isEmpty {
                await deliver(.fetchedDatabaseChanges(Event.FetchedDatabaseChanges(modifications: page.modifications, deletions: page.deletions)))
            }
            await deliverState()
            if !page.moreComing { return }
        }
    }

    /// One zone's changes, page by page, until the server has no more or the delegate's options
    /// leave the zone out; every `willFetchRecordZoneChanges` gets its `didFetch…`.
    private func fetchZone(_ zoneID: CKRecordZone.ID, asked: FetchChangesOptions, reason: SyncReason) async throws {
        await deliver(.willFetchRecordZoneChanges(Event.WillFetchRecordZoneChanges(zoneID: zoneID)))
        let key = CKSyncEngine.State.Serialization.Zone(zoneID).key
        var firstPage = true
        while true {
            if !firstPage, !(await nextFetchOptions(asked, reason: reason)).scope.contains(zoneID) { break }
            firstPage = false
            let token = state.update { $0.zoneTokens[key] }.map(CKServerChangeToken.init)
            let page: (modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>], deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool)
            do {
                page = try await retrying { try await self.connection.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: self.configuration.simulation.resultsLimit) }
            } catch let error as CKError {
                switch SyncRules.verdict(forZoneFetch: error, hadToken: token != nil) {
                case .startOver:
                    state.update { $0.zoneTokens[key] = nil }
                    await configuration.simulation.zoneChangeTokenExpired?(zoneID)
                    await deliverState()
                    continue
                case .zoneGone(let reason):
                    // The zone went since the feed said: report it as the feed would have, with why.
                    state.update { SyncRules.forget(zoneID, in: &$0) }
                    let deletion = CKDatabase.DatabaseChange.Deletion(zoneID: zoneID, reason: reason)
                    await deliver(.fetchedDatabaseChanges(Event.FetchedDatabaseChanges(modifications: [], deletions: [deletion])))
                    await deliverState()
                    await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: error)))
                    return
                case .fail:
                    await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: error)))
                    throw error
                }
            } catch {
                await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: CKError.wrapping(error))))
                throw error
            }
            // A record that did not arrive (its asset failed to download): one whose asset is gone
            // for good is left out and the zone goes on; one that fetching again may bring keeps
            // the token where it was, so the page is fetched again and nothing is skipped
            // (``SyncRules/verdict(forPage:)``).
            let (modifications, failures) = SyncRules.arrivals(page.modificationResultsByID)
            await deliver(.fetchedRecordZoneChanges(Event.FetchedRecordZoneChanges(modifications: modifications, deletions: page.deletions)))
            if case .keepToken(let error) = SyncRules.verdict(forPage: failures) {
                await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: error)))
                throw error
            }
            state.update { SyncRules.apply(zonePage: page.changeToken.value, moreComing: page.moreComing, of: zoneID, to: &$0) }
            await deliverState()
            if !page.moreComing { break }
        }
        await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: nil)))
    }
}
