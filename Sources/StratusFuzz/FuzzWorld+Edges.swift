import Foundation
import StratusCloudKit
import StratusKit
import StratusModel

/// The steps `--edges` adds: a field cleared, a photo whose file is gone before the send, a zone
/// deleted and made again; and the note an edges run's new records carry for the first to clear.
extension FuzzWorld {
    /// The optional STRING field of an edges run's records: set when one is made (and by some
    /// updates), cleared by ``FuzzAction/clearField``; in the ledger like the caption.
    static let noteField = "note"

    /// A new Destination's fields, named by `tag` (caption `c<tag>`, uid `u<tag>`, and at the
    /// edges a note `n<tag>`), and the writes the ledger checks.
    func newDestination(_ tag: String) -> (fields: [String: Field], writes: [FuzzLedger.FieldWrite]) {
        var fields: [String: Field] = ["caption": .string("c\(tag)"), "uid": .string("u\(tag)")]
        var writes = [FuzzLedger.FieldWrite(name: "caption", value: "c\(tag)")]
        if edges {
            fields[Self.noteField] = .string("n\(tag)")
            writes.append(.init(name: Self.noteField, value: "n\(tag)"))
        }
        return (fields, writes)
    }

    /// ``FuzzAction/clearField``: the device clears the note or the photo of a record it may
    /// change (set to `nil` in its mirror, the record marked changed). The ledger takes a note's
    /// clear as a write of no value; a photo is not in the ledger (``FuzzAction/attachPhoto``
    /// writes none), and the mirrors show whether it went everywhere.
    func clearField(_ step: FuzzStep, device index: Int, random: inout FuzzRandom) async throws -> StepOutcome {
        let device = slots[index].device
        let store = await device.store
        var held: [(key: RecordKey, field: String)] = []
        for key in try await destinations(on: device, where: { try await device.canUpdateRecord($0) }) {
            guard let record = try store.record(key) else { continue }
            for field in [Self.noteField, "photo"] where record.fields[field] != nil { held.append((key: key, field: field)) }
        }
        guard let chosen = pick(held, &random) else { return .skipped }
        try await device.clear([chosen.field], of: chosen.key)
        if chosen.field == Self.noteField {
            ledger.wrote(.init(key: chosen.key, fields: [.init(name: Self.noteField, value: nil)]), on: index)
        }
        return .done
    }

    /// ``FuzzAction/missingAsset``: the device gives a record a new photo and a new caption, the
    /// photo's file deleted before any send reads it, and makes another record; then syncs (when
    /// online). CloudKit fails the photo's record alone; the device drops the photo and saves the
    /// rest again, so both captions are acknowledged in the end — and no photo is expected.
    func missingAsset(_ step: FuzzStep, device index: Int, random: inout FuzzRandom) async throws -> StepOutcome {
        let slot = slots[index]
        let device = slot.device
        guard let key = pick(try await destinations(on: device, where: { try await device.canUpdateRecord($0) }), &random) else { return .skipped }
        let bytes = Data((0..<Int.random(in: 64...4096, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        let photo = try await device.assetField(bytes)
        // The file goes before the save (a cache cleared, a file the user removed): whenever the
        // engine sends — at once in automatic mode — it finds no file.
        if case .asset(let asset) = photo.value, let checksum = asset.fileChecksum {
            let file = await device.store.assets.file(for: checksum)
            try FileManager.default.removeItem(at: file)
        }
        let caption = "a\(step.number)"
        try await device.save(key, type: "Destination", fields: ["caption": .string(caption), "photo": photo])
        ledger.wrote(.init(key: key, caption: caption), on: index)
        // Another change of the same sync: it reaches the server whatever the photo's record does.
        let other = await device.privateKey("a\(step.number)")
        let record = newDestination("a\(step.number)")
        try await device.save(other, type: "Destination", fields: record.fields)
        ledger.wrote(.init(key: other, fields: record.writes), on: index)
        if !slot.offline { try await device.sync() }
        return .done
    }

    /// ``FuzzAction/remakeZone``: the device deletes one of its account's zones (its own, or in
    /// CKSyncEngine style the second zone ``FuzzAction/createTwin`` writes to) and makes it
    /// again with one to three new records, one to three times, syncing between (so each
    /// deletion meets the zone made again). Every device's copies in the zone go (Apple: a
    /// deleted zone's records are deleted for every device), so whatever the ledger expected
    /// there — acknowledged, or still unanswered on any device — may be gone; the new records
    /// are expected like any creation.
    func remakeZone(_ step: FuzzStep, device index: Int, random: inout FuzzRandom) async throws -> StepOutcome {
        let slot = slots[index]
        let device = slot.device
        let owner = accounts[slot.account].userRecordName
        let names = style == .syncEngine ? [device.zoneName, Self.twinZone] : [device.zoneName]
        // A share's move not finished yet (NSPersistentCloudKitContainer style) is left alone.
        guard let zoneName = pick(names, &random), try await device.store.pendingMove() == nil else { return .skipped }
        let zone = ZoneID(zoneName: zoneName, ownerRecordName: owner)
        let rounds = Int.random(in: 1...3, using: &random)
        for round in 0..<rounds {
            // Relaxed before the deletion is asked for: it may take effect with its answer lost.
            ledger.zoneLost(owner: owner, zone: zoneName)
            // The zone's shares (CKSyncEngine style: hierarchy shares in place) go with it.
            shares = shares.filter { !($0.key.owner == owner && $0.key.zoneName == zoneName) }
            do {
                try await device.purgeObjectsAndRecordsInZone(zone, scope: .private)
            } catch let error as CKError where error.code == .zoneNotFound {
                // Not on the server (never sent there, or deleted already): the device's copies go all the same.
                try await device.store.purgeZone(zone, scope: .private)
            }
            for item in 0..<Int.random(in: 1...3, using: &random) {
                let tag = "z\(step.number)-\(round)-\(item)"
                let record = newDestination(tag)
                let key = RecordKey(scope: .private, zoneID: zone, recordName: tag)
                try await device.save(key, type: "Destination", fields: record.fields)
                ledger.wrote(.init(key: key, fields: record.writes), on: index)
            }
            if round + 1 < rounds { try await device.sync() }
        }
        return .done
    }
}
