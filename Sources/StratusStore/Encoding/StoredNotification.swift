import Foundation
import StratusModel

/// A notification as both stores keep it: its JSON, written by ``JSONWriter`` (the JSON
/// `JSONEncoder` wrote before it, `\/` and all: one is written per subscriber told of a change).
package enum StoredNotification {
    package static func encode(_ notification: PushNotification) throws(StoreError) -> String {
        do {
            return String(decoding: try notification.jsonBytes(escapesSlashes: true), as: UTF8.self)
        } catch {
            throw StoreError(.invalid, "cannot encode a notification: \(error)")
        }
    }

    package static func decode(_ body: String) throws -> PushNotification {
        try JSONDecoder().decode(PushNotification.self, from: Data(body.utf8))
    }
}
