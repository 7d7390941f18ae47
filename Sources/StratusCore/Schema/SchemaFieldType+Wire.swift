import StratusModel

extension SchemaFieldType {
    /// The schema type of a CKWS field type tag: `STRING_LIST` is `LIST<STRING>`,
    /// `ENCRYPTED_BYTES` is `ENCRYPTED BYTES`, and `ASSETID` (an asset being uploaded) is `ASSET`.
    public init(wireType: FieldType) {
        switch wireType {
        case .string: self.init(.string)
        case .int64: self.init(.int64)
        case .double: self.init(.double)
        case .timestamp: self.init(.timestamp)
        case .bytes: self.init(.bytes)
        case .encryptedBytes: self.init(.bytes, isEncrypted: true)
        case .location: self.init(.location)
        case .reference: self.init(.reference)
        case .asset, .assetID: self.init(.asset)
        case .stringList: self.init(.string, isList: true)
        case .int64List: self.init(.int64, isList: true)
        case .doubleList: self.init(.double, isList: true)
        case .timestampList: self.init(.timestamp, isList: true)
        case .bytesList: self.init(.bytes, isList: true)
        case .locationList: self.init(.location, isList: true)
        case .referenceList: self.init(.reference, isList: true)
        case .assetList, .assetIDList: self.init(.asset, isList: true)
        }
    }

    /// The CKWS field type tag of this type: `LIST<STRING>` is `STRING_LIST`, `ASSET` is `ASSET`,
    /// `ENCRYPTED BYTES` is `ENCRYPTED_BYTES`. `nil` for the other encrypted types, which CKWS
    /// has no tag for.
    public var wireType: FieldType? {
        if isEncrypted {
            return scalar == .bytes && !isList ? .encryptedBytes : nil
        }
        let element: FieldType =
            switch scalar {
            case .string: .string
            case .int64: .int64
            case .double: .double
            case .timestamp: .timestamp
            case .bytes: .bytes
            case .reference: .reference
            case .asset: .asset
            case .location: .location
            }
        return isList ? element.listType : element
    }
}
