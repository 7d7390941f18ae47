import StratusModel

/// The rows a zone batch writes, as the engine decided them: each table's final state for what
/// the batch touched, which a back end writes in its own SQL, table by table in
/// ``writeOrder``, after the engine returns. Nothing is written for a batch that does not commit.
package struct BatchWrites: Sendable {
    /// Every record row the batch changed, as it leaves it, with its fields' JSON.
    package internal(set) var records: [String: WrittenRecord] = [:]
    /// The `DELETE_SELF` targets of each source record the batch re-indexed: the whole new set
    /// (empty when the source was deleted or lost them).
    package internal(set) var references: [String: Set<String>] = [:]
    /// Which blobs records hold (`record_assets`): linked (`true`) or unlinked (`false`).
    package internal(set) var assetLinks: [RecordAsset: Bool] = [:]
    /// Receipts claimed, each with the blob it keeps from collection.
    package internal(set) var claims: [String: ClaimedUpload] = [:]
    /// Share rows as the batch leaves them; `nil` for a share it deleted (its participants go too).
    package internal(set) var shares: [String: ShareRow?] = [:]
    /// Participant lists the batch replaced, by share (written after ``shares``).
    package internal(set) var participants: [String: [StoredParticipant]] = [:]
    /// Each user's shared-database feed entry for the zone: the position and whether they still see it.
    package internal(set) var feed: [String: FeedEntry] = [:]
    /// Records that entered or left a hierarchy share, at a position (`share_coverage`).
    package internal(set) var coverage: [CoverageKey: Int64] = [:]
    /// Field types the schema learns.
    package internal(set) var newFields: [SchemaField] = []
    /// The account's bytes in use after the batch, when it has a quota.
    package internal(set) var quotaUsed: Int64?

    /// A record row and its fields' JSON.
    package struct WrittenRecord: Sendable {
        package var record: StoredRecord
        package var json: String
    }

    /// A blob held by a record.
    package struct RecordAsset: Hashable, Sendable {
        package var recordName: String
        package var checksum: String
    }

    /// A receipt claimed by a record field.
    package struct ClaimedUpload: Sendable {
        package var uploadID: String
        package var checksum: String
        package var claim: UploadClaim
    }

    /// A user's entry in the shared-database feed.
    package struct FeedEntry: Sendable {
        package var seq: Int64
        package var visible: Bool
    }

    /// A record's membership of a hierarchy share.
    package struct CoverageKey: Hashable, Sendable {
        package var shareName: String
        package var recordName: String
    }
}

extension BatchWrites {
    /// One kind of row a batch writes.
    package enum Table: Sendable, CaseIterable {
        case records, references, assetLinks, claims, shares, participants, sharedZoneFeed, shareCoverage, schemaFields, quota
    }

    /// The order every back end writes a batch's tables in: records first (what hangs off them
    /// names them), then their references, asset links and claimed receipts; shares — deleted
    /// ones first, so a short GUID can pass from an old share to a new one — before their
    /// participants; then the shared-database feed, share coverage, the schema's new fields and
    /// the quota.
    package static let writeOrder: [Table] = [
        .records, .references, .assetLinks, .claims, .shares, .participants, .sharedZoneFeed, .shareCoverage, .schemaFields, .quota,
    ]
}
