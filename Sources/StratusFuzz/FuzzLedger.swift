import StratusKit
import StratusModel

/// What the server told the devices it saved, so the checker can say no acknowledged write was
/// lost. Devices act one at a time, so a save is acknowledged exactly when, after the sync that
/// sent it, the device's copy carries the server's version with the value it wrote. A delete is
/// taken as possibly acknowledged once it left the queue without a refusal (it relaxes the check,
/// never tightens it).
struct FuzzLedger {
    /// A write a device made and the server has not answered yet.
    struct Intent {
        var key: RecordKey
        /// The caption written; `nil` for a delete.
        var caption: String?
    }

    /// What the record must look like on the server, by `owner/zone/name`.
    enum Expectation: Equatable {
        case caption(String)
        case mayBeGone
    }

    private(set) var expected: [String: Expectation] = [:]
    private(set) var acknowledged = 0
    private var unanswered: [Int: [Intent]] = [:]

    mutating func wrote(_ intent: Intent, on device: Int) {
        unanswered[device, default: []].append(intent)
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
            if case .string(caption)? = try store.record(intent.key)?.serverRecord?.fields?["caption"]?.value {
                expected[name] = .caption(caption)
                acknowledged += 1
            }
        }
        // Only the newest intent per record still matters once it is pending again.
        unanswered[index] = waiting
    }

    static func name(_ key: RecordKey) -> String { "\(key.owner)/\(key.zoneName)/\(key.recordName)" }
}
