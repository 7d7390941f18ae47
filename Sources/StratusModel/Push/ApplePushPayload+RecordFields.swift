import Foundation

extension ApplePushPayload {
    /// The most bytes of JSON an APNs payload may hold (4 KB): what Apple's courier delivers.
    public static let byteLimit = 4_096

    /// A value of a query notification's `af` (the record's values of the subscription's
    /// `desiredKeys`): a STRING as a JSON string and an INT64 or DOUBLE as a JSON number, as the
    /// values read from a property list; a TIMESTAMP, LOCATION or REFERENCE — which a bare JSON
    /// value cannot tell from a number or a dictionary — as records carry a field,
    /// `{"type", "value"}`.
    public struct RecordField: Sendable, Hashable, Codable {
        public var field: Field

        public init(_ field: Field) { self.field = field }

        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer() {
                if let text = try? single.decode(String.self) {
                    field = .string(text)
                    return
                }
                if let number = try? single.decode(Int64.self) {
                    field = .int64(number)
                    return
                }
                if let number = try? single.decode(Double.self) {
                    field = .double(number)
                    return
                }
            }
            field = try Field(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            switch field.value {
            case .string(let text):
                var single = encoder.singleValueContainer()
                try single.encode(text)
            case .int64(let number):
                var single = encoder.singleValueContainer()
                try single.encode(number)
            case .double(let number):
                var single = encoder.singleValueContainer()
                try single.encode(number)
            default:
                try field.encode(to: encoder)
            }
        }
    }

    /// Puts the notification's record fields in `ck.qry.af`, in the order of the subscription's
    /// `desiredKeys`, each only when the payload still fits `byteLimit`; sets `p` when one is
    /// left out (CloudKit drops `desiredKeys` data first, and says so with `isPruned`).
    mutating func addRecordFields(of notification: PushNotification, byteLimit: Int?) {
        guard let fields = notification.recordFields, !fields.isEmpty, ck.qry != nil else { return }
        let desired = notification.notificationInfo?.notifiedKeys ?? []
        var order: [String] = []
        var listed = Set<String>()
        for key in desired + fields.keys.sorted() where fields[key] != nil && listed.insert(key).inserted { order.append(key) }
        guard let byteLimit else {
            ck.qry?.af = fields.mapValues { RecordField($0) }
            return
        }
        let wasPruned = ck.p
        // Measured as if pruned: the flag's bytes must fit beside whatever is kept.
        ck.p = true
        var kept: [String: RecordField] = [:]
        var dropped = false
        for key in order {
            guard let field = fields[key] else { continue }
            kept[key] = RecordField(field)
            ck.qry?.af = kept
            if !fits(byteLimit) {
                kept[key] = nil
                dropped = true
            }
        }
        ck.qry?.af = kept.isEmpty ? nil : kept
        ck.p = dropped ? true : wasPruned
    }

    /// Whether this payload, as the server writes it (slashes unescaped), holds at most `limit` bytes.
    private func fits(_ limit: Int) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let bytes = try? encoder.encode(self) else { return false }
        return bytes.count <= limit
    }
}
