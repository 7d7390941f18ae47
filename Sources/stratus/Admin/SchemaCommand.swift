import ArgumentParser
import StratusModel

/// `stratus schema`: show a container's schema, export or import it as the CloudKit Schema
/// Language, add or remove an index, deploy development to production, give users the roles the
/// schema makes.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show, export or import the schema, change indexes, deploy it, or give users its roles, on a running server.",
        discussion: """
            Export and import speak the CloudKit Schema Language, the .ckdb files of `xcrun cktool export-schema` and `import-schema`. An import with an error, or one that would drop a record type or field production has, is refused whole: nothing changes. Export writes to standard output without --file; import replaces development's schema, and deploy promotes it to production. add-member gives a user a role the schema makes with CREATE ROLE.

            Examples:
              stratus schema show [--container C] [--environment production]
              stratus schema export [--container C] [--environment E] [--file app.ckdb]
              stratus schema import --file app.ckdb [--container C]
              stratus schema add-index --container C --environment production \\
                  --record-type Destination --field caption --index QUERYABLE
              stratus schema remove-index … (same options)
              stratus schema deploy --container C
              stratus schema add-member --role Moderators --user alice [--container C]
              stratus schema remove-member --role Moderators --user alice
              stratus schema members [--container C]
            """
    )

    /// What to do.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case show, export, importSchema = "import", addIndex = "add-index", removeIndex = "remove-index", deploy
        case addMember = "add-member", removeMember = "remove-member", members
    }

    @Argument(help: "show, export, import, add-index, remove-index, deploy, add-member, remove-member or members.") var action: Action
    @OptionGroup var connection: AdminConnection
    @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
    @Option(help: "Environment (show, export, add-index, remove-index).") var environment: ContainerEnvironment = .development
    @Option(help: "Record type (add-index, remove-index).") var recordType: String?
    @Option(help: "Field, or a system index name such as ___recordID or ___recordId (add-index, remove-index).") var field: String?
    @Option(help: "QUERYABLE, SORTABLE or SEARCHABLE (add-index, remove-index).") var index: IndexKind?
    @Option(help: "The schema file: written by export (default: standard output), read by import.") var file: String?
    @Option(help: "A role the schema makes with CREATE ROLE (add-member, remove-member).") var role: String?
    @Option(help: "An account: its user record name, email, or dev name such as alice (add-member, remove-member).") var user: String?

    func run() async throws {
        let client = try connection.client()
        let container = try connection.container(self.container)
        do {
            switch action {
            case .show:
                try await client.post("schema/show", SchemaRequest(container: container, environment: environment))
            case .export:
                try await export(client, container: container)
            case .importSchema:
                try await importFile(client, container: container)
            case .deploy:
                try await client.post("schema/deploy", SchemaRequest(container: container))
            case .addIndex, .removeIndex:
                guard let recordType, let field, let index else {
                    throw ValidationError("add-index and remove-index need --record-type, --field and --index")
                }
                try await client.post("schema/indexes", IndexChangeRequest(
                    container: container, environment: environment, recordType: recordType, fieldName: field, index: index,
                    present: action == .addIndex
                ))
            case .addMember, .removeMember:
                guard let role, let user else { throw ValidationError("add-member and remove-member need --role and --user") }
                let userRecordName = try await connection.userRecordName(user)
                try await client.post("roles/members", RoleMembershipRequest(
                    container: container, role: role, userRecordName: userRecordName, present: action == .addMember
                ))
            case .members:
                try await client.get("roles/members?container=\(SchemaCommand.queryValue(container))")
            }
        } catch is ExitCodeError {
            throw ExitCode.failure
        }
    }
}
