import Foundation
import StratusCloudKit
import StratusKit
import StratusModel

/// The devices of a fuzz run and what the run knows about them: which are offline or signed out,
/// the share invitations each account has not accepted, the shares each owner made, and the
/// ledger of acknowledged writes. Steps run one at a time.
final class FuzzWorld {
    /// One simulated device and its state in the run.
    struct Slot {
        var device: SimulatedDevice
        let account: Int
        let storePath: String
        var offline = false
        var signedIn = true
    }

    let seed: UInt64
    let server: FuzzServer
    /// The accounts, each with its current web auth token (``FuzzAction/revokeToken`` replaces it).
    private(set) var accounts: [FuzzAccount]
    let retryDelayScale: Double
    /// How every device mirrors.
    let style: SimulatedDevice.MirroringStyle
    /// Whether the run goes to the edges (``FuzzPlan/edges``): new records carry a note.
    let edges: Bool
    /// How the style names fields on the server (`CD_caption` for NSPersistentCloudKitContainer).
    var naming: RecordNaming { style == .persistentCloudKitContainer ? .coreData : .plain }
    var slots: [Slot] = []
    var ledger = FuzzLedger()
    /// Share URLs sent to each account and not accepted yet.
    var invitations: [Int: [URL]] = [:]
    /// Shares made, by the shared record: the invited account and the permission given.
    var shares: [RecordKey: (account: Int, permission: ShareInvitee.Permission)] = [:]
    /// Per action: done, skipped (nothing to act on) and refused (the server or device said no).
    var tally: [FuzzAction: (done: Int, skipped: Int, refused: Int)] = [:]
    /// Each refusal, for `--verbose`.
    var refusals: [String] = []

    init(
        seed: UInt64, server: FuzzServer, accounts: [FuzzAccount], retryDelayScale: Double, style: SimulatedDevice.MirroringStyle,
        edges: Bool = false
    ) {
        self.seed = seed
        self.server = server
        self.accounts = accounts
        self.retryDelayScale = retryDelayScale
        self.style = style
        self.edges = edges
    }

    /// Makes the devices (device `i` is signed in to account `i % accounts`) in `directory`.
    func addDevices(_ count: Int, directory: URL) async throws {
        for index in 0..<count {
            let path = directory.appendingPathComponent("device-\(index).sqlite").path
            let device = try await makeDevice(index, path: path)
            try await device.signIn(accounts[index % accounts.count].account)
            slots.append(Slot(device: device, account: index % accounts.count, storePath: path))
        }
    }

    /// An account's container as an app of that account makes it: how the checker reads the server.
    func container(of account: SimulatedDevice.Account) throws -> CKContainer {
        try account.container(FuzzServer.container, serverURL: server.url)
    }

    private func makeDevice(_ index: Int, path: String) async throws -> SimulatedDevice {
        let device = try SimulatedDevice(
            name: "device-\(index)", serverURL: server.url, container: FuzzServer.container, storePath: path, style: style
        )
        await device.setRetryDelayScale(retryDelayScale)
        return device
    }

    // MARK: - Steps

    /// Performs one step; the server refusing is an outcome, not an error.
    func perform(_ step: FuzzStep) async throws {
        var random = FuzzRandom(seed: seed, step: step.number)
        let index = step.device
        let outcome: StepOutcome
        do {
            outcome = try await act(step, device: index, random: &random)
        } catch where SimulatedDevice.isServerRefusal(error) {
            outcome = .refused
            refusals.append("\(step): \(error)")
            // A refused token: the device stopped syncing, its edits kept; it signs in again later.
            if SimulatedDevice.isRefusedToken(error) { slots[index].signedIn = false }
        }
        var counts = tally[step.action] ?? (0, 0, 0)
        switch outcome {
        case .done: counts.done += 1
        case .skipped: counts.skipped += 1
        case .refused: counts.refused += 1
        }
        tally[step.action] = counts
        if slots[index].signedIn { try await ledger.settle(device: index, on: slots[index].device) }
    }

    enum StepOutcome { case done, skipped, refused }

