/// `POST …/zones/modify`.
public struct ModifyZonesRequest: Sendable, Hashable, Codable {
    /// The `operationType` of a zone operation.
    public enum OperationType: String, Sendable, Hashable, Codable {
        case create, delete
    }

    /// The `zone` of an operation: just its ID.
    public struct ZoneRef: Sendable, Hashable, Codable {
        public var zoneID: ZoneID
        public init(zoneID: ZoneID) { self.zoneID = zoneID }
    }

    /// One zone operation.
    public struct Operation: Sendable, Hashable, Codable {
        public var operationType: OperationType
        public var zone: ZoneRef
        public init(_ operationType: OperationType, _ zoneID: ZoneID) {
            self.operationType = operationType
            self.zone = ZoneRef(zoneID: zoneID)
        }
    }

    public var operations: [Operation]
    public init(operations: [Operation]) { self.operations = operations }
}

/// `POST …/zones/lookup`.
public struct LookupZonesRequest: Sendable, Hashable, Codable {
    public var zones: [ZoneID]
    public init(zones: [ZoneID]) { self.zones = zones }
}

/// The response of zones/list, zones/lookup and zones/modify.
public struct ZonesResponse: Sendable, Hashable, Codable {
    public var zones: [ZoneResult]
    public init(zones: [ZoneResult]) { self.zones = zones }
}
