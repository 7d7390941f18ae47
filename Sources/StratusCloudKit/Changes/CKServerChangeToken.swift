import Foundation

/// An opaque point in a database's or zone's change history. Archive it with `NSKeyedArchiver`
/// to resume fetching where the last fetch ended, across launches.
public final class CKServerChangeToken: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The server's token (CKWS `syncToken`); package access, so a test's scripted database
    /// (`StratusCloudKitTesting`) issues and reads tokens of its own.
    package let value: String

    package init(_ value: String) {
        self.value = value
    }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's key, `ChangeTokenData`: the server's token as UTF-8.
    public func encode(with coder: NSCoder) { coder.encode(Data(value.utf8) as NSData, forKey: "ChangeTokenData") }

    /// A token from an archive. One Apple's service issued (its bytes are not UTF-8 text) becomes
    /// a token Stratus answers as it answers any token it did not issue: `changeTokenExpired`,
    /// after which the app fetches from the start — what it does on Apple's service too.
    public init?(coder: NSCoder) {
        if let data = coder.data("ChangeTokenData") {
            value = String(data: data, encoding: .utf8) ?? data.base64EncodedString()
        } else if let legacy = coder.string("value") {
            value = legacy
        } else {
            return nil
        }
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool { (object as? CKServerChangeToken)?.value == value }

    public override var hash: Int { value.hashValue }

    public override var description: String { "<CKServerChangeToken \(value.prefix(16))…>" }
}
