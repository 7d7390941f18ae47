import Foundation

/// The completion-handler forms of the database's calls, as apps written before async/await
/// call them. Each runs its async counterpart in a `Task` and calls the handler once, from
/// that task, with the answer or the error.
extension CKDatabase {
    // MARK: - Records

    /// Fetches the record with this ID.
    public func fetch(withRecordID recordID: CKRecord.ID, completionHandler: @escaping @Sendable (CKRecord?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await record(for: recordID), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Saves a record (if the server's is unchanged since it was fetched).
    public func save(_ record: CKRecord, completionHandler: @escaping @Sendable (CKRecord?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await save(record), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Deletes the record with this ID.
    public func delete(withRecordID recordID: CKRecord.ID, completionHandler: @escaping @Sendable (CKRecord.ID?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await deleteRecord(withID: recordID), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Every record matching a query, following its cursors to the last page. Records that
    /// matched but could not be read are left out, and the error is then a `partialFailure`
    /// keyed by their IDs (the records read are answered with it).
    public func perform(
        _ query: CKQuery, inZoneWith zoneID: CKRecordZone.ID?, completionHandler: @escaping @Sendable ([CKRecord]?, (any Error)?) -> Void
    ) {
        Task {
            do {
                var found: [CKRecord] = []
                var failures: [AnyHashable: any Error] = [:]
                var page = try await records(matching: query, inZoneWith: zoneID)
                while true {
                    for (id, result) in page.matchResults {
                        switch result {
                        case .success(let record): found.append(record)
                        case .failure(let error): failures[id] = error
                        }
                    }
                    guard let cursor = page.queryCursor else { break }
                    page = try await records(continuingMatchFrom: cursor)
                }
                let error = CKError.partialFailure(failures, of: found.count + failures.count)
                completionHandler(found, error)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// Fetches the records with these IDs: each record or its error, or the request's error.
    public func fetch(
        withRecordIDs recordIDs: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil,
        completionHandler: @escaping @Sendable (Result<[CKRecord.ID: Result<CKRecord, any Error>], any Error>) -> Void
    ) {
        Task {
            do { completionHandler(.success(try await records(for: recordIDs, desiredKeys: desiredKeys))) } catch { completionHandler(.failure(error)) }
        }
    }

    /// Saves and deletes records: each save's and delete's result, or the request's error.
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true,
        completionHandler: @escaping @Sendable (
            Result<(saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]), any Error>
        ) -> Void
    ) {
        Task {
            do {
                let results = try await modifyRecords(saving: recordsToSave, deleting: recordIDsToDelete, savePolicy: savePolicy, atomically: atomically)
                completionHandler(.success(results))
            } catch {
                completionHandler(.failure(error))
            }
        }
    }

    // MARK: - Zones

    /// Fetches every zone of the database.
    public func fetchAllRecordZones(completionHandler: @escaping @Sendable ([CKRecordZone]?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await allRecordZones(), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Fetches the zone with this ID.
    public func fetch(withRecordZoneID zoneID: CKRecordZone.ID, completionHandler: @escaping @Sendable (CKRecordZone?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await recordZone(for: zoneID), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Saves a zone (creating it).
    public func save(_ zone: CKRecordZone, completionHandler: @escaping @Sendable (CKRecordZone?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await save(zone), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Deletes the zone with this ID and every record in it.
    public func delete(withRecordZoneID zoneID: CKRecordZone.ID, completionHandler: @escaping @Sendable (CKRecordZone.ID?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await deleteRecordZone(withID: zoneID), nil) } catch { completionHandler(nil, error) }
        }
    }

    // MARK: - Subscriptions

    /// Fetches every subscription of the caller in the database.
    public func fetchAllSubscriptions(completionHandler: @escaping @Sendable ([CKSubscription]?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await allSubscriptions(), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Fetches the subscription with this ID.
    public func fetch(withSubscriptionID subscriptionID: CKSubscription.ID, completionHandler: @escaping @Sendable (CKSubscription?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await subscription(for: subscriptionID), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Saves a subscription (creating or replacing it).
    public func save(_ subscription: CKSubscription, completionHandler: @escaping @Sendable (CKSubscription?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await save(subscription), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Deletes the subscription with this ID.
    public func delete(withSubscriptionID subscriptionID: CKSubscription.ID, completionHandler: @escaping @Sendable (CKSubscription.ID?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await deleteSubscription(withID: subscriptionID), nil) } catch { completionHandler(nil, error) }
        }
    }
}
