import Foundation

/// Key-value coding on a record, as Apple's `CKRecord` answers it: `value(forKey:)` reads a field
/// (`nil` for a key the record has no field for) and `setValue(_:forKey:)` sets one, `nil`
/// clearing it — the same as ``CKRecord/object(forKey:)`` and ``CKRecord/setObject(_:forKey:)``.
/// On Apple platforms these override `NSObject`'s; Linux's Foundation has no key-value coding, so
/// here they are the record's own.
extension CKRecord {
    #if canImport(Darwin)
    /// The value of the field `key`; `nil` when the record has none.
    public override func value(forKey key: String) -> Any? { object(forKey: key) }

    /// Sets the field `key` (`nil` clears it). A value CloudKit cannot store leaves it unchanged.
    public override func setValue(_ value: Any?, forKey key: String) { setField(value, forKey: key) }
    #else
    /// The value of the field `key`; `nil` when the record has none.
    public func value(forKey key: String) -> Any? { object(forKey: key) }

    /// Sets the field `key` (`nil` clears it). A value CloudKit cannot store leaves it unchanged.
    public func setValue(_ value: Any?, forKey key: String) { setField(value, forKey: key) }
    #endif

    /// Sets or clears a field from a value of any type.
    private func setField(_ value: Any?, forKey key: String) {
        guard let value else {
            setObject(nil, forKey: key)
            return
        }
        guard let stored = value as? any CKRecordValue else { return }
        setObject(stored, forKey: key)
    }
}
