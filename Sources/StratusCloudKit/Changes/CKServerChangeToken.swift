import Foundation

/// An opaque point in a database's or zone's change history. Archive it with `NSKeyedArchiver`
/// to resume fetching where the last fetch ended, across launches.
public final class CKServerChangeToken: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    /// The server's token (CKWS `syncToken`).
    let value: String

    init(_ value: String) {
        self.value = value
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) { coder.encode(value as NSString, forKey: "value") }

    public init?(coder: NSCoder) {
        guard let value = coder.decodeObject(of: NSString.self, forKey: "value") else { return nil }
        self.value = value as String
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool { (object as? CKServerChangeToken)?.value == value }

    public override var hash: Int { value.hashValue }

    public override var description: String { "<CKServerChangeToken \(value.prefix(16))…>" }
}
