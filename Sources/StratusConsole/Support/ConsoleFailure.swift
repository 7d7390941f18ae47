import StratusCore
import StratusModel

/// Why a console action did not happen, as a sentence for the page: a CloudKit error keeps its
/// `serverErrorCode` and `reason` (what the HTTP API would have answered), a form mistake says
/// which field.
struct ConsoleFailure: Error, Sendable {
    var message: String

    init(_ message: String) { self.message = message }

    init(_ error: CoreError) {
        self.message = "\(error.code.rawValue): \(error.reason)"
    }

    /// A per-item error of a batch answer, naming the item.
    init(item: String, code: ServerErrorCode, reason: String) {
        self.message = "\(item): \(code.rawValue): \(reason)"
    }

    init(_ error: RecordError) {
        self.init(item: "Record \(error.recordName ?? "")", code: error.serverErrorCode, reason: error.reason)
    }

    init(_ error: ZoneError) {
        self.init(item: "Zone \(error.zoneID.zoneName)", code: error.serverErrorCode, reason: error.reason)
    }

    /// Any error a console action met, in words.
    static func from(_ error: any Error) -> ConsoleFailure {
        switch error {
        case let failure as ConsoleFailure: failure
        case let core as CoreError: ConsoleFailure(core)
        default: ConsoleFailure("INTERNAL_ERROR: \(error)")
        }
    }
}
