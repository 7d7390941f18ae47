import Foundation
import StratusCloudKit
import StratusKit

/// The sync fuzzer: N simulated devices of M accounts doing seeded random things against a real
/// server, then the checks of ``FuzzChecker``. On a failure it shrinks the step list (each try on
/// a fresh server) and reports the shortest list that still fails.
public struct Fuzzer: Sendable {
    /// A fresh server for one run, and how to stop it.
    public typealias ServerFactory = @Sendable () async throws -> (server: FuzzServer, stop: @Sendable () async -> Void)

    public var plan: FuzzPlan
    /// Scale of the devices' retry waits (the server's `retryAfter` is whole seconds).
    public var retryDelayScale: Double = 0.02
    /// Wall-clock budget for shrinking a failure.
    public var shrinkBudget: Duration = .seconds(240)
    /// Lines of progress and the summary go here.
    public var output: @Sendable (String) -> Void = { print($0) }
    /// Also print every step the server or a device refused, and why.
    public var verbose = false
    /// How every device mirrors: one app, one style, as in production (records written by one
    /// style are not the other's: `CD_` names, zones).
    public var style: SimulatedDevice.MirroringStyle = .syncEngine

    public init(plan: FuzzPlan) { self.plan = plan }

    /// What one run found.
    public struct Outcome: Sendable {
        public var divergences: [String]
        public var summary: String
        public var passed: Bool { divergences.isEmpty }
    }

    /// Runs the plan once on `server`; `beforeCheck` may change the world first (to plant a divergence in a test).
    public func run(
        _ steps: [FuzzStep], on server: FuzzServer, progress: Bool = false,
        beforeCheck: (@Sendable (_ devices: [SimulatedDevice], _ server: FuzzServer) async throws -> Void)? = nil
    ) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let accounts = try await server.provision(accounts: plan.accounts)
        let world = FuzzWorld(
            seed: plan.seed, server: server, accounts: accounts, retryDelayScale: retryDelayScale, style: style, edges: plan.edges
        )
        try await world.addDevices(plan.devices, directory: directory)
        let tenth = max(steps.count / 10, 1)
        for (position, step) in steps.enumerated() {
            try await world.perform(step)
            if progress, (position + 1) % tenth == 0 { output("  step \(position + 1)/\(steps.count)") }
        }
        if let beforeCheck { try await beforeCheck(world.slots.map(\.device), server) }
        let checker = FuzzChecker(world: world)
        var divergences = try await checker.quiesce()
        if divergences.isEmpty { divergences = try await checker.check() }
        return Outcome(divergences: divergences.map(\.description), summary: await summary(world, steps: steps.count))
    }

    /// Runs the whole plan on a fresh server; on failure, shrinks it. Returns whether every check held.
    public func runAndReport(servers: ServerFactory) async throws -> Bool {
        output(
            "stratus fuzz: seed \(plan.seed), \(plan.devices) devices, \(plan.accounts) accounts, \(plan.steps.count) steps, "
                + "\(style.rawValue) style" + (plan.edges ? ", edges" : "")
        )
        let outcome = try await runFresh(plan.steps, servers: servers, progress: true)
        output(outcome.summary)
        if outcome.passed {
            output("PASS: every mirror equals the server, no acknowledged write lost, no record twice (seed \(plan.seed))")
            return true
        }
        output("FAIL (seed \(plan.seed)):")
        for divergence in outcome.divergences.prefix(20) { output("  \(divergence)") }
        let shortest = try await shrink(plan.steps) { steps in !(try await runFresh(steps, servers: servers).passed) }
        output("shortest failing step list found (\(shortest.count) of \(plan.steps.count) steps, seed \(plan.seed)):")
        for step in shortest { output("  \(step)") }
        return false
    }

    private func runFresh(_ steps: [FuzzStep], servers: ServerFactory, progress: Bool = false) async throws -> Outcome {
        let (server, stop) = try await servers()
        do {
            let outcome = try await run(steps, on: server, progress: progress)
            await stop()
            return outcome
        } catch {
            await stop()
            throw error
        }
    }

    /// Removes chunks of steps while the rest still `fails`, halving the chunk, within the budget:
    /// the shortest failing list it finds (every step of it needed, when the budget allows).
    public func shrink(_ steps: [FuzzStep], while fails: ([FuzzStep]) async throws -> Bool) async throws -> [FuzzStep] {
        let deadline = ContinuousClock.now + shrinkBudget
        var current = steps
        var chunk = max(current.count / 2, 1)
        while chunk >= 1 && ContinuousClock.now < deadline {
            var start = 0
            var removedAny = false
            while start < current.count && ContinuousClock.now < deadline {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                if !candidate.isEmpty, try await fails(candidate) {
                    current = candidate
                    removedAny = true
                    output("  shrinking: \(current.count) steps still fail")
                } else {
                    start += chunk
                }
            }
            if !removedAny || chunk == 1 { chunk /= 2 }
        }
        return current
    }

    private func summary(_ world: FuzzWorld, steps: Int) async -> String {
        var lines = ["", "  action            done  skipped  refused"]
        for action in FuzzAction.allCases where plan.edges || !action.isEdge {
            let counts = world.tally[action] ?? (0, 0, 0)
            lines.append("  " + action.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%6d %8d %8d", counts.done, counts.skipped, counts.refused))
        }
        lines.append("  acknowledged saves checked: \(world.ledger.acknowledged)")
        if let device = world.slots.first?.device {
            let deviations = await device.engineDeviations.map(\.rawValue)
            lines.append("  engines depart from Apple's in: \(deviations.isEmpty ? "nothing" : deviations.joined(separator: ", "))")
        }
        if verbose { lines += world.refusals.map { "  refused \($0)" } }
        if let fired = await world.server.buggifyFired() { lines.append("  faults injected by buggify: \(fired)") }
        return lines.joined(separator: "\n")
    }
}
