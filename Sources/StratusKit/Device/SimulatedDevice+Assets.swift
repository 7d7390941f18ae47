import Foundation
import StratusCloudKit
import StratusModel

/// Assets on a device, as NSPersistentCloudKitContainer moves a large attribute: the app attaches
/// a file, it is copied into the mirror's asset directory and goes up as a `CKAsset` when its
/// record is sent (only when the server does not hold those bytes on that record yet); a fetched
/// record's assets come down with it, through CloudKit, and are kept.
extension SimulatedDevice {
    /// A field value holding a copy of `file` (uploaded on the next send).
    public func assetField(contentsOf file: URL) throws -> Field {
        Field(.asset(try store.assets.add(contentsOf: file)), type: .assetID)
    }

    /// A field value holding `data` (uploaded on the next send).
    public func assetField(_ data: Data) throws -> Field {
        Field(.asset(try store.assets.add(data)), type: .assetID)
    }

    /// The local file of a record's asset field: `nil` when the field holds no asset or its
    /// bytes are not on this device.
    public func assetFile(_ key: RecordKey, field: String) throws -> URL? {
        guard case .asset(let asset)? = try store.record(key)?.fields[field]?.value, let checksum = asset.fileChecksum,
            store.assets.contains(checksum)
        else { return nil }
        return store.assets.file(for: checksum)
    }

    /// Gives `record` (about to be sent) a `CKAsset` with the local file for each asset the
    /// server does not hold on that record yet — CloudKit uploads those with the save — and
    /// leaves the others as the server named them. A file gone from the device is handed over
    /// all the same, as an app's `CKAsset` names a file it does not check: CloudKit fails that
    /// record alone (`assetFileNotFound`) and the recovery drops the asset (`recover`).
    func attachNewAssets(to record: CKRecord, from operation: RecordOperation, key: RecordKey) {
        guard let fields = operation.record.fields, fields.values.contains(where: { $0.type.isAsset }) else { return }
        let server = (try? store.record(key))??.serverRecord?.fields ?? [:]
        for (name, field) in fields where field.type.isAsset {
            let held = Set(server[name]?.value.assets.compactMap(\.fileChecksum) ?? [])
            let local = field.value.assets.compactMap(\.fileChecksum)
            guard local.contains(where: { !held.contains($0) }) else { continue }
            let files = local.map { store.assets.file(for: $0) }
            let missing = !files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }
            if case .list = field.value {
                record[name] = files.map { CKAsset(fileURL: $0) }
            } else if let file = files.first {
                record[name] = CKAsset(fileURL: file)
            }
            log(key.scope, missing ? "assetMissing" : "assetUploaded")
        }
    }

    /// Keeps the files CloudKit downloaded with fetched records (an engine's fetch, a
    /// `CKFetchRecordsOperation`) in the mirror's asset folder: each asset is downloaded once.
    func keepDownloadedAssets(of records: [CKRecord]) throws {
        for record in records {
            for key in record.allKeys() {
                for asset in Self.assets(in: record[key]) {
                    guard let file = asset.fileURL, let checksum = asset.fileChecksum, !store.assets.contains(checksum) else { continue }
                    try store.assets.store(try Data(contentsOf: file), as: checksum)
                }
            }
        }
    }

    /// Whether the mirror holds the bytes of every asset of `record`.
    func holdsAssets(of record: CKRecord) -> Bool {
        record.allKeys().allSatisfy { key in
            Self.assets(in: record[key]).allSatisfy { asset in asset.fileChecksum.map(store.assets.contains) ?? true }
        }
    }

    /// The assets a field value holds: one, a list, or none.
    private static func assets(in value: (any CKRecordValue)?) -> [CKAsset] {
        (value as? CKAsset).map { [$0] } ?? (value as? [CKAsset]) ?? []
    }
}
