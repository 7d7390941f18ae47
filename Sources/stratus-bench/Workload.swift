import Foundation
import StratusModel

/// The rows every scenario writes: travel-journal `Destination` records of about 350 bytes.
enum Workload {
    static let zone = "Bench"
    /// The field values every row shares (the caption names the row); `CloudKitScenarios` sets
    /// the same ones on a `CKRecord`.
    static let details = "A short note about the place, the food, the people and the weather there."
    static let createdAtMilliseconds: Int64 = 1_767_225_600_000
    static let image = Data(repeating: 0xAB, count: 96)

    static func caption(_ name: String) -> String { "Destination \(name)" }

    static func destination(_ name: String) -> Record {
        Record(recordName: name, recordType: "Destination", fields: [
            "caption": .string(caption(name)),
            "details": .string(details),
            "createdAt": .timestamp(milliseconds: createdAtMilliseconds),
            "image": .bytes(image),
        ])
    }

    /// A records/modify body creating `names` in the bench zone.
    static func createBody(_ names: [String]) -> Data {
        let request = ModifyRecordsRequest(
            operations: names.map { RecordOperation(.create, destination($0)) }, zoneID: ZoneID(zoneName: zone), atomic: false
        )
        return (try? JSONEncoder().encode(request)) ?? Data()
    }

    /// The fields JSON of one row, as the store keeps it (for the raw-insert limit).
    static func fieldsJSON(_ name: String) -> String {
        let data = (try? JSONEncoder().encode(destination(name).fields)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
