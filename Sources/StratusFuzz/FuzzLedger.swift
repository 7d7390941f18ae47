import StratusKit
import StratusModel

/// What the server told the devices it saved, so the checker can say no acknowledged write was
/// lost. A save is acknowledged, field by field, when the device's copy carries the server's
/// version with the value it wrote (a cleared field: a version without it); the server's save
/// time says which acknowledged save of a field is the last. A delete is taken as possibly
/// acknowledged once it left the queue without a refusal (it relaxes the check, never tightens it).
struct FuzzLedger {
    /// One STRING field a save wrote, by its local name: its value, or `nil` when the save cleared it.
    struct FieldWrite: Equatable {
        var name: String
        var value: String?
    }

    /// A write a device made and the server has not answered yet.
    struct Intent {
        var key: RecordKey
        /// The fields written (checked ones only); `nil` for a delete.
        var fields: [FieldWrite]?

        init(key: RecordKey, fields: [FieldWrite]?) {
            self.key = key
            self.fields = fields
        }

        /// A save of `caption`, or a delete for `nil`.
        init(key: RecordKey, caption: String?) {
            self.init(key: key, fields: caption.map { [FieldWrite(name: "caption", value: $0)] })
        }
    }

    /// A field's value in the last acknowledged save that wrote it (`nil`: cleared), and where
    /// the server's saves put it.
    struct Acknowledged: Equatable {
        var value: String?
        var savedAt: SaveOrder
    }

    /// Where a save stands among the server's saves: its save time, and — where two saves share a
    /// millisecond — its change tag, which on Stratus is the global change sequence (base 36).
    struct SaveOrder: Comparable {
        var milliseconds: Int64
        var sequence: Int64

        init(_ record: Record) {
            milliseconds = record.modified?.timestamp ?? 0
            sequence = record.recordChangeTag.flatMap { Int64($0, radix: 36) } ?? 0
        }

        static func < (lhs: SaveOrder, rhs: SaveOrder) -> Bool {
            (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence)
        }
    }

    /// What the record must look like on the server, by `owner/zone/name` (the same name may
    /// live in two zones; a share in NSPersistentCloudKitContainer style moves a record into
    /// another zone under the same name, and its expectation with it).
    enum Expectation: Equatable {
        /// The record is there, each field as its last acknowledged save left it.
        case fields([String: Acknowledged])
        case mayBeGone
    }

    private(set) var expected: [String: Expectation] = [:]
    private(set) var acknowledged = 0
    private var unanswered: [Int: [Intent]] = [:]

    mutating func wrote(_ intent: Intent, on device: Int) {
        unanswered[device, default: []].append(intent)
    }

    /// A zone of `owner` was purged or reset on the server: what was acknowledged in it may be
    /// gone (purged for good; after a reset, whichever copy a device uploaded again first). So may
    /// a write still unanswered then: a device syncing on its own may have saved it just before
    /// the loss and hear so only after it.
    mutating func zoneLost(owner: String, zone: String) {
        let prefix = "\(owner)/\(zone)/"
        for name in expected.keys where name.hasPrefix(prefix) { expected[name] = .mayBeGone }
        for (device, intents) in unanswered {
            let lost = intents.filter { Self.name($0.key).hasPrefix(prefix) }
            guard !lost.isEmpty else { continue }
            for intent in lost { expected[Self.name(intent.key)] = .mayBeGone }
            unanswered[device] = intents.filter { !Self.name($0.key).hasPrefix(prefix) }
        }
    }

    /// A sign-out purged the device's data: what it had not sent is gone, never acknowledged —
    /// but a write whose answer was lost may have reached the server, so its record may now
    /// hold that write, or be gone.
    mutating func forget(device: Int) {
        for intent in unanswered[device] ?? [] { expected[Self.name(intent.key)] = .mayBeGone }
        unanswered[device] = nil
    }

