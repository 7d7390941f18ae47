import Foundation
import StratusModel

/// The rows every scenario writes: travel-journal `Destination` records of about 350 bytes.
enum Workload {
    static let zone = "Bench"

    static func destination(_ name: String) -> Record {
        Record(recordName: name, recordType: "Destination", fields: [
            "caption": .string("Destination \(name)"),
            "details": .string("A short note about the place, the food, the people and the weather there."),
            "createdAt": .timestamp(milliseconds: 1_767_225_600_000),
            "image": .bytes(Data(repeating: 0xAB, count: 96)),
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