    private func act(_ step: FuzzStep, device index: Int, random: inout FuzzRandom) async throws -> StepOutcome {
        let slot = slots[index]
        let device = slot.device
        // Signed out, a device can only sign in again or restart.
        if !slot.signedIn && ![.signIn, .crash, .goOnline, .goOffline].contains(step.action) { return .skipped }
        let needsNetwork: Set<FuzzAction> = [
            .share, .shareFailingOnce, .accept, .changePermission, .leave, .stopSharing, .sync, .signIn, .automaticSync, .remakeZone,
        ]
        if slot.offline && needsNetwork.contains(step.action) { return .skipped }
        switch step.action {
        case .create:
            let key = await device.privateKey("r\(step.number)")
            let record = newDestination("\(step.number)")
            try await device.save(key, type: "Destination", fields: record.fields)
            ledger.wrote(.init(key: key, fields: record.writes), on: index)
        case .createShared:
            guard let parent = pick(try await destinations(on: device, scopes: [.shared], where: { _ in true }), &random) else { return .skipped }
            let key = RecordKey(scope: .shared, zoneID: parent.zoneID, recordName: "s\(step.number)")
            let caption = "c\(step.number)"
            try await device.save(
                key, type: "Destination", fields: ["caption": .string(caption), "uid": .string("u\(step.number)")], parent: parent.recordName
            )
            ledger.wrote(.init(key: key, caption: caption), on: index)
        case .update:
            guard let key = try await pick(destinations(on: device, where: { try await device.canUpdateRecord($0) }), &random) else { return .skipped }
            let caption = "e\(step.number)"
            var fields: [String: Field] = ["caption": .string(caption)]
            var writes = [FuzzLedger.FieldWrite(name: "caption", value: caption)]
            // At the edges an update may set the note again (after the record's other choices).
            if edges, Bool.random(using: &random) {
                fields[Self.noteField] = .string("m\(step.number)")
                writes.append(.init(name: Self.noteField, value: "m\(step.number)"))
            }
            try await device.save(key, type: "Destination", fields: fields)
            ledger.wrote(.init(key: key, fields: writes), on: index)
        case .delete:
            let owned = try await destinations(on: device, scopes: [.private], where: { try await device.canDeleteRecord($0) })
            guard let key = pick(owned, &random) else { return .skipped }
            try await device.delete(key)
            ledger.wrote(.init(key: key, caption: nil), on: index)
        case .share, .shareFailingOnce:
            let unshared = try await destinations(on: device, scopes: [.private], where: { try await !device.isShared($0) })
            guard accounts.count > 1, let key = pick(unshared, &random) else { return .skipped }
            var invitee = Int.random(in: 0..<(accounts.count - 1), using: &random)
            if invitee >= slot.account { invitee += 1 }
            let permission: ShareInvitee.Permission = Bool.random(using: &random) ? .readWrite : .readOnly
            if step.action == .shareFailingOnce { try await server.failNextUpload(of: naming.serverName("Destination")) }
            // In NSPersistentCloudKitContainer style the record and its relations move to the
            // share's zone (the ledger follows them: `FuzzLedger.settle`).
            let share = try await device.share(key, with: [.invite(email: accounts[invitee].email, permission: permission)])
            shares[try await device.currentKey(key) ?? key] = (invitee, permission)
            if let url = share.url { invitations[invitee, default: []].append(url) }
        case .createTwin:
            // NSPersistentCloudKitContainer names records uniquely; a CKSyncEngine app may reuse a name.
            guard style == .syncEngine else { return .skipped }
            guard let original = pick(try await destinations(on: device, scopes: [.private], where: { _ in true }), &random) else { return .skipped }
            let zone = ZoneID(zoneName: original.zoneName == Self.twinZone ? device.zoneName : Self.twinZone, ownerRecordName: original.zoneID.ownerRecordName)
            let key = RecordKey(scope: .private, zoneID: zone, recordName: original.recordName)
            guard try await device.store.record(key) == nil else { return .skipped }
            let caption = "c\(step.number)"
            try await device.save(key, type: "Destination", fields: ["caption": .string(caption), "uid": .string("u\(step.number)")])
            ledger.wrote(.init(key: key, caption: caption), on: index)
        case .resetZone:
            let owner = accounts[slot.account].userRecordName
            let reason: ZoneDeletionReason = Bool.random(using: &random) ? .purged : .encryptedDataReset
            guard try await server.resetZone(device.zoneName, of: owner, reason: reason) else { return .skipped }
            ledger.zoneLost(owner: owner, zone: device.zoneName)
        case .accept:
            guard var urls = invitations[slot.account], !urls.isEmpty else { return .skipped }
            let url = urls.remove(at: Int.random(in: 0..<urls.count, using: &random))
            invitations[slot.account] = urls
            try await device.acceptShareInvitations(from: [url])
        case .changePermission:
            let mine = shares.keys.filter { $0.owner == accounts[slot.account].userRecordName }.sorted { $0.description < $1.description }
            guard let key = pick(mine, &random), let share = shares[key] else { return .skipped }
            let flipped: ShareInvitee.Permission = share.permission == .readWrite ? .readOnly : .readWrite
            try await device.setParticipants([.invite(email: accounts[share.account].email, permission: flipped)], ofShareCovering: key)
            shares[key] = (share.account, flipped)
        case .leave:
            let zones = Set(try await device.records(in: .shared).map(\.key.zoneID)).sorted { "\($0)" < "\($1)" }
            guard let zone = pick(zones, &random) else { return .skipped }
            try await device.purgeObjectsAndRecordsInZone(zone, scope: .shared)
        case .stopSharing:
            let mine = shares.keys.filter { $0.owner == accounts[slot.account].userRecordName }.sorted { $0.description < $1.description }
            guard let key = pick(mine, &random) else { return .skipped }
            shares[key] = nil
            try await device.stopSharing(key)
        case .toggleSync:
            try await device.setMirroring(!(try await device.store.isMirroring))
        case .goOffline:
            // Offline, a device's engines do not sync on their own either.
            await device.stopAutomaticSync()
            slots[index].offline = true
        case .goOnline:
            slots[index].offline = false
        case .signOut:
            try await device.signOut()
            slots[index].signedIn = false
            ledger.forget(device: index)
        case .signIn:
            guard !slot.signedIn else { return .skipped }
            try await device.signIn(accounts[slot.account].account)
            slots[index].signedIn = true
        case .crash:
            // The process dies; the store file stays. The app starts again and signs the same account in.
            await device.stopAutomaticSync()
            let restarted = try await makeDevice(index, path: slot.storePath)
            slots[index].device = restarted
            if slot.signedIn {
                do { try await restarted.signIn(accounts[slot.account].account) } catch is CKError { slots[index].signedIn = false }
            }
        case .sync:
            try await device.sync()
        case .attachPhoto:
            guard let key = try await pick(destinations(on: device, where: { try await device.canUpdateRecord($0) }), &random) else { return .skipped }
            let bytes = Data((0..<Int.random(in: 1...4096, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            try await device.save(key, type: "Destination", fields: ["photo": try await device.assetField(bytes)])
        case .automaticSync:
            if await device.isSyncingAutomatically {
                await device.stopAutomaticSync()
            } else {
                try await device.startAutomaticSync()
            }
        case .revokeToken:
            let account = accounts[slot.account]
            guard let token = account.account.webAuthToken else { return .skipped }
            // Revoked while the device syncs: the sync may end refused (then the device waits
            // for the same user to sign in again), its queued edits kept either way.
            let sync = Task { try await device.sync() }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<30, using: &random)))
            let fresh = try await server.replaceWebAuthToken(token, userRecordName: account.userRecordName)
            accounts[slot.account].account.webAuthToken = fresh
            try await sync.value
        case .clearField:
            return try await clearField(step, device: index, random: &random)
        case .missingAsset:
            return try await missingAsset(step, device: index, random: &random)
        case .remakeZone:
            return try await remakeZone(step, device: index, random: &random)
        case .serverCrash:
            guard let crash = server.crash, !slot.offline else { return .skipped }
            let sync = Task { try await device.sync() }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<30, using: &random)))
            try await crash()
            // What the cut-off sync answered is the network's failure, not the server's refusal.
            _ = try? await sync.value
        }
        return .done
    }

    /// The second private zone ``FuzzAction/createTwin`` writes to.
    static let twinZone = "Trips"

    /// The device's Destination records in these scopes that pass `test`, in a stable order.
    func destinations(
        on device: SimulatedDevice, scopes: [DatabaseScope] = [.private, .shared], where test: (RecordKey) async throws -> Bool
    ) async throws -> [RecordKey] {
        var keys: [RecordKey] = []
        for scope in scopes {
            for record in try await device.records(in: scope) where record.recordType == "Destination" {
                if try await test(record.key) { keys.append(record.key) }
            }
        }
        return keys.sorted { $0.description < $1.description }
    }

    func pick<T>(_ items: [T], _ random: inout FuzzRandom) -> T? {
        items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
    }
}
