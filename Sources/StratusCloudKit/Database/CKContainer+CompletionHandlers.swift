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

    /// Makes a participant of the account with this email address (an address with no account
    /// yet is invited by email).
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
