import ArgumentParser
import Foundation
import StratusFuzz
import StratusKit
import StratusModel

/// `stratus fuzz`: the sync fuzzer (StratusFuzz) against a server of its own — started here on a
/// temporary data directory, fresh for every run a shrink needs — or the one `--server` names.
struct FuzzCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Run simulated devices doing seeded random things, then check that everything converged.",
        discussion: """
            Exits 0 when every check held: each device's mirror equals what the server holds for its account (private and shared), no acknowledged write is lost, no record exists twice. On a failure it prints the seed and the shortest step list it found that still fails.
            """
    )

    @Option(help: "Simulated devices.") var devices = 3
    @Option(help: "Accounts (device i is signed in to account i % accounts).") var accounts = 2
    @Option(help: "Steps.") var steps = 300
    @Option(help: "Seed: the same seed runs the same steps.") var seed: UInt64 = 1
    @Option(help: "Transient faults on this share of requests (own server only; start a --server with `stratus serve --buggify`).")
    var buggify: Double?
    @Option(help: "A running server to fuzz instead of starting one.") var server: String?
    @Option(help: "Admin token of --server (default: STRATUS_ADMIN_TOKEN).") var adminToken: String?
    @Option(help: "Seconds to spend shrinking a failure.") var shrinkSeconds = 240
    @Flag(help: "Also print each step that was refused, and why.") var verbose = false
    @Flag(help: "Also draw the edge steps: a field cleared, a photo whose file is gone before the send, a zone deleted and made again.")
    var edges = false
    @Option(help: "How every device mirrors (one app, one style): syncEngine or persistentCloudKitContainer (a zone per share).")
    var style: SimulatedDevice.MirroringStyle = .syncEngine

    func validate() throws {
        guard devices >= 1, accounts >= 1, steps >= 0 else { throw ValidationError("--devices and --accounts must be at least 1") }
        if let buggify, !(0...1).contains(buggify) { throw ValidationError("--buggify takes a rate from 0 to 1") }
        if server != nil, buggify != nil { throw ValidationError("--buggify applies to the fuzzer's own server; start --server with `stratus serve --buggify`") }
    }

    func run() async throws {
        var fuzzer = Fuzzer(plan: FuzzPlan.generate(seed: seed, devices: devices, accounts: accounts, count: steps, edges: edges))
        fuzzer.shrinkBudget = .seconds(shrinkSeconds)
        fuzzer.verbose = verbose
        fuzzer.style = style
        fuzzer.output = { Serve.say($0) }
        let passed: Bool
        if let server {
            guard let token = adminToken ?? ProcessInfo.processInfo.environment["STRATUS_ADMIN_TOKEN"] else {
                throw ValidationError("--server needs --admin-token or STRATUS_ADMIN_TOKEN")
            }
            let remote = FuzzServer(url: server, adminToken: token)
            passed = try await fuzzer.runAndReport { (remote, {}) }
        } else {
            let buggify = self.buggify.map { BuggifySetting(rate: $0, seed: seed) }
            passed = try await fuzzer.runAndReport { try await FuzzHost.start(buggify: buggify) }
        }
        if !passed { throw ExitCode.failure }
    }
}

extension SimulatedDevice.MirroringStyle: ExpressibleByArgument {}
