import Foundation
import StratusModel

/// Assets on a device, as NSPersistentCloudKitContainer moves a large attribute: the app attaches
/// a file, it is copied into the mirror's asset directory and uploaded when its record is sent
/// (only when the server does not hold those bytes on that record yet); a fetched record's
/// assets are downloaded before the record is imported.
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

    /// The operation with its new assets uploaded and their receipts in place; `nil` (the change
    /// stays pending) when an upload fails or a file is missing.
    func uploadingAssets(_ operation: RecordOperation, key: RecordKey) async -> RecordOperation? {
        guard let fields = operation.record.fields, fields.values.contains(where: { $0.type.isAsset }) else { return operation }
        guard let database = database(for: key.scope) else { return nil }
        let server = (try? store.record(key))??.serverRecord?.fields ?? [:]
        var operation = operation
        for (name, field) in fields where field.type.isAsset {
            let held = Set(server[name]?.value.assets.compactMap(\.fileChecksum) ?? [])
            var uploaded: [String: AssetValue] = [:]
            for asset in field.value.assets {
                guard asset.receipt == nil, let checksum = asset.fileChecksum, !held.contains(checksum), uploaded[checksum] == nil else {
                    continue
                }
                let cacheKey = "\(key)|\(name)|\(checksum)"
                if let earlier = uploadedAssets[cacheKey] {
                    uploaded[checksum] = earlier
                    continue
                }
                guard let data = try? Data(contentsOf: store.assets.file(for: checksum)) else { return nil }
                do {
                    uploaded[checksum] = try await database.uploadAsset(
                        data, recordType: operation.record.recordType ?? "", fieldName: name, recordName: key.recordName, in: key.zoneID
                    )
                    uploadedAssets[cacheKey] = uploaded[checksum]
                    log(key.scope, "assetUploaded")
                } catch {
                    log(key.scope, "assetUploadFailed")
                    return nil
                }
            }
            if uploaded.isEmpty { continue }
            let value = field.value.mappingAssets { asset in asset.fileChecksum.flatMap { uploaded[$0] } ?? asset }
            operation.record.fields?[name] = Field(value, type: field.type)
        }
        return operation
    }

    /// Downloads the assets of fetched records that are not on this device yet.
    func downloadAssets(of records: [Record], scope: DatabaseScope) async throws {
        guard let database = database(for: scope) else { return }
        for record in records {
            for field in (record.fields ?? [:]).values where field.type.isAsset {
                for asset in field.value.assets {
                    guard let checksum = asset.fileChecksum, asset.downloadURL != nil, !store.assets.contains(checksum) else { continue }
                    try store.assets.store(try await database.downloadAsset(asset), as: checksum)
                }
            }
        }
    }

    private func database(for scope: DatabaseScope) -> CloudDatabase? {
        guard let container else { return nil }
        return scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
    }
}
