/// A notification in the shape Apple's courier delivers it: one APNs payload, `{aps, ck}`, per
/// answer — what `GET <webcourierURL>?format=apns` answers, for web clients written against
/// Apple's courier. The `ck` dictionary is not publicly documented; its keys here are the ones
/// seen in CloudKit's payloads and read by `CKNotification(fromRemoteNotificationDictionary:)`:
/// `cid` container, `ce` environment (1 development, 2 production), `nid` notification ID, and
/// one of `met` (database), `fet` (record zone) or `qry` (query) with `dbs` (database scope:
/// 1 public, 2 private, 3 shared), `sid` subscription ID, `zid`/`zoid` zone name and owner, and
/// for queries `rid` record name, `fo` reason (1 created, 2 updated, 3 deleted) and `af` the
/// record's values of the subscription's `desiredKeys` (``RecordField``); `ckuserid` names the
/// subscription's owner. Like APNs, a payload holds at most ``byteLimit`` bytes: `af` values that
/// do not fit are left out (and `p` set), as CloudKit drops `desiredKeys` data first.
public struct ApplePushPayload: Sendable, Hashable, Codable {
    /// The APNs part: silent (`content-available`) unless the subscription asked for an alert.
    public struct APS: Sendable, Hashable, Codable {
        public struct Alert: Sendable, Hashable, Codable {
            public var body: String?
            public var locKey: String?
            public var locArgs: [String]?
            public var title: String?
            public var titleLocKey: String?
            public var titleLocArgs: [String]?
            public var subtitle: String?
            public var subtitleLocKey: String?
            public var subtitleLocArgs: [String]?
            public var actionLocKey: String?
            public var launchImage: String?

            enum CodingKeys: String, CodingKey {
                case body, title, subtitle
                case locKey = "loc-key"
                case locArgs = "loc-args"
                case titleLocKey = "title-loc-key"
                case titleLocArgs = "title-loc-args"
                case subtitleLocKey = "subtitle-loc-key"
                case subtitleLocArgs = "subtitle-loc-args"
                case actionLocKey = "action-loc-key"
                case launchImage = "launch-image"
            }

            /// The alert a subscription's info asks for; `nil` when it asks for none.
            init?(_ info: NotificationInfo?) {
                guard let info else { return nil }
                body = info.alertBody
                locKey = info.alertLocalizationKey
                locArgs = info.alertLocalizationArgs
                title = info.title
                titleLocKey = info.titleLocalizationKey
                titleLocArgs = info.titleLocalizationArgs
                subtitle = info.subtitle
                subtitleLocKey = info.subtitleLocalizationKey
                subtitleLocArgs = info.subtitleLocalizationArgs
                actionLocKey = info.alertActionLocalizationKey
                launchImage = info.alertLaunchImage
                guard body != nil || locKey != nil || title != nil || titleLocKey != nil || subtitle != nil || subtitleLocKey != nil else { return nil }
            }
        }

        public var alert: Alert?
        public var sound: String?
        public var contentAvailable: Int?
        public var mutableContent: Int?
        public var category: String?

        enum CodingKeys: String, CodingKey {
            case alert, sound, category
            case contentAvailable = "content-available"
            case mutableContent = "mutable-content"
        }
    }

    /// The CloudKit part.
    public struct CK: Sendable, Hashable, Codable {
        /// Where the change happened: one of `met`, `fet`, `qry`.
        public struct Source: Sendable, Hashable, Codable {
            public var dbs: Int
            public var sid: String?
            public var zid: String?
            public var zoid: String?
            public var rid: String?
            public var fo: Int?
            /// Queries: the record's values of the subscription's `desiredKeys`, by key.
            public var af: [String: RecordField]?
        }

        public var cid: String
        public var ce: Int?
        public var nid: String
        /// Set on the notification that stands for notifications dropped from the feed, and
        /// when record fields were left out of `qry.af` to stay within ``byteLimit``.
        public var p: Bool?
        public var met: Source?
        public var fet: Source?
        public var qry: Source?
        /// The user record name of the subscription's owner (`subscriptionOwnerUserRecordID`).
        public var ckuserid: String?
    }

    public var aps: APS
    public var ck: CK

    /// The payload Apple's courier would carry for `notification`: at most `byteLimit` bytes of
    /// JSON as the server writes it, the record's fields that do not fit left out (`nil`: all kept).
    public init(_ notification: PushNotification, byteLimit: Int? = ApplePushPayload.byteLimit) {
        let info = notification.notificationInfo
        let alert = APS.Alert(info)
        let silent = alert == nil || info?.shouldSendContentAvailable == true
        aps = APS(
            alert: alert, sound: info?.soundName, contentAvailable: silent ? 1 : nil, mutableContent: info?.shouldSendMutableContent == true ? 1 : nil,
            category: info?.category
        )
        let scope: Int =
            switch notification.databaseScope {
            case .public: 1
            case .private: 2
            case .shared: 3
            }
        var source = CK.Source(dbs: scope, sid: notification.subscriptionID)
        ck = CK(
            cid: notification.containerIdentifier, ce: notification.environment.map { $0 == .production ? 2 : 1 },
            nid: notification.notificationID, p: notification.isPruned ? true : nil
        )
        switch notification.notificationType {
        case .database:
            ck.met = source
        case .recordZone:
            source.zid = notification.zoneID?.zoneName
            source.zoid = notification.zoneID?.ownerRecordName
            ck.fet = source
        case .query:
            source.zid = notification.zoneID?.zoneName
            source.zoid = notification.zoneID?.ownerRecordName
            source.rid = notification.recordName
            source.fo =
                switch notification.queryNotificationReason {
                case .recordCreated: 1
                case .recordUpdated: 2
                case .recordDeleted: 3
                case nil: nil
                }
            ck.qry = source
        }
        ck.ckuserid = notification.subscriptionOwnerUserRecordName
        addRecordFields(of: notification, byteLimit: byteLimit)
    }
}
