import ArgumentParser
import StratusModel

/// `stratus schema`: show a container's schema, add or remove an index, deploy development to production.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the schema, change indexes, or deploy development to production on a running server.",
        discussion: """
            stratus schema show [--container C] [--environment production]
            stratus schema add-index --container C --environment production --record-type Destination --field caption --index QUERYABLE
            stratus schema remove-index … (same options)
            stratus schema deploy --container C
            """
    )

    /// What to do.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case show, addIndex = "add-index", removeIndex = "remove-index", deploy
    }

    @Argument(help: "show, add-index, remove-index or deploy.") var action: Action
    @OptionGroup var connection: AdminConnection
    @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
    @Option(help: "Environment.") var environment: ContainerEnvironment = .development
    @Option(help: "Record type (add-index, remove-index).") var recordType: String?
    @Option(help: "Field, or a system index name such as ___recordID or ___recordId (add-index, remove-index).") var field: String?
    @Option(help: "QUERYABLE, SORTABLE or SEARCHABLE (add-index, remove-index).") var index: IndexKind?

    func run() async throws {
        let client = try connection.client()
        let container = try connection.container(self.container)
        do {
            switch action {
            case .show:
                try await client.post("schema/show", SchemaRequest(container: container, environment: environment))
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
            }
        } catch is ExitCodeError {
            throw ExitCode.failure
        }
    }
}
