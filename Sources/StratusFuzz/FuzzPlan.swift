/// SplitMix64: a small seeded generator, so a fuzz run is the same run wherever its seed is given.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The generator of one step: depends only on the run's seed and the step's number, so a
    /// step chooses the same way when steps before it are removed (shrinking).
    public init(seed: UInt64, step: Int) {
        var mixer = FuzzRandom(seed: seed ^ (UInt64(truncatingIfNeeded: step) &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One thing a simulated user or device does in a fuzz run.
public enum FuzzAction: String, Sendable, Hashable, CaseIterable, Codable {
    case create, update, delete, share, accept, changePermission, leave, stopSharing
    case toggleSync, goOffline, goOnline, signOut, signIn, crash, sync
    /// The account's web auth token is revoked in the middle of the device's sync (its devices
    /// keep their unsent edits and stop syncing until they sign in again with a new one).
    case revokeToken
    /// A participant creates a record in a zone shared with them (refused, and undone, when
    /// read-only: never left on the device alone).
    case createShared
    /// The account's zone is reset with its encrypted data (devices upload their copies again)
    /// or purged in Settings (devices delete theirs), under whatever edits are unsent.
    case resetZone
    /// A record is created in a second zone under the name of one that exists in the first
    /// (recovery must match failures by zone and name).
    case createTwin
    /// A share whose move's creations fail once (the deletions must wait for them).
    case shareFailingOnce
    /// The server dies in the middle of the device's sync (cut off, no graceful shutdown) and
    /// comes back on the same store: nothing the device queued may be lost.
    case serverCrash
    /// A photo (a `CKAsset`) is attached to a record: its bytes go up with the record's send and
    /// come down, once, to every device that mirrors it.
    case attachPhoto
    /// The device's engines start or stop syncing on their own (`automaticallySync`: a fetch on
    /// each push, a send soon after each local save).
    case automaticSync
    /// An optional field of a record is cleared (set to `nil` and saved: the note edges runs'
    /// records carry, or a photo); the server and every device end without it. Edges only.
    case clearField
    /// A photo is saved with a record, its file deleted before the send reads it, with another
    /// record made in the same sync: CloudKit fails the photo's record alone, the device drops
    /// the photo and saves the rest again. Edges only.
    case missingAsset
    /// An account's zone is deleted from one device and made again (same name) with new
    /// records, one to three times: every device ends with the live zone's records. Edges only.
    case remakeZone

    /// Whether the action is drawn only with `--edges` (``FuzzPlan/edges``): the kinds added after
    /// the CI seeds' plans were fixed, last in `allCases` so those plans draw what they drew.
    public var isEdge: Bool { [.clearField, .missingAsset, .remakeZone].contains(self) }

    /// How often each is drawn, relative to the others (an edge only with `edges`, else never).
    func weight(edges: Bool) -> Int {
        if isEdge && !edges { return 0 }
        return switch self {
        case .create, .update: 14
        case .sync: 20
        case .delete, .accept: 6
        case .share: 5
        case .changePermission, .toggleSync, .goOnline, .signIn: 3
        case .leave, .stopSharing, .goOffline, .crash: 2
        case .signOut, .revokeToken: 1
        case .createShared, .createTwin, .attachPhoto: 4
        case .automaticSync: 2
        case .resetZone, .shareFailingOnce, .serverCrash: 1
        case .clearField: 6
        case .missingAsset: 4
        case .remakeZone: 3
        }
    }
}

/// One step: which device acts, and how. `number` names the step for good (record names and
/// choices derive from it), so a shrunk plan keeps each remaining step as it was.
public struct FuzzStep: Sendable, Hashable, Codable, CustomStringConvertible {
    public var number: Int
    public var device: Int
    public var action: FuzzAction

    public var description: String { "#\(number) device \(device): \(action.rawValue)" }
}

/// The steps of a run, drawn from the seed.
public struct FuzzPlan: Sendable, Hashable {
    public var seed: UInt64
    public var devices: Int
    public var accounts: Int
    public var steps: [FuzzStep]
    /// Whether the run goes to the edges (`--edges`): the edge steps (``FuzzAction/isEdge``) are
    /// drawn, and new records carry an optional `note` for ``FuzzAction/clearField`` to clear.
    public var edges: Bool

    public init(seed: UInt64, devices: Int, accounts: Int, steps: [FuzzStep], edges: Bool = false) {
        self.seed = seed
        self.devices = devices
        self.accounts = accounts
        self.steps = steps
        self.edges = edges
    }

    /// `count` steps for `devices` devices across `accounts` accounts, drawn from `seed`; the edge
    /// steps too with `edges`. Without it a seed draws the plan it always drew: the edges weigh
    /// nothing and come last.
    public static func generate(seed: UInt64, devices: Int, accounts: Int, count: Int, edges: Bool = false) -> FuzzPlan {
        var random = FuzzRandom(seed: seed)
        let actions = FuzzAction.allCases
        let total = actions.reduce(0) { $0 + $1.weight(edges: edges) }
        let steps = (0..<count).map { number -> FuzzStep in
            var pick = Int.random(in: 0..<total, using: &random)
            var action = FuzzAction.sync
            for candidate in actions {
                let weight = candidate.weight(edges: edges)
                if pick < weight {
                    action = candidate
                    break
                }
                pick -= weight
            }
            return FuzzStep(number: number, device: Int.random(in: 0..<devices, using: &random), action: action)
        }
        return FuzzPlan(seed: seed, devices: devices, accounts: accounts, steps: steps, edges: edges)
    }
}
