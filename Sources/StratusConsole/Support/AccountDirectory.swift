import StratusCore
import StratusModel

/// The server's accounts by user record name, read once per page: names for the people a page mentions.
struct AccountDirectory: Sendable {
    let accounts: [AccountInfo]
    private let byName: [String: AccountInfo]

    init(_ accounts: [AccountInfo]) {
        self.accounts = accounts
        self.byName = Dictionary(accounts.map { ($0.userRecordName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func load(_ identity: IdentityService) async throws(CoreError) -> AccountDirectory {
        AccountDirectory(try await identity.accounts(limit: 1_000))
    }

    func account(_ userRecordName: String?) -> AccountInfo? { userRecordName.flatMap { byName[$0] } }

    /// A person's name: given and family name, else the email, else the record name.
    func name(_ userRecordName: String?) -> String {
        guard let userRecordName else { return "—" }
        guard let account = byName[userRecordName] else { return userRecordName }
        return Self.name(account)
    }

    static func name(_ account: AccountInfo) -> String {
        let names = [account.givenName, account.familyName].compactMap { $0 }.filter { !$0.isEmpty }
        return names.isEmpty ? account.email : names.joined(separator: " ")
    }

    /// The name with the email: what links to an account say.
    static func label(_ account: AccountInfo) -> String { "\(name(account)) (\(account.email))" }

    /// The accounts as a select's options (name and email), `selected` chosen.
    func choices(selected: String?) -> [[String: Any]] {
        accounts.map { ["value": $0.userRecordName, "label": Self.label($0), "selected": $0.userRecordName == selected] }
    }
}