    /// Settles the device's writes the server has answered, after one of its syncs.
    mutating func settle(device index: Int, on device: SimulatedDevice) async throws {
        let store = await device.store
        try followMoves(device: index, store: store)
        guard let intents = unanswered[index], !intents.isEmpty else { return }
        var pending = Set<RecordKey>()
        for scope in [DatabaseScope.private, .shared] { pending.formUnion(try store.pendingExports(in: scope).map(\.key)) }
        var waiting: [Intent] = []
        for intent in intents {
            if pending.contains(intent.key) {
                waiting.append(intent)
                continue
            }
            let name = Self.name(intent.key)
            guard let writes = intent.fields else {
                expected[name] = .mayBeGone
                // A record deleted from a share's zone before its move there was confirmed: the
                // move's deletion of the old copy goes too.
                if intent.key.zoneName.hasPrefix(SimulatedDevice.shareZonePrefix) {
                    for other in expected.keys where other.hasPrefix("\(intent.key.owner)/") && other.hasSuffix("/\(intent.key.recordName)") {
                        expected[other] = .mayBeGone
                    }
                }
                continue
            }
            guard let server = try store.record(intent.key)?.serverRecord else { continue }
            let savedAt = SaveOrder(server)
            var fields: [String: Acknowledged] = [:]
            if case .fields(let known)? = expected[name] { fields = known }
            var held = false
            for write in writes {
                let stored = server.fields?[store.naming.serverName(write.name)]?.value
                if let value = write.value {
                    guard stored == .string(value) else { continue }
                } else if stored != nil {
                    continue
                }
                held = true
                // A device may learn late that its save was acknowledged (it stayed pending for
                // another change): the server's save order ranks acknowledgements, not this call.
                if let later = fields[write.name], later.savedAt > savedAt { continue }
                fields[write.name] = Acknowledged(value: write.value, savedAt: savedAt)
            }
            if held {
                acknowledged += 1
                expected[name] = .fields(fields)
            }
        }
        // Only the newest intent per record still matters once it is pending again.
        unanswered[index] = waiting
    }

    /// Records the device moved into a share's zone (NSPersistentCloudKitContainer style, in a
    /// share or a move resumed by any later sync) once the server holds them there: the device's
    /// unanswered writes to each, and what it must look like on the server, follow it.
    private mutating func followMoves(device index: Int, store: LocalStore) throws {
        let records = try store.records(in: .private)
        var inShareZones: [String: RecordKey] = [:]
        // Only a move the server confirmed (the copy in the share's zone saved there): until then
        // the record is where it was on the server, and a sign-out may yet drop the move.
        for record in records where record.key.zoneName.hasPrefix(SimulatedDevice.shareZonePrefix) && record.serverRecord != nil {
            inShareZones["\(record.key.owner)/\(record.key.recordName)"] = record.key
        }
        guard !inShareZones.isEmpty else { return }
        let present = Set(records.map { Self.name($0.key) })
        func destination(owner: String, zone: String, name: String) -> RecordKey? {
            guard !zone.hasPrefix(SimulatedDevice.shareZonePrefix), !present.contains("\(owner)/\(zone)/\(name)") else { return nil }
            return inShareZones["\(owner)/\(name)"]
        }
        unanswered[index] = unanswered[index]?.map { intent in
            var intent = intent
            if let now = destination(owner: intent.key.owner, zone: intent.key.zoneName, name: intent.key.recordName) { intent.key = now }
            return intent
        }
        for (name, expectation) in expected {
            let parts = name.split(separator: "/", maxSplits: 2).map(String.init)
            guard parts.count == 3, let now = destination(owner: parts[0], zone: parts[1], name: parts[2]) else { continue }
            expected[name] = nil
            expected[Self.name(now)] = expectation
        }
    }

    static func name(_ key: RecordKey) -> String { "\(key.owner)/\(key.zoneName)/\(key.recordName)" }
}
