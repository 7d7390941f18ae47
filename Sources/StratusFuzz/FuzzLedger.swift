import StratusKit
import StratusModel

/// What the server told the devices it saved, so the checker can say no acknowledged write was
/// lost. A save is acknowledged when the device's copy carries the server's version with the value
/// it wrote; the server's save time says which acknowledged save is the last. A delete is
/// taken as possibly acknowledged once it left the queue without a refusal (it relaxes the check,
/// never tightens it).
struct FuzzLedger {
    /// A write a device made and the server has not answered yet.
    struct Intent {
        var key: RecordKey
        /// The caption written; `nil` for a delete.
        var caption: String?
    }

    /// What the record must look like on the server, by `owner/name`: the fuzzer's record names are
    /// unique per account, and a share in NSPersistentCloudKitContainer style moves a record into
    /// another zone under the same name.
    enum Expectation: Equatable {
        /// The caption of the last acknowledged save, and when the server saved it.
        case caption(String, savedAt: Int64)
        case mayBeGone
    }

    private(set) var expected: [String: Expectation] = [:]
    private(set) var acknowledged = 0
    private var unanswered: [Int: [Intent]] = [:]

    mutating func wrote(_ intent: Intent, on device: Int) {
        unanswered[device, default: []].append(intent)
    }

    /// A share moved a record into another zone (NSPersistentCloudKitContainer style): the device's
    /// unanswered writes to it follow it.
    mutating func moved(_ old: RecordKey, to new: RecordKey, on device: Int) {
        unanswered[device] = unanswered[device]?.map { intent in
            var intent = intent
            if intent.key == old { intent.key = new }
            return intent
        }
    }

    /// A sign-out purged the device's data: what it had not sent is gone, never acknowledged.
    mutating func forget(device: Int) {
        unanswered[device] = nil
    }

    /// Settles the device's writes the server has answered, after one of its syncs.
    mutating func settle(device index: Int, on device: SimulatedDevice) async throws {
        guard let intents = unanswered[index], !intents.isEmpty else { return }
        let store = await device.store
        var pending = Set<RecordKey>()
        for scope in [DatabaseScope.private, .shared] { pending.formUnion(try store.pendingExports(in: scope).map(\.key)) }
        var waiting: [Intent] = []
        for intent in intents {
            if pending.contains(intent.key) {
                waiting.append(intent)
                continue
            }
            let name = Self.name(intent.key)
            guard let caption = intent.caption else {
                expected[name] = .mayBeGone
                continue
            }
            let server = try store.record(intent.key)?.serverRecord
            if case .string(caption)? = server?.fields?[store.naming.serverName("caption")]?.value {
                acknowledged += 1
                // A device may learn late that its save was acknowledged (it stayed pending for
                // another change): the server's save time orders acknowledgements, not this call.
                let savedAt = server?.modified?.timestamp ?? 0
                if case .caption(_, let later)? = expected[name], later > savedAt { continue }
                expected[name] = .caption(caption, savedAt: savedAt)
            }
        }
        // Only the newest intent per record still matters once it is pending again.
        unanswered[index] = waiting
    }

    static func name(_ key: RecordKey) -> String { "\(key.owner)/\(key.recordName)" }
}
