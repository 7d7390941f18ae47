import StratusModel

/// Puts download URLs on the asset values of records being answered: signed, expiring URLs on
/// the host the client reached. Only a caller who may read a record is answered it, so only
/// they get its URLs (share participants included; everyone in the public database).
struct AssetLinks: Sendable {
    let signer: AssetSigner
    let origin: String
    /// When the URLs stop serving (milliseconds since 1970).
    let expires: Int64

    /// The download URL of one blob: `…/assets/download/<ticket>/${f}`.
    func url(checksum: String) -> String {
        let ticket = signer.sign(DownloadTicket(checksum: checksum, expires: expires), for: .download)
        return "\(origin)/stratus/v1/assets/download/\(ticket)/\(AssetValue.fileNamePlaceholder)"
    }

    /// The fields with a `downloadURL` on every asset; fields without assets are returned as they are.
    func decorate(_ fields: [String: Field]) -> [String: Field] {
        guard fields.values.contains(where: { $0.type.isAsset }) else { return fields }
        var decorated = fields
        for (name, field) in fields where field.type.isAsset {
            let value = field.value.mappingAssets { asset in
                var asset = asset.stored
                if let checksum = asset.fileChecksum { asset.downloadURL = url(checksum: checksum) }
                return asset
            }
            decorated[name] = Field(value, type: field.type)
        }
        return decorated
    }
}
