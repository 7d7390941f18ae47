import Foundation

/// The completion-handler forms of the container's sharing calls, as apps written before
/// async/await call them. Each runs its async counterpart in a `Task` and calls the handler
/// once, from that task, with the answer or the error.
extension CKContainer {
    /// Fetches the metadata of the share behind a share URL.
    public func fetchShareMetadata(with url: URL, completionHandler: @escaping @Sendable (CKShare.Metadata?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await shareMetadata(for: url), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Accepts a share: its zone then appears in the caller's shared database.
    public func accept(_ metadata: CKShare.Metadata, completionHandler: @escaping @Sendable (CKShare?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await accept(metadata), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Makes a participant of the account with this email address (`unknownItem` when no
    /// account has it).
    public func fetchShareParticipant(
        withEmailAddress emailAddress: String, completionHandler: @escaping @Sendable (CKShare.Participant?, (any Error)?) -> Void
    ) {
        Task {
            do { completionHandler(try await shareParticipant(forEmailAddress: emailAddress), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Makes a participant of the account with this user record ID.
    public func fetchShareParticipant(
        withUserRecordID userRecordID: CKRecord.ID, completionHandler: @escaping @Sendable (CKShare.Participant?, (any Error)?) -> Void
    ) {
        Task {
            do { completionHandler(try await shareParticipant(forUserRecordID: userRecordID), nil) } catch { completionHandler(nil, error) }
        }
    }
}

/// The container's completion-handler forms whose handler takes a `Result`.
extension CKContainer {
    /// The metadata of the shares behind these URLs, each the metadata or its error.
    public func fetchShareMetadatas(
        for urls: [URL], shouldFetchRootRecord: Bool = false,
        completionHandler: @escaping @Sendable (Result<[URL: Result<CKShare.Metadata, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.shareMetadatas(for: urls, shouldFetchRootRecord: shouldFetchRootRecord) }
    }

    /// Accepts shares: each share or why it could not be accepted, or the request's error.
    public func accept(
        _ metadatas: [CKShare.Metadata], completionHandler: @escaping @Sendable (Result<[CKShare.Metadata: Result<CKShare, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.accept(metadatas) }
    }

    /// Participants for these email addresses, each the participant or why there is none.
    public func fetchShareParticipants(
        forEmailAddresses emailAddresses: [String],
        completionHandler: @escaping @Sendable (Result<[String: Result<CKShare.Participant, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.shareParticipants(forEmailAddresses: emailAddresses) }
    }

    /// Participants for these phone numbers: each fails (Stratus's accounts keep no phone numbers).
    public func fetchShareParticipants(
        forPhoneNumbers phoneNumbers: [String],
        completionHandler: @escaping @Sendable (Result<[String: Result<CKShare.Participant, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.shareParticipants(forPhoneNumbers: phoneNumbers) }
    }

    /// Participants for these user record IDs, each the participant or why there is none.
    public func fetchShareParticipants(
        forUserRecordIDs userRecordIDs: [CKRecord.ID],
        completionHandler: @escaping @Sendable (Result<[CKRecord.ID: Result<CKShare.Participant, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.shareParticipants(forUserRecordIDs: userRecordIDs) }
    }
}
