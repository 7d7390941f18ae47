import CloudKit
import Foundation

/// Polls `condition` every 50 ms until it holds or `seconds` have passed — for what an engine
/// does on its own schedule. Answers whether it held. The default deadline is one a busy CI
/// machine meets (the suite runs many servers at once on two cores): only a real failure trips
/// it, and a condition that holds returns at once.
func eventually(within seconds: Double = 180, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(50))
    }
}

/// Sends each device's changes, then fetches on each, in the order given.
func syncAll(_ devices: [NoteDevice]) async throws {
    for device in devices { try await device.send() }
    for device in devices { try await device.fetch() }
}

/// The notes the server holds in a zone: the text of every live Note record, read through the
/// zone's change feed from the start.
func serverNotes(in zoneID: CKRecordZone.ID, of database: CKDatabase) async throws -> [String: String] {
    var token: CKServerChangeToken?
    var notes: [String: String] = [:]
    while true {
        let page = try await database.recordZoneChanges(inZoneWith: zoneID, since: token)
        for (id, result) in page.modificationResultsByID {
            guard let record = try? result.get().record, record.recordType == NoteDevice.recordType else { continue }
            notes[id.recordName] = record["text"] as? String
        }
        for deletion in page.deletions { notes[deletion.recordID.recordName] = nil }
        token = page.changeToken
        if !page.moreComing { return notes }
    }
}

/// What is wrong with the nesting of a device's will…/did… events (``NoteDevice/events``), or
/// `nil` when every will… has its did… and they nest: a fetch's zones inside the fetch.
func unbalancedEvents(_ events: [String]) -> String? {
    let closers = ["willFetchChanges": "didFetchChanges", "willSendChanges": "didSendChanges"]
    let zoneWill = "willFetchRecordZoneChanges "
    let zoneDid = "didFetchRecordZoneChanges "
    var open: [String] = []
    for event in events {
        if let closer = closers[event] {
            open.append(closer)
        } else if event.hasPrefix(zoneWill) {
            open.append("\(zoneDid)\(event.dropFirst(zoneWill.count))")
        } else if closers.values.contains(event) || event.hasPrefix(zoneDid) {
            guard open.last == event else { return "\(event) came while \(open.last ?? "nothing") was open" }
            open.removeLast()
        }
    }
    return open.isEmpty ? nil : "never closed: \(open.reversed())"
}
