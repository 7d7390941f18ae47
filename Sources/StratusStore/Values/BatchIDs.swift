import Foundation

/// Where the batch engine's new identifiers come from: a share participant's ID and a share's
/// short GUID. The stores hand the engine ``random``; a test hands it a counter, so one batch
/// against the same rows decides the same rows to write, byte for byte.
package struct BatchIDs: Sendable {
    /// A new participant's ID.
    package var participantID: @Sendable () -> String
    /// A new share URL's short GUID (CloudKit's shape: a `0` and 23 lowercase hex digits).
    package var shortGUID: @Sendable () -> String

    package init(participantID: @escaping @Sendable () -> String, shortGUID: @escaping @Sendable () -> String) {
        self.participantID = participantID
        self.shortGUID = shortGUID
    }

    /// Fresh random identifiers, as the server makes them.
    package static let random = BatchIDs(
        participantID: { UUID().uuidString },
        shortGUID: { "0" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(23) }
    )
}
