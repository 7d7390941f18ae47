import StratusModel
import StratusStore

/// Checks the asset values of a record write: a value with a receipt must carry one this
/// server signed for the caller, in this container and environment, not expired (the store
/// then claims it in the batch); a value without one must be an asset the record already holds
/// (a client sending back what it fetched). Values are stored without receipt or download URL.
struct AssetReceipts: Sendable {
    let signer: AssetSigner
    let owner: String
    let container: String
    let environment: ContainerEnvironment
    /// Milliseconds since 1970.
    let now: Int64

    /// The write with its assets checked and normalised, or the reason it is refused.
    func check(_ write: RecordWrite) -> Result<RecordWrite, AssetRefusal> {
        guard write.fields.values.contains(where: { $0.type.isAsset }) else { return .success(write) }
        var write = write
        for (name, field) in write.fields where field.type.isAsset {
            var refusal: AssetRefusal?
            let value = field.value.mappingAssets { asset in
                guard refusal == nil else { return asset }
                switch stored(asset, field: name) {
                case .success(let (value, claim)):
                    if let claim { write.assetClaims.append(claim) } else if let checksum = value.fileChecksum { write.unclaimedAssets.insert(checksum) }
                    return value
                case .failure(let reason):
                    refusal = reason
                    return asset
                }
            }
            if let refusal { return .failure(refusal) }
            write.fields[name] = Field(value, type: field.type)
        }
        return .success(write)
    }

    private func stored(_ asset: AssetValue, field: String) -> Result<(AssetValue, AssetClaim?), AssetRefusal> {
        guard let token = asset.receipt else {
            guard asset.fileChecksum != nil else {
                return .failure(AssetRefusal(reason: "the asset of field '\(field)' has neither a receipt nor a fileChecksum"))
            }
            return .success((asset.stored, nil))
        }
        guard let receipt = signer.verify(token, as: AssetReceipt.self, for: .receipt) else {
            return .failure(AssetRefusal(reason: "the receipt of field '\(field)' was not issued by this server"))
        }
        guard receipt.owner == owner else {
            return .failure(AssetRefusal(reason: "the receipt of field '\(field)' was issued to another account"))
        }
        guard receipt.container == container, receipt.environment == environment else {
            return .failure(AssetRefusal(reason: "the receipt of field '\(field)' was issued for another container or environment"))
        }
        guard now < receipt.expires else {
            return .failure(AssetRefusal(reason: "the receipt of field '\(field)' has expired: upload the asset again"))
        }
        if let given = asset.fileChecksum, given != receipt.checksum {
            return .failure(AssetRefusal(reason: "the fileChecksum of field '\(field)' does not match its receipt"))
        }
        var value = asset.stored
        value.fileChecksum = receipt.checksum
        value.size = receipt.size
        if value.referenceChecksum == nil { value.referenceChecksum = receipt.checksum }
        return .success((value, AssetClaim(uploadID: receipt.id, checksum: receipt.checksum, fieldName: field)))
    }
}

/// Why a write's asset was refused: a per-item `BAD_REQUEST`.
struct AssetRefusal: Error, Sendable {
    var reason: String
}
