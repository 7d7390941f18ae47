import Foundation
import Synchronization
import StratusModel

extension CKSubscription {
    /// How a subscription's notifications are presented: the alert, its title and subtitle, the
    /// sound, the badge, the category, the record fields a query notification carries
    /// (`desiredKeys`), silent (`shouldSendContentAvailable`) or mutable delivery. Sent with the
    /// subscription and fetched back; the server's courier payload carries the alert and a query
    /// notification the desired keys' values (``CKQueryNotification/recordFields``).
    public typealias NotificationInfo = CKNotificationInfo
}

/// `CKSubscription.NotificationInfo` (top-level, as its Objective-C name, for archives). A flag
/// left `false` is not sent (CKWS clients listing subscriptions see only what was set).
// `@unchecked Sendable` as Apple declares it (it is open): its properties live in `info`, a `Mutex`.
open class CKNotificationInfo: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    private let info = Mutex(StratusModel.NotificationInfo())

    public override init() {
        super.init()
    }

    /// Every property at once, as Apple's Swift initializer takes them (empty lists are none).
    public convenience init(
        alertBody: String? = nil, alertLocalizationKey: String? = nil, alertLocalizationArgs: [CKRecord.FieldKey] = [], title: String? = nil,
        titleLocalizationKey: String? = nil, titleLocalizationArgs: [CKRecord.FieldKey] = [], subtitle: String? = nil,
        subtitleLocalizationKey: String? = nil, subtitleLocalizationArgs: [CKRecord.FieldKey] = [], alertActionLocalizationKey: String? = nil,
        alertLaunchImage: String? = nil, soundName: String? = nil, desiredKeys: [CKRecord.FieldKey] = [], shouldBadge: Bool = false,
        shouldSendContentAvailable: Bool = false, shouldSendMutableContent: Bool = false, category: String? = nil, collapseIDKey: String? = nil
    ) {
        self.init()
        var info = StratusModel.NotificationInfo(alertBody: alertBody, soundName: soundName)
        info.alertLocalizationKey = alertLocalizationKey
        info.alertLocalizationArgs = alertLocalizationArgs.isEmpty ? nil : alertLocalizationArgs
        info.title = title
        info.titleLocalizationKey = titleLocalizationKey
        info.titleLocalizationArgs = titleLocalizationArgs.isEmpty ? nil : titleLocalizationArgs
        info.subtitle = subtitle
        info.subtitleLocalizationKey = subtitleLocalizationKey
        info.subtitleLocalizationArgs = subtitleLocalizationArgs.isEmpty ? nil : subtitleLocalizationArgs
        info.alertActionLocalizationKey = alertActionLocalizationKey
        info.alertLaunchImage = alertLaunchImage
        info.desiredKeys = desiredKeys.isEmpty ? nil : desiredKeys
        info.shouldBadge = shouldBadge ? true : nil
        info.shouldSendContentAvailable = shouldSendContentAvailable ? true : nil
        info.shouldSendMutableContent = shouldSendMutableContent ? true : nil
        info.category = category
        info.collapseIDKey = collapseIDKey
        self.wire = info
    }

    /// The info as the wire carries it.
    var wire: StratusModel.NotificationInfo {
        get { info.withLock { $0 } }
        set { info.withLock { $0 = newValue } }
    }

    convenience init(wire: StratusModel.NotificationInfo) {
        self.init()
        self.wire = wire
    }

    private func value<T: Sendable>(_ path: KeyPath<StratusModel.NotificationInfo, T>) -> T { info.withLock { $0[keyPath: path] } }
    private func update<T: Sendable>(_ path: WritableKeyPath<StratusModel.NotificationInfo, T>, _ value: T) { info.withLock { $0[keyPath: path] = value } }

    open var alertBody: String? {
        get { value(\.alertBody) }
        set { update(\.alertBody, newValue) }
    }
    open var alertLocalizationKey: String? {
        get { value(\.alertLocalizationKey) }
        set { update(\.alertLocalizationKey, newValue) }
    }
    open var alertLocalizationArgs: [CKRecord.FieldKey]? {
        get { value(\.alertLocalizationArgs) }
        set { update(\.alertLocalizationArgs, newValue) }
    }
    open var title: String? {
        get { value(\.title) }
        set { update(\.title, newValue) }
    }
    open var titleLocalizationKey: String? {
        get { value(\.titleLocalizationKey) }
        set { update(\.titleLocalizationKey, newValue) }
    }
    open var titleLocalizationArgs: [CKRecord.FieldKey]? {
        get { value(\.titleLocalizationArgs) }
        set { update(\.titleLocalizationArgs, newValue) }
    }
    open var subtitle: String? {
        get { value(\.subtitle) }
        set { update(\.subtitle, newValue) }
    }
    open var subtitleLocalizationKey: String? {
        get { value(\.subtitleLocalizationKey) }
        set { update(\.subtitleLocalizationKey, newValue) }
    }
    open var subtitleLocalizationArgs: [CKRecord.FieldKey]? {
        get { value(\.subtitleLocalizationArgs) }
        set { update(\.subtitleLocalizationArgs, newValue) }
    }
    open var alertActionLocalizationKey: String? {
        get { value(\.alertActionLocalizationKey) }
        set { update(\.alertActionLocalizationKey, newValue) }
    }
    open var alertLaunchImage: String? {
        get { value(\.alertLaunchImage) }
        set { update(\.alertLaunchImage, newValue) }
    }
    open var soundName: String? {
        get { value(\.soundName) }
        set { update(\.soundName, newValue) }
    }
    open var desiredKeys: [CKRecord.FieldKey]? {
        get { value(\.desiredKeys) }
        set { update(\.desiredKeys, newValue) }
    }
    open var shouldBadge: Bool {
        get { value(\.shouldBadge) ?? false }
        set { update(\.shouldBadge, newValue ? true : nil) }
    }
    open var shouldSendContentAvailable: Bool {
        get { value(\.shouldSendContentAvailable) ?? false }
        set { update(\.shouldSendContentAvailable, newValue ? true : nil) }
    }
    open var shouldSendMutableContent: Bool {
        get { value(\.shouldSendMutableContent) ?? false }
        set { update(\.shouldSendMutableContent, newValue ? true : nil) }
    }
    open var category: String? {
        get { value(\.category) }
        set { update(\.category, newValue) }
    }
    open var collapseIDKey: String? {
        get { value(\.collapseIDKey) }
        set { update(\.collapseIDKey, newValue) }
    }

    open func copy(with zone: NSZone? = nil) -> Any { CKNotificationInfo(wire: wire) }

    // MARK: - Coding

    public class var supportsSecureCoding: Bool { true }

    /// Archived as the wire's JSON (every property, and only those set).
    public func encode(with coder: NSCoder) {
        if let data = try? JSONEncoder().encode(wire) { coder.encode(data as NSData, forKey: "NotificationInfo") }
    }

    public required init?(coder: NSCoder) {
        super.init()
        if let data = coder.data("NotificationInfo"),
            let decoded = try? JSONDecoder().decode(StratusModel.NotificationInfo.self, from: data)
        {
            info.withLock { $0 = decoded }
        }
    }
}
