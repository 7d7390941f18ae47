import Foundation
import Synchronization

/// A group of operations that together do one thing the user asked for (a first sync, an
/// import): a name, how many items and how much data, and the configuration its operations
/// start from. As on Apple's service the group labels work; it changes nothing about how the
/// operations run. ``CKOperation/group`` and CKSyncEngine's options carry one.
// `@unchecked Sendable` as Apple declares it (it is open): its mutable properties live in `stored`, a `Mutex`.
open class CKOperationGroup: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    /// About how much data the group's operations move.
    public enum TransferSize: Int, Sendable, Hashable {
        case unknown = 0
        case kilobytes = 1
        case megabytes = 2
        case tensOfMegabytes = 3
        case hundredsOfMegabytes = 4
        case gigabytes = 5
        case tensOfGigabytes = 6
        case hundredsOfGigabytes = 7
    }

    /// The properties an app sets.
    private struct State {
        var defaultConfiguration = CKOperation.Configuration()
        var name: String?
        var quantity = 0
        var expectedSendSize = TransferSize.unknown
        var expectedReceiveSize = TransferSize.unknown
    }

    /// The group's identifier, unique to it.
    public let operationGroupID: String
    private let stored = Mutex(State())

    public override init() {
        operationGroupID = UUID().uuidString
        super.init()
    }

    /// The configuration an operation of the group starts from.
    open var defaultConfiguration: CKOperation.Configuration! {
        get { stored.withLock { $0.defaultConfiguration } }
        set { stored.withLock { $0.defaultConfiguration = newValue ?? CKOperation.Configuration() } }
    }
    /// What the group does, as the app names it.
    open var name: String? {
        get { stored.withLock { $0.name } }
        set { stored.withLock { $0.name = newValue } }
    }
    /// How many items the group's operations handle.
    open var quantity: Int {
        get { stored.withLock { $0.quantity } }
        set { stored.withLock { $0.quantity = newValue } }
    }
    open var expectedSendSize: TransferSize {
        get { stored.withLock { $0.expectedSendSize } }
        set { stored.withLock { $0.expectedSendSize = newValue } }
    }
    open var expectedReceiveSize: TransferSize {
        get { stored.withLock { $0.expectedReceiveSize } }
        set { stored.withLock { $0.expectedReceiveSize = newValue } }
    }

    /// A group with the same ID, name, quantity and sizes.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CKOperationGroup(operationGroupID: operationGroupID)
        let values = stored.withLock { $0 }
        copy.stored.withLock { $0 = values }
        return copy
    }

    private init(operationGroupID: String) {
        self.operationGroupID = operationGroupID
        super.init()
    }

    open override var description: String { "<CKOperationGroup: \(operationGroupID) \"\(name ?? "")\" quantity \(quantity)>" }

    // MARK: - Coding

    public class var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(operationGroupID as NSString, forKey: "operationGroupID")
        if let name { coder.encode(name as NSString, forKey: "name") }
        coder.encode(Int64(quantity), forKey: "quantity")
        coder.encode(Int64(expectedSendSize.rawValue), forKey: "expectedSendSize")
        coder.encode(Int64(expectedReceiveSize.rawValue), forKey: "expectedReceiveSize")
    }

    public required init?(coder: NSCoder) {
        operationGroupID = coder.string("operationGroupID") ?? UUID().uuidString
        super.init()
        name = coder.string("name")
        quantity = Int(coder.decodeInt64(forKey: "quantity"))
        expectedSendSize = TransferSize(rawValue: Int(coder.decodeInt64(forKey: "expectedSendSize"))) ?? .unknown
        expectedReceiveSize = TransferSize(rawValue: Int(coder.decodeInt64(forKey: "expectedReceiveSize"))) ?? .unknown
    }
}
