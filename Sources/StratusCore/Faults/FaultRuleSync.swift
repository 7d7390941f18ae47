import Foundation
import StratusModel
import StratusStore

/// Fault rules shared by every instance on one store: a change made on one instance is saved
/// as a shared setting and announced, and every other instance loads it; an instance that
/// starts later loads what is there. Counts (`count`, a seeded rule's draws) stay per instance.
final class FaultRuleSync: Sendable {
    static let setting = "fault-rules"

    private let faults: FaultInjector
    private let settings: any SharedSettings
    private let relay: InstanceRelay
    private let saves: AsyncStream<Void>.Continuation

    init(faults: FaultInjector, settings: any SharedSettings, relay: InstanceRelay) {
        self.faults = faults
        self.settings = settings
        self.relay = relay
        // Saves run one at a time, each writing the rules as they are then: the last change wins.
        let (stream, saves) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.saves = saves
        Task { [settings, faults, relay] in
            for await _ in stream {
                guard let data = try? JSONEncoder().encode(faults.list().faults) else { continue }
                do {
                    try await settings.setSharedSetting(Self.setting, to: String(decoding: data, as: UTF8.self))
                    relay.announce(.faults)
                } catch {}
            }
        }
        faults.onChange { saves.yield() }
        Task { await self.reload() }
    }

    /// Loads the shared rules (at start, and when another instance announces a change).
    func reload() async {
        guard let text = try? await settings.sharedSetting(Self.setting),
            let rules = try? JSONDecoder().decode([FaultRule].self, from: Data(text.utf8))
        else { return }
        faults.replaceRules(rules)
    }
}
