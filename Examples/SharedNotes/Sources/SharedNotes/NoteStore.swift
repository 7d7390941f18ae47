import Foundation
#if os(Linux)
import CloudKit
#else
import StratusCloudKit
#endif

/// The app's own store, one JSON file: the notes, the edits not yet on the server, the last
/// record the server sent for each note (its system fields, so a save carries the change tag),
/// and each engine's state. Written after every change: a relaunch finds everything, an unsent
/// edit included.
struct NoteStore: Codable {
    var notes: [NoteKey: Note] = [:]
    /// Notes edited or deleted here and not yet acknowledged by the server.
    var unsent: Set<NoteKey> = []
    /// The server's last record of each note, as `encodeSystemFields(with:)` archives it.
    var systemFields: [NoteKey: Data] = [:]
    var privateState: CKSyncEngine.State.Serialization?
    var sharedState: CKSyncEngine.State.Serialization?
    /// The user's own folders (zones) known on the server or queued to be saved there.
    var folders: Set<String> = []
    /// Folders this user shares with others.
    var sharedFolders: Set<String> = []

    static func load(from url: URL) throws -> NoteStore {
        guard FileManager.default.fileExists(atPath: url.path) else { return NoteStore() }
        return try JSONDecoder().decode(NoteStore.self, from: Data(contentsOf: url))
    }

    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }

    /// The server's last version of a note as a record to save over, else a new record.
    func record(for note: Note) -> CKRecord {
        if let data = systemFields[NoteKey(note)], let coder = try? NSKeyedUnarchiver(forReadingFrom: data) {
            coder.requiresSecureCoding = true
            defer { coder.finishDecoding() }
            if let record = CKRecord(coder: coder) { return note.apply(to: record) }
        }
        return note.apply(to: CKRecord(recordType: Note.recordType, recordID: note.recordID))
    }

    /// Remembers the server's version of a record.
    mutating func remember(_ record: CKRecord, as key: NoteKey) {
        let coder = NSKeyedArchiver(requiringSecureCoding: true)
        record.encodeSystemFields(with: coder)
        coder.finishEncoding()
        systemFields[key] = coder.encodedData
    }

    /// Forgets a folder's notes (it was deleted, or is no longer shared with this user).
    mutating func forget(folder: String, owner: String) {
        if owner == CKCurrentUserDefaultName { folders.remove(folder) }
        for key in notes.keys where key.folder == folder && key.owner == owner { notes[key] = nil }
        for key in systemFields.keys where key.folder == folder && key.owner == owner { systemFields[key] = nil }
        unsent = unsent.filter { !($0.folder == folder && $0.owner == owner) }
    }
}
