import ArgumentParser
import StratusModel

/// `stratus faults`: the fault rules of a running server (list, add, remove, clear).
struct FaultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults", abstract: "Inject failures into a running server's CKWS requests.",
        subcommands: [List.self, Add.self, Remove.self, Clear.self], defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules and how often each fired.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await AdminClient.run { try await connection.client().get("faults") } }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a rule: what it matches (every option given must match) and one action.",
            discussion: """
                Examples:
                  stratus faults add --endpoint records/modify --error THROTTLED --retry-after 2 --count 2
                  stratus faults add --record-type Photo --item-error QUOTA_EXCEEDED
                  stratus faults add --endpoint records/lookup --latency-ms 400 --count 1
                  stratus faults add --endpoint records/modify --drop-after-commit --count 1
                  stratus faults add --error TRY_AGAIN_LATER --retry-after 1 --probability 0.2 --seed 7
                """
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier.") var container: String?
        @Option(help: "Environment.") var environment: ContainerEnvironment?
        @Option(help: "Database: private, shared or public.") var database: DatabaseScope?
        @Option(help: "Endpoint after the database segment, e.g. records/modify.") var endpoint: String?
        @Option(help: "The caller's user record name.") var user: String?
        @Option(help: "Zone name the request body names.") var zone: String?
        @Option(help: "Record type the request body names.") var recordType: String?
        @Option(help: "Fail the request with this serverErrorCode (THROTTLED, TRY_AGAIN_LATER, QUOTA_EXCEEDED, …).") var error: String?
        @Option(help: "Seconds to put in retryAfter and Retry-After (with --error).") var retryAfter: Int?
        @Option(help: "Fail the matching records of records/modify with this serverErrorCode.") var itemError: String?
        @Option(help: "Answer this many milliseconds late.") var latencyMs: Int?
        @Flag(help: "Carry the request out, then close the connection without an answer.") var dropAfterCommit = false
        @Option(help: "Fire this many times, then retire.") var count: Int?
        @Option(help: "Fire on each matching request with this probability.") var probability: Double?
        @Option(help: "Seed of the probability draws (same seed, same requests fire).") var seed: UInt64?

        func validate() throws {
            let actions = [error != nil, itemError != nil, latencyMs != nil, dropAfterCommit].filter { $0 }.count
            guard actions == 1 else { throw ValidationError("give exactly one of --error, --item-error, --latency-ms, --drop-after-commit") }
            if let endpoint { _ = try Suggestion.require(endpoint, among: FaultMatch.endpoints, option: "--endpoint") }
            if let error { _ = try Self.code(error, option: "--error") }
            if let itemError { _ = try Self.code(itemError, option: "--item-error") }
        }

        /// A CloudKit Web Services error code, as the server documents it.
        static func code(_ value: String, option: String) throws -> ServerErrorCode {
            ServerErrorCode(try Suggestion.require(value, among: ServerErrorCode.documented.map(\.rawValue), option: option))
        }

        func run() async throws {
            let action: FaultAction =
                if let error { .error(try Self.code(error, option: "--error"), retryAfter: retryAfter) }
                else if let itemError { .itemError(try Self.code(itemError, option: "--item-error")) }
                else if let latencyMs { .latency(milliseconds: latencyMs) }
                else { .dropResponseAfterCommit }
            let match = FaultMatch(
                container: container, environment: environment, database: database, endpoint: endpoint,
                userRecordName: user, zoneName: zone, recordType: recordType
            )
            let request = CreateFaultRequest(match: match, action: action, count: count, probability: probability, seed: seed)
            try await AdminClient.run { try await connection.client().post("faults", request) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove one rule.")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The rule's faultID.") var faultID: String
        func run() async throws { try await AdminClient.run { try await connection.client().delete("faults/\(faultID)") } }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every rule.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await AdminClient.run { try await connection.client().delete("faults") } }
    }
}

extension DatabaseScope: ExpressibleByArgument {}
extension ZoneDeletionReason: ExpressibleByArgument {}
