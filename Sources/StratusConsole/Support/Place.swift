import StratusCore
import StratusModel

/// Where in the data a console page is: a container environment and, further down, an account
/// acting, one of its databases, a zone (with its owner in the shared database) and a record.
/// It builds the links between pages and the scope the console acts in.
struct Place: Sendable, Hashable {
    var container: String
    var environment: ContainerEnvironment
    var user: String?
    var scope: DatabaseScope?
    var zone: String?
    /// The zone's owner: the acting account in its private database, another in its shared one.
    var owner: String?

    /// Every console page of a container environment starts here.
    var base: String { "/console/c/\(QueryText.encode(container))/\(environment.rawValue)" }
    var accountPath: String { "\(base)/u/\(QueryText.encode(user ?? ""))" }
    var databasePath: String { "\(accountPath)/\(scope?.rawValue ?? "private")" }

    /// The zone page (and its query, with `extra` pairs).
    func zonePath(_ page: String = "zone", _ extra: [(String, String?)] = []) -> String {
        "\(databasePath)/\(page)?" + QueryText.join([("zone", zone), ("owner", owner)] + extra)
    }

    func recordPath(_ name: String) -> String { zonePath("record", [("name", name)]) }
    func sharePath(_ name: String) -> String { zonePath("share", [("name", name)]) }

    /// The zone as CKWS names it in this database (the owner only in the shared database).
    var zoneID: ZoneID? {
        zone.map { ZoneID(zoneName: $0, ownerRecordName: scope == .shared ? owner : nil) }
    }

    /// The request scope of the acting account in this database: what its own HTTP request would resolve to.
    func scope(origin: String) throws(ConsoleFailure) -> RequestScope {
        guard let user else { throw ConsoleFailure("Choose an account to act as.") }
        return RequestScope(
            database: DatabaseRef(container: container, environment: environment, scope: scope ?? .private),
            caller: .user(userRecordName: user), deviceID: Place.deviceID, origin: origin
        )
    }

    /// The device the console's writes name: records it saves say they came from the console.
    static let deviceID = "stratus-console"
}
