import Foundation
import Logging
import ServiceLifecycle
import StratusModel
import StratusStore

/// Fault rules shared by every instance on one store: a change made on one instance is saved
/// as a shared setting and announced, and every other instance loads it; an instance that
/// starts later loads what is there. A rule's `count` is claimed use by use in the store, so it
/// fires that many times in all; a seeded rule's draws and `matched` stay per instance.
///
/// A `Service` in the application's group: ``run()`` loads the shared rules, then saves local
/// changes and loads other instances' one at a time, until a graceful shutdown (a save asked for
/// before it still runs).
final class FaultRuleSync: Service, Sendable {
    static let setting = "fault-rules"

    /// What is saved: the rules, and the next rule number (so no instance hands out an ID twice,
    /// even after every rule was cleared, and a counter is never inherited by a later rule).
    struct Saved: Codable {
        var rules: [FaultRule]
        var nextID: Int
    }

    /// The counter holding a `count` rule's uses.
    static func counter(of faultID: String) -> String { "fault-uses:" + faultID }

    private let faults: FaultInjector
    private let settings: any SharedSettings
    private let relay: InstanceRelay
    private let logger: Logger
    /// What to do next, in order (rule changes and announcements are rare: admin actions).
    private let work: AsyncStream<Work>
    private let ask: AsyncStream<Work>.Continuation

    private enum Work {
        case save, reload
    }

    init(faults: FaultInjector, settings: any SharedSettings, relay: InstanceRelay, logger: Logger = Logger(label: "stratus.faults")) {
        self.faults = faults
        self.settings = settings
        self.relay = relay
        self.logger = logger
        // Saves run one at a time, each writing the rules as they are then: the last change wins.
        let (work, ask) = AsyncStream.makeStream(of: Work.self)
        (self.work, self.ask) = (work, ask)
        faults.onChange { ask.yield(.save) }
        faults.shareCounts { faultID, limit in
            do {
                return try await settings.claimSharedUse(Self.counter(of: faultID), limit: limit)
            } catch {
                // Without the store the use cannot be counted for everyone: the rule holds back.
                logger.error("fault rule use not claimed", metadata: ["faultID": "\(faultID)", "error": "\(error)"])
                return nil
            }
        }
    }

    /// Asks for the shared rules to be loaded again (another instance announced a change).
    func reloadSoon() {
        ask.yield(.reload)
    }

    func run() async {
        await reload()
        await withGracefulShutdownHandler {
            for await next in work {
                switch next {
                case .save: await save()
                case .reload: await reload()
                }
            }
        } onGracefulShutdown: { [ask] in
            ask.finish()
        }
    }

    /// Saves the local rules for every instance, and drops the counters of rules removed.
    private func save() async {
        let (rules, nextID) = faults.sharedState()
        guard let data = try? JSONEncoder().encode(Saved(rules: rules, nextID: nextID)) else { return }
        do {
            let before = try await Self.load(from: settings)?.rules.map(\.faultID) ?? []
            try await settings.setSharedSetting(Self.setting, to: String(decoding: data, as: UTF8.self))
            relay.announce(.faults)
            // The counters of rules this change removed go with them.
            for removed in Set(before).subtracting(rules.map(\.faultID)) {
                try await settings.setSharedSetting(Self.counter(of: removed), to: nil)
            }
        } catch {
            logger.error("fault rules not shared", metadata: ["error": "\(error)"])
        }
    }

    /// Loads the shared rules (at start, and when another instance announces a change).
    private func reload() async {
        guard let saved = try? await Self.load(from: settings) else { return }
        faults.replaceRules(saved.rules, nextID: saved.nextID)
    }

    private static func load(from settings: any SharedSettings) async throws -> Saved? {
        guard let text = try await settings.sharedSetting(setting) else { return nil }
        return try JSONDecoder().decode(Saved.self, from: Data(text.utf8))
    }
}
