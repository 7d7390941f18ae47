import Foundation

/// A group of operations that together do one thing the user asked for (a first sync, an
/// import): a name, how many items and how much data, and the configuration its operations
/// start from. As on Apple's service the group labels work; it changes nothing about how the
/// operations run. ``CKOperation/group`` and CKSyncEngine's options carry one.
// `@unchecked Sendable` (as Apple declares it): its mutable properties live in `stored`, under `state`.
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

    /// The properties an app sets, read and written under `state` only.
    private struct State {
        var defaultConfiguration = CKOperation.Configuration()
        var name: String?
        var quantity = 0
        var expectedSendSize = TransferSize.unknown
        var expectedReceiveSize = TransferSize.unknown
    }

    /// The group's identifier, unique to it.
    public let operationGroupID: String
    private let state = NSLock()
    private var stored = State()

    public override init() {
        operationGroupID = UUID().uuidString
        super.init()
    }

    /// The configuration an operation of the group starts from.
    open var defaultConfiguration: CKOperation.Configuration! {
        get { state.withLock { stored.defaultConfiguration } }
        set { state.withLock { stored.defaultConfiguration = newValue ?? CKOperation.Configuration() } }
    }
    /// What the group does, as the app names it.
    open var name: String? {
        get { state.withLock { stored.name } }
        set { state.withLock { stored.name = newValue } }
    }
    /// How many items the group's operations handle.
    open var quantity: Int {
        get { state.withLock { stored.quantity } }
        set { state.withLock { stored.quantity = newValue } }
    }
    open var expectedSendSize: TransferSize {
        get { state.withLock { stored.expectedSendSize } }
        set { state.withLock { stored.expectedSendSize = newValue } }
    }
    open var expectedReceiveSize: TransferSize {
        get { state.withLock { stored.expectedReceiveSize } }
        set { state.withLock { stored.expectedReceiveSize = newValue } }
    }

    /// A group with the same ID, name, quantity and sizes.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CKOperationGroup(operationGroupID: operationGroupID)
        let values = state.withLock { stored }
        copy.state.withLock { copy.stored = values }
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
