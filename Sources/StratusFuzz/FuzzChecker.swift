import StratusCloudKit
import StratusKit
import StratusModel

/// The end of a run: every device back online, syncing and signed in, synced until nothing is
/// pending; then the three checks — each mirror equals what the server shows its account, every
/// acknowledged write is on the server, no record exists twice.
struct FuzzChecker {
    /// Rounds of syncing every device before the run counts as not settling.
    static let maximumRounds = 12

    /// One thing that did not hold.
    struct Divergence: Sendable, CustomStringConvertible {
        var check: String
        var detail: String
        var description: String { "\(check): \(detail)" }
    }

    let world: FuzzWorld

    /// Brings every device back — online, mirroring, signed in, syncing only when asked (so the
    /// ledger settles each write after the sync that sent it) — and syncs them all until a whole
    /// round succeeds with nothing pending.
    func quiesce() async throws -> [Divergence] {
        for index in world.slots.indices {
            world.slots[index].offline = false
            let device = world.slots[index].device
            await device.stopAutomaticSync()
            try await device.setMirroring(true)
            if !world.slots[index].signedIn {
                try await device.signIn(world.accounts[world.slots[index].account].account)
                world.slots[index].signedIn = true
            }
        }
        var lastError: (any Error)?
        var cleanRounds = 0
        for _ in 0..<Self.maximumRounds {
            var clean = true
            for (index, slot) in world.slots.enumerated() {
                do {
                    try await slot.device.sync()
                    try await world.ledger.settle(device: index, on: slot.device)
                } catch where SimulatedDevice.isRefusedToken(error) {
                    // Its token was revoked (and replaced): the user signs in again; nothing was purged.
                    clean = false
                    lastError = error
                    try await slot.device.signIn(world.accounts[slot.account].account)
                } catch {
                    clean = false
                    lastError = error
                }
                let store = await slot.device.store
                if try !store.pendingExports(in: .private).isEmpty || !store.pendingExports(in: .shared).isEmpty { clean = false }
            }
            // Two clean rounds in a row: in the second each device fetched what the others sent last.
            cleanRounds = clean ? cleanRounds + 1 : 0
            if cleanRounds == 2 { return [] }
        }
        return [Divergence(check: "quiesce", detail: "devices still had pending changes or failing syncs after \(Self.maximumRounds) rounds (last error: \(lastError.map { "\($0)" } ?? "none"))")]
    }

    /// The three checks, once quiet.
    func check() async throws -> [Divergence] {
        var divergences: [Divergence] = []
        var serverViews: [Int: (private: MirrorSnapshot, shared: MirrorSnapshot)] = [:]
        for (index, account) in world.accounts.enumerated() {
            let container = try world.container(of: account.account)
            serverViews[index] = (
                try await read { try await MirrorSnapshot.server(container, scope: .private) },
                try await read { try await MirrorSnapshot.server(container, scope: .shared) }
            )
        }
        // 1. Each mirror equals the server's view for its account.
        for slot in world.slots {
            let store = await slot.device.store
            guard let server = serverViews[slot.account] else { continue }
            for (scope, view) in [(DatabaseScope.private, server.private), (.shared, server.shared)] {
                let differing = try MirrorSnapshot.local(store, scope: scope).differences(from: view)
                if !differing.isEmpty {
                    divergences.append(Divergence(
                        check: "mirror", detail: "\(slot.device.name) \(scope.rawValue) differs from the server at \(differing.prefix(5))"
                    ))
                }
            }
        }
        // 2. No acknowledged write is lost: the owner's private database has the record, each
        // field as its last acknowledged save left it (a cleared field absent).
        var owned: [String: [String: FieldValue]] = [:]
        for view in serverViews.values { owned.merge(view.private.records) { first, _ in first } }
        for (name, expectation) in world.ledger.expected.sorted(by: { $0.key < $1.key }) {
            guard case .fields(let fields) = expectation else { continue }
            let record = owned[name]
            for (field, acknowledged) in fields.sorted(by: { $0.key < $1.key }) {
                let stored = record?[world.naming.serverName(field)]
                let holds = acknowledged.value.map { stored == FieldValue.string($0) } ?? (record != nil && stored == nil)
                guard !holds else { continue }
                let written = acknowledged.value.map { "\(field) \($0)" } ?? "\(field) cleared"
                let found = record == nil ? "no record" : stored.map { "\(field) \($0)" } ?? "no \(field)"
                divergences.append(Divergence(check: "acknowledged", detail: "\(name) was saved with \(written), the server has \(found)"))
            }
        }
        // 3. No record twice: each created record's uid names one record.
        var byUID: [String: [String]] = [:]
        for (name, fields) in owned { if case .string(let uid)? = fields[world.naming.serverName("uid")] { byUID[uid, default: []].append(name) } }
        for (uid, names) in byUID where names.count > 1 {
            divergences.append(Divergence(check: "duplicate", detail: "\(uid) is \(names.sorted())"))
        }
        return divergences
    }

    /// The server's view, read again after transient failures (buggify faults the checker's reads too).
    private func read(_ snapshot: @Sendable () async throws -> MirrorSnapshot) async throws -> MirrorSnapshot {
        try await SyncRetry.run(attempts: 20, clock: SyncClock(rate: 1 / world.retryDelayScale), snapshot)
    }
}
